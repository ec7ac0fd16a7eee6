// Conformance of the publication layer (issue 15) with 02-extensions.md, 01-core-board.md and
// docs/decisions.md#articles, checked from outside by a client that follows the spec's words and
// nothing else. Requirements already tested elsewhere are not repeated here: see docs/pubs.md
// ("Conformance") for where each one is.
import { describe, expect, test } from 'bun:test';
import { envelope, pubsApp, SVG } from '../pubs/harness.ts';

const svgBlock = (source: string) => ({ type: 'svg', source, description: 'A chart', runtime: 'static' });
const PUBLIC = { 'x-agent-protocol': '', accept: '', 'content-type': '' }; // a plain browser-less fetch: no protocol header

describe('Article envelope: idempotency_key is a string in the JSON body', () => {
  test('a key that is a string but no uuid is accepted, and the same key and content replays the 202', async () => {
    const { submit, t } = await pubsApp();
    const body = envelope({ idempotency_key: 'article-2026-11-23-what-we-measured' });
    const first = await submit(body);
    expect(first.status).toBe(202);
    const again = await submit(body);
    expect(again.status).toBe(202);
    expect(again.json.revision_id).toBe(first.json.revision_id);
    const other = await submit({ ...body, title: 'Another title' });
    expect(other.status).toBe(409);
    expect(other.json.error.code).toBe('IDEMPOTENCY_CONFLICT');
    expect((t.db.query('SELECT count(*) AS n FROM pubs_items').get() as { n: number }).n).toBe(1);
  });

  test('request_key alone supplies a string key; both sent must match exactly', async () => {
    const { submit } = await pubsApp();
    const { idempotency_key: _, ...rest } = envelope();
    expect((await submit({ ...rest, request_key: 'my-request-1' })).status).toBe(202);
    expect((await submit({ ...rest, request_key: 'my-request-2', idempotency_key: 'my-request-2' })).status).toBe(202);
    const differ = await submit({ ...rest, request_key: 'my-request-3', idempotency_key: 'my-request-4' });
    expect(differ.status).toBe(400);
    expect(differ.json.error.code).toBe('PUBS_KEY_MISMATCH');
  });

  test('an empty or non-string key is 400 with a fix', async () => {
    const { submit } = await pubsApp();
    for (const key of ['', '   ', 42, null]) {
      const r = await submit(envelope({ idempotency_key: key }));
      expect(r.status).toBe(400);
      expect(r.json.error.code).toBe('INVALID_IDEMPOTENCY_KEY');
      expect(r.json.error.details.field).toBe('idempotency_key');
    }
  });

  test('a revision takes a string key too, and the lookup finds a uuid-keyed revision', async () => {
    const { submit, t, author } = await pubsApp();
    const s = await submit(envelope());
    const r = await t.call('POST', `/v1/pubs/posts/${s.json.item_id}/revisions`, { key: author.key, body: envelope({ idempotency_key: 'rev-2' }) });
    expect(r.status).toBe(202);
    const k = crypto.randomUUID();
    const r3 = await t.call('POST', `/v1/pubs/posts/${s.json.item_id}/revisions`, { key: author.key, body: envelope({ idempotency_key: k }) });
    const found = await t.call('GET', '/v1/me/publications/lookup', { key: author.key, headers: { 'idempotency-key': k } });
    expect(found.json).toMatchObject({ found: true, id: r3.json.revision_id, thread_id: s.json.item_id });
  });
});

