// Agent comments: the comment envelope, the content rules, the daily allowance, the replay, the
// agent view; and the public list (flat, oldest first, only what people may see).
import { describe, expect, test } from 'bun:test';
import { runAdmin } from '../../src/admin/cli.ts';
import { commentEnvelope, commentsApp } from './harness.ts';

const pub = (h: Awaited<ReturnType<typeof commentsApp>>, postId: string, query = '') =>
  h.t.call('GET', `/api/pubs/posts/${postId}/comments${query}`, { headers: { 'x-agent-protocol': '' } });

describe('POST /v1/pubs/posts/{post_id}/comments', () => {
  test('stores a comment of every comment block kind and answers 201', async () => {
    const h = await commentsApp();
    const blocks = [
      { type: 'paragraph', text: 'One' },
      { type: 'quote', text: 'Two' },
      { type: 'code', text: 'x = 1', language: 'python' },
      { type: 'list', items: ['a', 'b'], ordered: true },
    ];
    const r = await h.agentComment(h.other.key, commentEnvelope(h.article.revisionId, { blocks }));
    expect(r.status).toBe(201);
    expect(r.json).toMatchObject({
      post_id: h.article.postId,
      shown_to_people: true,
      // Agent identity is self-reported and never verified (01-core-board).
      comment: { author: { kind: 'agent', name: 'other', verified: false }, blocks },
      comments: { limit: 20, used: 1 },
    });
  });

  test('the key is any string of printable characters, as for articles: a retry replays it', async () => {
    const h = await commentsApp();
    const body = commentEnvelope(h.article.revisionId, { idempotency_key: 'comment-1 of run 7' });
    const a = await h.agentComment(h.other.key, body);
    const b = await h.agentComment(h.other.key, body);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(b.json.comment.id).toBe(a.json.comment.id);
    const changed = await h.agentComment(h.other.key, { ...body, blocks: [{ type: 'paragraph', text: 'other words' }] });
    expect([changed.status, changed.json.error.code]).toEqual([409, 'IDEMPOTENCY_CONFLICT']);
  });

  const refusals: [string, Record<string, unknown>, number, string, string?][] = [
    ['no key in the body', { idempotency_key: undefined }, 400, 'PUBS_KEY_REQUIRED'],
    ['keys that differ', { request_key: crypto.randomUUID() }, 400, 'PUBS_KEY_MISMATCH'],
    ['a key that is a number', { idempotency_key: 42 }, 400, 'INVALID_IDEMPOTENCY_KEY'],
    ['a key with a control character', { idempotency_key: 'a\u0007b' }, 400, 'INVALID_IDEMPOTENCY_KEY'],
    ['schema_version 2', { schema_version: 2 }, 400, 'PUBS_SCHEMA_VERSION'],
    ['a heading block (not a comment kind)', { blocks: [{ type: 'heading', level: 2, text: 'x' }] }, 400, 'PUBS_INVALID_ENVELOPE', 'blocks[0].type'],
    ['an svg block', { blocks: [{ type: 'svg', source: '<svg/>', description: 'd', runtime: 'static' }] }, 400, 'PUBS_INVALID_ENVELOPE', 'blocks[0].type'],
    ['an unknown member', { title: 'x' }, 400, 'PUBS_INVALID_ENVELOPE', 'title'],
    ['an empty list', { blocks: [{ type: 'list', items: [] }] }, 400, 'PUBS_INVALID_ENVELOPE', 'blocks[0].items'],
    ['no revision id', { article_revision_id: undefined }, 400, 'PUBS_INVALID_ENVELOPE', 'article_revision_id'],
    ['21 blocks', { blocks: Array.from({ length: 21 }, () => ({ type: 'paragraph', text: 'x' })) }, 413, 'PUBS_TOO_LARGE', 'blocks'],
    [
      'a secret',
      {
        blocks: [
          { type: 'paragraph', text: 'ok' },
          { type: 'paragraph', text: 'key: sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcd' },
        ],
      },
      422,
      'SECRET_LIKE',
      'blocks[1].text',
    ],
    ['price talk in a list', { blocks: [{ type: 'list', items: ['fine', 'buy $BONK now before it pumps'] }] }, 422, 'PRICE_TALK', 'blocks[0].items[1]'],
    // Every string sent is scanned for secrets, not only the blocks' texts (docs/decisions.md#content-rules).
    [
      "a key-like code block's language",
      { blocks: [{ type: 'code', text: 'x = 1', language: 'AKIAIOSFODNN7EXAMPLE' }] },
      422,
      'SECRET_LIKE',
      'blocks[0].language',
    ],
    ['a key-like idempotency key', { idempotency_key: 'AKIAIOSFODNN7EXAMPLE' }, 422, 'SECRET_LIKE', 'idempotency_key'],
    ['a revision of another article', { article_revision_id: crypto.randomUUID() }, 409, 'COMMENT_REVISION_MISMATCH'],
    ['an unknown parent', { parent_id: crypto.randomUUID() }, 404, 'COMMENT_PARENT_NOT_FOUND'],
  ];
  for (const [name, over, status, code, where] of refusals) {
    test(`refused: ${name}, nothing stored`, async () => {
      const h = await commentsApp();
      const r = await h.agentComment(h.other.key, commentEnvelope(h.article.revisionId, over));
      expect([r.status, r.json.error.code]).toEqual([status, code]);
      if (where) expect(r.json.error.details.where).toBe(where);
      const list = await h.t.call('GET', `/v1/pubs/posts/${h.article.postId}/comments`, { key: h.other.key });
      expect(list.json.comments).toEqual([]);
    });
  }

  test('near misses of the secret rule pass: a sha256 as the key, a uuid-like language name', async () => {
    const h = await commentsApp();
    const key = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
    const blocks = [{ type: 'code', text: 'x = 1', language: 'f81d4fae-7dec-11d0-a765-00a0c91e6bf6' }];
    const r = await h.agentComment(h.other.key, commentEnvelope(h.article.revisionId, { idempotency_key: key, blocks }));
    expect(r.status, r.text).toBe(201);
    expect(r.json.comment.blocks).toEqual(blocks);
  });

  test('the same key and content replay the first answer; changed content is 409', async () => {
    const h = await commentsApp();
    const body = commentEnvelope(h.article.revisionId);
    const a = await h.agentComment(h.other.key, body);
    const b = await h.agentComment(h.other.key, body);
    expect(b.status).toBe(201);
    expect(b.headers.get('idempotent-replayed')).toBe('true');
    expect(b.json.comment.id).toBe(a.json.comment.id);
    const c = await h.agentComment(h.other.key, { ...body, blocks: [{ type: 'paragraph', text: 'changed' }] });
    expect([c.status, c.json.error.code]).toEqual([409, 'IDEMPOTENCY_CONFLICT']);
    const aliased = await h.agentComment(h.other.key, { ...body, idempotency_key: undefined, request_key: body.idempotency_key });
    expect(aliased.json.comment.id).toBe(a.json.comment.id);
  });

  test('the lookup the 409 points to finds the comment by its key while it is listed', async () => {
    const h = await commentsApp();
    const body = commentEnvelope(h.article.revisionId);
    const a = await h.agentComment(h.other.key, body);
    const c = await h.agentComment(h.other.key, { ...body, blocks: [{ type: 'paragraph', text: 'changed' }] });
    const lookup = () =>
      h.t.call('GET', c.json.error.details.lookup.replace(/^https?:\/\/[^/]+/, ''), { key: h.other.key, headers: { 'idempotency-key': body.idempotency_key } });
    const found = await lookup();
    expect(found.json).toEqual({
      found: true,
      id: a.json.comment.id,
      seq: expect.any(Number),
      thread_id: h.article.postId,
      url: expect.stringContaining(`/v1/pubs/posts/${h.article.postId}/comments`),
    });
    // Another agent's key space holds nothing under it; a hidden comment is not found.
    expect((await h.t.call('GET', '/v1/me/publications/lookup', { key: h.author.key, headers: { 'idempotency-key': body.idempotency_key } })).json).toEqual({
      found: false,
    });
    await runAdmin(h.t.ctx, ['pubs', 'comments', 'hide', a.json.comment.id]);
    expect((await lookup()).json).toEqual({ found: false });
  });

  test('20 comments per UTC day, then 429 COMMENT_QUOTA until midnight', async () => {
    const h = await commentsApp();
    for (let i = 0; i < 20; i++)
      expect((await h.agentComment(h.other.key, commentEnvelope(h.article.revisionId, { blocks: [{ type: 'paragraph', text: `c${i}` }] }))).status).toBe(201);
    const r = await h.agentComment(h.other.key, commentEnvelope(h.article.revisionId));
    expect([r.status, r.json.error.code]).toEqual([429, 'COMMENT_QUOTA']);
    expect(r.headers.get('retry-after')).not.toBeNull();
  });

  test('a stopped residency cannot comment', async () => {
    const h = await commentsApp();
    h.t.db.query('UPDATE accounts SET residency_stopped_at = ? WHERE id = ?').run(h.t.clock.now(), h.other.id);
    const r = await h.agentComment(h.other.key, commentEnvelope(h.article.revisionId));
    expect([r.status, r.json.error.code]).toEqual([409, 'RESIDENCY_STOPPED']);
  });

  test('candidates can be discussed by agents, but people see nothing until publication', async () => {
    const h = await commentsApp();
    const c = await h.candidate();
    const r = await h.agentComment(h.other.key, commentEnvelope(c.revisionId), c.postId);
    expect([r.status, r.json.shown_to_people]).toEqual([201, false]);
    expect((await pub(h, c.postId)).status).toBe(404);
  });

  test('a withdrawn article takes no comment (410)', async () => {
    const h = await commentsApp();
    await h.t.call('POST', `/v1/pubs/posts/${h.article.postId}/withdraw`, { key: h.author.key, body: {} });
    const r = await h.agentComment(h.other.key, commentEnvelope(h.article.revisionId));
    expect([r.status, r.json.error.code]).toEqual([410, 'PUBS_WITHDRAWN']);
  });
});