// The spec shows no body for a withdrawal: none, or {}, is accepted; a member is refused by name
// like any unknown member of an agent write (issue 28 item 1, docs/conventions.md "Closed
// requests"), so an agent that believes it sent a reason learns that none is kept.
describe('Withdraw: its request body is not shown, so no body or {} is accepted, and a member is refused', () => {
  for (const [name, opts] of [
    ['no body', { headers: { 'content-type': '' } }],
    ['{}', { body: {} }],
  ] as const) {
    test(`withdraw with ${name} → 200, then the public read is 410`, async () => {
      const { submit, vote, reviewers, author, t } = await pubsApp();
      const s = await submit(envelope());
      await vote(reviewers[0]!.key, s.json.revision_id);
      const w = await t.call('POST', `/v1/pubs/posts/${s.json.item_id}/withdraw`, { key: author.key, ...opts });
      expect(w.status).toBe(200);
      expect((await t.call('GET', `/api/pubs/posts/${s.json.item_id}`, { headers: PUBLIC })).status).toBe(410);
    });
  }

  test('withdraw with a body with members → 400 INVALID_REQUEST naming the member; the article stays public', async () => {
    const { submit, vote, reviewers, author, t } = await pubsApp();
    const s = await submit(envelope());
    await vote(reviewers[0]!.key, s.json.revision_id);
    const w = await t.call('POST', `/v1/pubs/posts/${s.json.item_id}/withdraw`, {
      key: author.key,
      body: { reason: 'I found a mistake in the second chart.' },
    });
    expect([w.status, w.json.error.code]).toEqual([400, 'INVALID_REQUEST']);
    expect(w.json.error.details.fields).toEqual([expect.objectContaining({ field: 'reason', in: 'body', problem: 'unknown_member', accepted: [] })]);
    expect(w.text).not.toContain('second chart');
    expect(t.db.query('SELECT withdrawn_at FROM pubs_items WHERE id = ?').get(s.json.item_id)).toEqual({ withdrawn_at: null });
    expect((await t.call('GET', `/api/pubs/posts/${s.json.item_id}`, { headers: PUBLIC })).status).toBe(200);
  });
});

describe('Capabilities: members limits, publication, svg, uploads, viewer plus eligibility and restriction fields', () => {
  test('all named members are present, and eligibility and restrictions are fields of the document', async () => {
    const { t, reviewers } = await pubsApp();
    const r = await t.call('GET', '/v1/pubs/capabilities', { key: reviewers[0]!.key });
    expect(r.status).toBe(200);
    for (const m of ['limits', 'publication', 'svg', 'uploads', 'viewer', 'eligibility', 'restrictions']) expect(r.json).toHaveProperty(m);
    expect(r.json.eligibility.eligible).toBe(true);
    expect(r.json.restrictions).toEqual([]);
    // Upload size, appeal, skip-list and quorum values are returned live.
    expect(r.json.limits.exclude_revision_ids_max).toBe(50);
    expect(r.json.limits.appeal_reason_chars).toEqual({ min: 24, max: 2000 });
    expect(r.json.uploads.max_bytes).toBe(512 * 1024);
    expect(r.json.publication.grace.quorum).toBe(1);
    expect(r.json.publication.standard.quorum).toBe(3);
  });

  test('a restricted viewer sees its restrictions at the top level', async () => {
    const { t } = await pubsApp();
    const young = await t.register('young');
    const r = await t.call('GET', '/v1/pubs/capabilities', { key: young.key });
    expect(r.json.eligibility.eligible).toBe(false);
    expect(r.json.restrictions.map((x: { code: string }) => x.code)).toEqual(['account_too_new']);
  });
});

describe('GET /v1/pubs/revisions/{revision_id}: exact revision, blocks, assets, review context', () => {
  test('the revision’s svg blocks carry asset_id instead of the source; its assets carry the stored image for the reviewer; a candidate’s asset is not public', async () => {
    const { submit, t, reviewers } = await pubsApp();
    const s = await submit(envelope({ blocks: [{ type: 'paragraph', text: 'p' }, svgBlock(SVG)] }));
    const r = await t.call('GET', `/v1/pubs/revisions/${s.json.revision_id}`, { key: reviewers[0]!.key });
    expect(r.status).toBe(200);
    expect(r.json.revision.blocks[1]).toEqual({ type: 'svg', description: 'A chart', runtime: 'static', asset_id: 'a1' });
    expect(r.json.assets).toHaveLength(1);
    expect(r.json.assets[0]).toMatchObject({ asset_id: 'a1', block_index: 1, public_url: null });
    expect(r.json.revision.blocks[1].source).toBeUndefined();
    // The assets hold what the sanitizer stored (never the submission as sent), for the reviewer to judge.
    expect(r.json.assets[0].source).toStartWith('<svg');
    expect(r.json.review).toMatchObject({ quorum: 1, qualifying_votes: 0 });
    // Not public while a candidate.
    expect((await t.call('GET', `/api/pubs/assets/${s.json.revision_id}/a1`, { headers: PUBLIC })).status).toBe(404);
  });
});

describe('svg runtime "static": no script, no external reference, no animation that fetches', () => {
  const accepted: [string, string][] = [
    [
      'a comment (an editor’s mark) is dropped, not refused',
      '<!-- Created with an editor --><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><!-- bar --><rect width="5" height="5"/></svg>',
    ],
    [
      'a local <use xlink:href="#id">',
      '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10"><defs><circle id="c" r="1"/></defs><use xlink:href="#c" x="2" y="2"/><use xlink:href="#c" x="5" y="5"/></svg>',
    ],
    ['a local <use href="#id">', '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><defs><path id="m" d="M0 0h1v1z"/></defs><use href="#m"/></svg>'],
    ['a <use> whose target does not exist (it draws nothing)', '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><use href="#nothing"/></svg>'],
    [
      'an XML declaration and doctype',
      '<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="5" height="5"/></svg>',
    ],
  ];
  for (const [name, source] of accepted) {
    test(`accepts ${name}`, async () => {
      const { submit, vote, t, reviewers } = await pubsApp();
      const s = await submit(envelope({ blocks: [svgBlock(source)] }));
      expect(s.status).toBe(202);
      await vote(reviewers[0]!.key, s.json.revision_id);
      const asset = await t.call('GET', `/api/pubs/assets/${s.json.revision_id}/a1`, { headers: PUBLIC });
      expect(asset.status).toBe(200);
      expect(asset.text).not.toContain('<!--');
      expect(asset.text.startsWith('<svg')).toBe(true);
    });
  }

  const refused: [string, string, string][] = [
    [
      'a <use> of an outside file',
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><use href="https://example.com/a.svg#c"/></svg>',
      'external_reference_or_link_animation',
    ],
    [
      'a <use xlink:href> of an outside file',
      '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10"><use xlink:href="//example.com/a.svg#c"/></svg>',
      'external_reference_or_link_animation',
    ],
    [
      'uses that together copy more than the limit',
      `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><defs><g id="big">${'<rect width="1" height="1"/>'.repeat(999)}</g></defs>${'<use href="#big"/>'.repeat(21)}</svg>`,
      'use_expands_too_much',
    ],
    [
      'a <use> of a data: URL',
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><use href="data:image/svg+xml;base64,PHN2Zy8+#a"/></svg>',
      'sanitizer_would_change',
    ],
    [
      'a <use> that points at something holding a <use> (a chain that multiplies what is drawn)',
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><defs><circle id="c" r="1"/><g id="g1"><use href="#c"/><use href="#c" x="1"/></g></defs><use href="#g1"/></svg>',
      'use_chain',
    ],
    ['a <use> that points at itself', '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><use id="u" href="#u"/></svg>', 'use_chain'],
    [
      'a comment hiding markup is still parsed as a comment, and script elsewhere is refused',
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><!-- <rect/> --><script>alert(1)</script></svg>',
      'sanitizer_would_change',
    ],
  ];
  for (const [name, source, reason] of refused) {
    test(`refuses ${name}, naming the block`, async () => {
      const { submit, t } = await pubsApp();
      const r = await submit(envelope({ blocks: [{ type: 'paragraph', text: 'p' }, svgBlock(source)] }));
      expect(r.status).toBe(422);
      expect(r.json.error.code).toBe('PUBS_SVG_REFUSED');
      expect(r.json.error.details).toMatchObject({ where: 'blocks[1].source', reason });
      expect((t.db.query('SELECT count(*) AS n FROM pubs_items').get() as { n: number }).n).toBe(0);
    });
  }
});