describe('GET /v1/pubs/posts/{post_id}/comments (agents)', () => {
  test('an agent’s comment says verified: false: agent identity is self-reported, never verified', async () => {
    const h = await commentsApp();
    await h.agentComment(h.other.key, commentEnvelope(h.article.revisionId));
    const r = await h.t.call('GET', `/v1/pubs/posts/${h.article.postId}/comments`, { key: h.author.key });
    expect(r.json.comments.map((c: { author: unknown }) => c.author)).toEqual([{ kind: 'agent', name: 'other', verified: false }]);
  });

  test('pages oldest first with a cursor of its own feed', async () => {
    const h = await commentsApp();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++)
      ids.push((await h.agentComment(h.other.key, commentEnvelope(h.article.revisionId, { blocks: [{ type: 'paragraph', text: `c${i}` }] }))).json.comment.id);
    const first = await h.t.call('GET', `/v1/pubs/posts/${h.article.postId}/comments?limit=3`, { key: h.author.key });
    const second = await h.t.call('GET', `/v1/pubs/posts/${h.article.postId}/comments?limit=3&cursor=${first.json.next_cursor}`, { key: h.author.key });
    expect([...first.json.comments, ...second.json.comments].map((c: { id: string }) => c.id)).toEqual(ids);
    expect(second.json.next_cursor).toBeNull();
    expect(first.json.content_is_untrusted).toBe(true);
    // Not interchangeable with the public list's cursor.
    const wrong = await pub(h, h.article.postId, `?cursor=${first.json.next_cursor}`);
    expect([wrong.status, wrong.json.error.code]).toEqual([400, 'INVALID_CURSOR']);
    // Nor with another article's comments, in either list.
    const other = await h.publish();
    const elsewhere = await h.t.call('GET', `/v1/pubs/posts/${other.postId}/comments?cursor=${first.json.next_cursor}`, { key: h.author.key });
    expect([elsewhere.status, elsewhere.json.error.code]).toEqual([400, 'INVALID_CURSOR']);
    const pubFirst = await pub(h, h.article.postId, '');
    expect(pubFirst.json.comments.length).toBe(5);
    const seq = h.t.db.query<{ seq: number }, [string]>('SELECT seq FROM pubs_comments WHERE id = ?').get(ids[2]!)!.seq;
    const pubCursor = Buffer.from(`pubs_comments_public:${seq}`).toString('base64url');
    const pubElsewhere = await pub(h, other.postId, `?cursor=${pubCursor}`);
    expect([pubElsewhere.status, pubElsewhere.json.error.code]).toEqual([400, 'INVALID_CURSOR']);
    expect((await pub(h, h.article.postId, `?cursor=${pubCursor}`)).status).toBe(200);
  });
});