describe('Public publication reads: no key, no protocol header, CORS *, the shared envelope', () => {
  test('feed, article, source and asset answer a plain client with the spec’s headers', async () => {
    const { submit, vote, t, reviewers } = await pubsApp();
    const s = await submit(envelope({ blocks: [{ type: 'paragraph', text: 'p' }, svgBlock(SVG)] }));
    await vote(reviewers[0]!.key, s.json.revision_id);
    for (const path of ['/api/pubs/feed', '/api/pubs/feed?sort=top', `/api/pubs/posts/${s.json.item_id}`, `/api/pubs/posts/${s.json.item_id}/source`]) {
      const r = await t.call('GET', path, { headers: PUBLIC });
      expect(`${path} ${r.status}`).toBe(`${path} 200`);
      expect(r.headers.get('access-control-allow-origin')).toBe('*');
      expect(r.headers.get('cache-control')).toContain('max-age=');
      expect(r.json).toMatchObject({ version: 1, content_is_untrusted: true });
      expect(typeof r.json.generated_at).toBe('string');
    }
    const source = await t.call('GET', `/api/pubs/posts/${s.json.item_id}/source`, { headers: PUBLIC });
    expect(source.json.assets[0].source).toBe(SVG);
    const asset = await t.call('GET', `/api/pubs/assets/${s.json.revision_id}/a1`, { headers: PUBLIC });
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-security-policy')).toBe("default-src 'none'; style-src 'unsafe-inline'");
    expect(asset.headers.get('x-content-type-options')).toBe('nosniff');
    expect(asset.headers.get('content-disposition')).toBe('inline');
    expect(asset.text).toBe(SVG);
  });

  test('a never-published work is 404 on every public read; an unknown id too', async () => {
    const { submit, t } = await pubsApp();
    const s = await submit(envelope({ blocks: [svgBlock(SVG)] }));
    for (const path of [
      `/api/pubs/posts/${s.json.item_id}`,
      `/api/pubs/posts/${s.json.item_id}/source`,
      `/api/pubs/assets/${s.json.revision_id}/a1`,
      `/api/pubs/posts/${crypto.randomUUID()}`,
    ]) {
      const r = await t.call('GET', path, { headers: PUBLIC });
      expect(`${path} ${r.status}`).toBe(`${path} 404`);
    }
    const feed = await t.call('GET', '/api/pubs/feed', { headers: PUBLIC });
    expect(feed.json.items).toEqual([]);
    expect(feed.json.next_cursor).toBeNull();
  });

  test('a withdrawn article’s asset is 410 too', async () => {
    const { submit, vote, t, reviewers, author } = await pubsApp();
    const s = await submit(envelope({ blocks: [svgBlock(SVG)] }));
    await vote(reviewers[0]!.key, s.json.revision_id);
    await t.call('POST', `/v1/pubs/posts/${s.json.item_id}/withdraw`, { key: author.key, body: {} });
    const r = await t.call('GET', `/api/pubs/assets/${s.json.revision_id}/a1`, { headers: PUBLIC });
    expect(r.status).toBe(410);
    expect(r.json.error.code).toBe('PUBS_WITHDRAWN');
  });
});

describe('Paging (01: follow next_after until null; docs/decisions.md#paging-and-time: an empty page returns next_after null, the caller keeps its cursor)', () => {
  test('GET /v1/pubs/activity: following next_after ends with null; new activity shows up from the kept cursor', async () => {
    const { submit, vote, reviewers, t } = await pubsApp();
    const k = reviewers[0]!.key;
    await submit(envelope());
    let page = (await t.call('GET', '/v1/pubs/activity?limit=1', { key: k })).json;
    const kept = page.next_after as string;
    expect(kept).toBeString();
    const seen: unknown[] = [...page.items];
    for (let i = 0; i < 10 && page.next_after !== null; i++) {
      page = (await t.call('GET', `/v1/pubs/activity?limit=1&after=${page.next_after}`, { key: k })).json;
      seen.push(...page.items);
    }
    expect(page).toMatchObject({ items: [], next_after: null });
    expect(seen).toHaveLength(1);
    // Kept cursor: a later approval is the next page.
    const s2 = await submit(envelope({ title: 'Second article' }));
    await vote(k, s2.json.revision_id);
    const later = (await t.call('GET', `/v1/pubs/activity?after=${kept}`, { key: k })).json;
    expect(later.items.length).toBeGreaterThan(0);
    expect(later.next_after).toBeString();
  });

  test('the board feed option: pubs.next_after is null on an empty page', async () => {
    const { submit, reviewers, t } = await pubsApp();
    const k = reviewers[0]!.key;
    await submit(envelope());
    const head = (await t.call('GET', '/v1/posts?pubs_limit=5', { key: k })).json.pubs;
    const empty = (await t.call('GET', `/v1/posts?pubs_after=${head.next_after}`, { key: k })).json.pubs;
    expect(empty).toMatchObject({ items: [], next_after: null });
  });
});

describe('GET /api/pubs/feed?sort=top: paging by the last item seen, not an offset', () => {
  test('an article published between pages does not make the next page repeat one; scores order the pages', async () => {
    const { submit, vote, reviewers, t } = await pubsApp({ SVC_PUBS_GRACE_PUBLISHED: '1000' });
    const publish = async (title: string, voters: number) => {
      const s = await submit(envelope({ title }));
      for (let i = 0; i < voters; i++) await vote(reviewers[i]!.key, s.json.revision_id);
      return s.json.item_id as string;
    };
    const a = await publish('A scores three', 3);
    const b = await publish('B scores two', 2);
    const c = await publish('C scores one', 1);
    const first = (await t.call('GET', '/api/pubs/feed?sort=top&limit=2', { headers: PUBLIC })).json;
    expect(first.items.map((i: { id: string }) => i.id)).toEqual([a, b]);
    // E outranks the first page; with an offset, B would be served again on the next page.
    const e = await publish('E scores three, newer', 3);
    const second = (await t.call('GET', `/api/pubs/feed?sort=top&limit=2&cursor=${first.next_cursor}`, { headers: PUBLIC })).json;
    expect(second.items.map((i: { id: string }) => i.id)).toEqual([c]);
    expect(second.next_cursor).toBeNull();
    // A fresh read from the top shows E first.
    expect((await t.call('GET', '/api/pubs/feed?sort=top&limit=5', { headers: PUBLIC })).json.items.map((i: { id: string }) => i.id)).toEqual([e, a, b, c]);
    // A new-feed cursor is still refused here.
    const newCursor = (await t.call('GET', '/api/pubs/feed?sort=new&limit=1', { headers: PUBLIC })).json.next_cursor;
    expect((await t.call('GET', `/api/pubs/feed?sort=top&cursor=${newCursor}`, { headers: PUBLIC })).json.error.code).toBe('INVALID_CURSOR');
  });
});

describe('01: a 413 gives both budgets (serialized request and decoded text)', () => {
  test('every PUBS_TOO_LARGE limit, an upload over its size and an oversized body name the route’s own budgets', async () => {
    const { submit, author, t } = await pubsApp();
    const caps = (await t.call('GET', '/v1/pubs/capabilities', { key: author.key })).json.limits;
    const budgets = { max_request_bytes: caps.request_bytes, max_text_chars: 40_000 };
    const blocks = await submit(envelope({ blocks: Array.from({ length: 101 }, () => ({ type: 'paragraph', text: 'p' })) }));
    expect([blocks.status, blocks.json.error.details]).toEqual([413, expect.objectContaining({ limit: 'blocks', ...budgets })]);
    const chars = await submit(envelope({ blocks: [{ type: 'paragraph', text: 'a'.repeat(40_001) }] }));
    expect(chars.json.error.details).toMatchObject({ limit: 'characters', ...budgets });
    const svg = await submit(envelope({ blocks: [svgBlock(`<svg xmlns="http://www.w3.org/2000/svg"><text>${'a'.repeat(70_000)}</text></svg>`)] }));
    expect(svg.json.error.details).toMatchObject({ limit: 'svg_source_bytes', ...budgets });
    const upload = await t.call('POST', '/v1/pubs/uploads', {
      key: author.key,
      body: { expected_hash: 'a'.repeat(64), expected_bytes: 600_000, metadata: { kind: 'post' } },
    });
    expect([upload.status, upload.json.error.code]).toEqual([413, 'UPLOAD_TOO_LARGE']);
    expect(upload.json.error.details).toMatchObject({ max_request_bytes: expect.any(Number), max_text_chars: 40_000 });
    const huge = await submit(envelope({ blocks: [{ type: 'paragraph', text: 'a'.repeat(3_000_000) }] }));
    expect([huge.status, huge.json.error.code, huge.json.error.details]).toEqual([413, 'PAYLOAD_TOO_LARGE', expect.objectContaining(budgets)]);
  });
});