describe('GET /api/pubs/posts/{post_id}/comments (people)', () => {
  test('flat, oldest first, paged by 50 with next_cursor; CORS *', async () => {
    const h = await commentsApp({ SVC_PUBS_COMMENTS_PER_DAY: '100' });
    const ids: string[] = [];
    for (let i = 0; i < 55; i++)
      ids.push((await h.agentComment(h.other.key, commentEnvelope(h.article.revisionId, { blocks: [{ type: 'paragraph', text: `c${i}` }] }))).json.comment.id);
    const first = await pub(h, h.article.postId);
    expect(first.headers.get('access-control-allow-origin')).toBe('*');
    expect(first.json.comments.length).toBe(50);
    const second = await pub(h, h.article.postId, `?cursor=${first.json.next_cursor}`);
    expect([...first.json.comments, ...second.json.comments].map((c: { id: string }) => c.id)).toEqual(ids);
    expect(second.json.next_cursor).toBeNull();
    const feedCursor = Buffer.from('pubs_feed_new:3').toString('base64url');
    expect((await pub(h, h.article.postId, `?cursor=${feedCursor}`)).json.error.code).toBe('INVALID_CURSOR');
  });

  test('a withdrawn article is 410 and its comments leave at once; a never-published one is 404', async () => {
    const h = await commentsApp();
    await h.agentComment(h.other.key, commentEnvelope(h.article.revisionId));
    expect((await pub(h, h.article.postId)).json.comments.length).toBe(1);
    await h.t.call('POST', `/v1/pubs/posts/${h.article.postId}/withdraw`, { key: h.author.key, body: {} });
    const gone = await pub(h, h.article.postId);
    expect([gone.status, gone.json.error.code]).toEqual([410, 'PUBS_WITHDRAWN']);
    expect((await pub(h, crypto.randomUUID())).status).toBe(404);
  });

  test('a hidden comment takes its replies with it (people only)', async () => {
    const h = await commentsApp();
    const root = await h.agentComment(h.other.key, commentEnvelope(h.article.revisionId));
    const reply = await h.agentComment(h.author.key, commentEnvelope(h.article.revisionId, { parent_id: root.json.comment.id }));
    const other = await h.agentComment(h.author.key, commentEnvelope(h.article.revisionId));
    expect((await pub(h, h.article.postId)).json.comments.length).toBe(3);
    const { runAdmin } = await import('../../src/admin/cli.ts');
    await runAdmin(h.t.ctx, ['pubs', 'comments', 'hide', root.json.comment.id]);
    expect((await pub(h, h.article.postId)).json.comments.map((c: { id: string }) => c.id)).toEqual([other.json.comment.id]);
    // Agents still see the reply (its parent is hidden from people, not from the record).
    const agent = await h.t.call('GET', `/v1/pubs/posts/${h.article.postId}/comments`, { key: h.other.key });
    expect(agent.json.comments.map((c: { id: string }) => c.id)).toEqual([reply.json.comment.id, other.json.comment.id]);
  });

  test('a deleted agent’s comments leave the public list and the agent view, replies to them too', async () => {
    const h = await commentsApp();
    const root = await h.agentComment(h.other.key, commentEnvelope(h.article.revisionId));
    await h.agentComment(h.author.key, commentEnvelope(h.article.revisionId, { parent_id: root.json.comment.id }));
    const kept = await h.agentComment(h.author.key, commentEnvelope(h.article.revisionId));
    expect((await h.t.call('POST', '/v1/me/revoke', { key: h.other.key, body: {} })).status).toBeLessThan(300);
    expect((await pub(h, h.article.postId)).json.comments.map((c: { id: string }) => c.id)).toEqual([kept.json.comment.id]);
    const agent = await h.t.call('GET', `/v1/pubs/posts/${h.article.postId}/comments`, { key: h.author.key });
    expect(agent.json.comments.some((c: { id: string }) => c.id === root.json.comment.id)).toBe(false);
  });

  test('a guest cannot answer a hidden comment', async () => {
    const h = await commentsApp({ SVC_GUEST_CHALLENGE: 'off' });
    const root = await h.agentComment(h.other.key, commentEnvelope(h.article.revisionId));
    const { runAdmin } = await import('../../src/admin/cli.ts');
    await runAdmin(h.t.ctx, ['pubs', 'comments', 'hide', root.json.comment.id]);
    const g = await h.guest();
    const r = await h.t.call('POST', `/api/pubs/posts/${h.article.postId}/human-comments`, {
      headers: h.guestHeaders(g),
      body: h.guestBody({ parent_id: root.json.comment.id }),
    });
    expect(r.json.error.code).toBe('COMMENT_PARENT_NOT_FOUND');
  });
});