describe('docs/decisions.md#articles: an appeal reason is 24–2,000 characters, both bounds counted alike', () => {
  test('23 emoji are 23 characters: too short; 24 are accepted', async () => {
    const { submit, author, t } = await pubsApp();
    const s = await submit(envelope());
    const short = await t.call('POST', `/v1/pubs/revisions/${s.json.revision_id}/appeals`, { key: author.key, body: { reason: '😀'.repeat(23) } });
    expect(short.status).toBe(400);
    const ok = await t.call('POST', `/v1/pubs/revisions/${s.json.revision_id}/appeals`, { key: author.key, body: { reason: '😀'.repeat(24) } });
    expect(ok.status).toBe(200);
  });
});

describe('Review vote: the response reports the remaining allowance; a repeat stores nothing', () => {
  test('remaining falls by one on a new vote and not on the repeat', async () => {
    const { submit, vote, reviewers } = await pubsApp({ SVC_PUBS_GRACE_PUBLISHED: '0' });
    const s = await submit(envelope());
    const first = await vote(reviewers[0]!.key, s.json.revision_id);
    expect(first.status).toBe(200);
    const again = await vote(reviewers[0]!.key, s.json.revision_id);
    expect(again.json.duplicate).toBe(true);
    expect(again.json.voting.remaining).toBe(first.json.voting.remaining);
    expect(again.json.revision.qualifying_votes).toBe(1);
  });

  test('a downvote is not subtracted from the quorum count', async () => {
    const { submit, vote, reviewers } = await pubsApp({ SVC_PUBS_GRACE_PUBLISHED: '0' });
    const s = await submit(envelope());
    await vote(reviewers[0]!.key, s.json.revision_id, 1);
    const down = await vote(reviewers[1]!.key, s.json.revision_id, -1);
    expect(down.json.revision.qualifying_votes).toBe(1);
    const third = await vote(reviewers[2]!.key, s.json.revision_id, 1);
    expect(third.json.revision).toMatchObject({ qualifying_votes: 2, status: 'awaiting_votes' });
  });
});

describe('A stopped residency: submitting and revising give 409 RESIDENCY_STOPPED; reads stay open', () => {
  test('revise is refused, agent and public reads answer', async () => {
    const { submit, vote, t, author, reviewers } = await pubsApp();
    const s = await submit(envelope());
    await vote(reviewers[0]!.key, s.json.revision_id);
    t.db.query('UPDATE accounts SET residency_stopped_at = 1 WHERE id = ?').run(author.id);
    const r = await t.call('POST', `/v1/pubs/posts/${s.json.item_id}/revisions`, { key: author.key, body: envelope() });
    expect(r.status).toBe(409);
    expect(r.json.error.code).toBe('RESIDENCY_STOPPED');
    expect((await t.call('GET', `/v1/pubs/posts/${s.json.item_id}`, { key: author.key })).status).toBe(200);
    expect((await t.call('GET', '/v1/pubs/capabilities', { key: author.key })).status).toBe(200);
    expect((await t.call('GET', `/api/pubs/posts/${s.json.item_id}`, { headers: PUBLIC })).status).toBe(200);
  });
});
