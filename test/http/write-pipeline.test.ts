// The one write pipeline (src/http/write.ts) takes the key from where each route's contract puts it:
// the Idempotency-Key header (POST /v1/posts) or the body's idempotency_key (articles, agent
// comments). Either way a retry replays the first answer with Idempotent-Replayed, another body
// under the key is 409, a refused write stores nothing and leaves the key free, and a missing key
// answers the route's own code.
import { describe, expect, test } from 'bun:test';
import type { Db } from '../../src/db/open.ts';
import { commentEnvelope, commentsApp } from '../comments/harness.ts';
import { makeApp } from '../helpers.ts';
import { envelope, pubsApp } from '../pubs/harness.ts';

const SECRET = 'key: sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcd';
// The idempotency rows a key left (none: the key is still free).
const keysOf = (t: { db: Db }, key: string) => t.db.query('SELECT route FROM idempotency_keys WHERE key = ?').all(key);
const count = (t: { db: Db }, table: string) => (t.db.query(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;

describe('a key in the Idempotency-Key header (POST /v1/posts)', () => {
  async function setup() {
    const t = makeApp();
    const alice = await t.register('alice');
    const post = (body: object, key?: string) =>
      t.call('POST', '/v1/posts', { key: alice.key, body, headers: key === undefined ? {} : { 'idempotency-key': key } });
    // The service's own posts (the rules root) are there from the start.
    const before = count(t, 'posts');
    const added = () => count(t, 'posts') - before;
    return { t, post, added };
  }
  const thread = (title = 'A thread') => ({ topic: 'general', title, body: 'text' });

  test('a retry replays the first answer with the replay header', async () => {
    const { post, added } = await setup();
    const key = crypto.randomUUID();
    const first = await post(thread(), key);
    const again = await post(thread(), key);
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.json).toEqual(first.json);
    expect(added()).toBe(1);
  });

  test('another body under the same key is 409 IDEMPOTENCY_CONFLICT', async () => {
    const { post, added } = await setup();
    const key = crypto.randomUUID();
    expect((await post(thread(), key)).status).toBe(200);
    const other = await post(thread('Another thread'), key);
    expect(other.status).toBe(409);
    expect(other.json.error.code).toBe('IDEMPOTENCY_CONFLICT');
    expect(added()).toBe(1);
  });

  test('a write the content rules refuse stores nothing and leaves the key unused', async () => {
    const { t, post, added } = await setup();
    const key = crypto.randomUUID();
    const refused = await post({ ...thread(), body: SECRET }, key);
    expect(refused.status).toBe(422);
    expect(refused.json.error.code).toBe('SECRET_LIKE');
    expect(added()).toBe(0);
    expect(keysOf(t, key)).toEqual([]);
    // The key is still free: the next write under it is a first write, not a replay or a conflict.
    const ok = await post(thread(), key);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('idempotent-replayed')).toBeNull();
    expect(keysOf(t, key)).toEqual([{ route: 'POST /v1/posts' }]);
  });

  test('a missing key is 400 IDEMPOTENCY_KEY_REQUIRED; a malformed one 400 INVALID_IDEMPOTENCY_KEY', async () => {
    const { post, added } = await setup();
    const missing = await post(thread());
    expect(missing.status).toBe(400);
    expect(missing.json.error.code).toBe('IDEMPOTENCY_KEY_REQUIRED');
    const malformed = await post(thread(), 'not-a-uuid');
    expect(malformed.status).toBe(400);
    expect(malformed.json.error.code).toBe('INVALID_IDEMPOTENCY_KEY');
    expect(added()).toBe(0);
  });
});

describe('a key in the body (POST /v1/pubs/posts: the envelope’s idempotency_key)', () => {
  test('a retry replays the first 202 with the replay header; the key was stored in lower case', async () => {
    const { t, submit } = await pubsApp();
    const key = crypto.randomUUID();
    const first = await submit(envelope({ idempotency_key: key }));
    // The alias, in upper case, is the same key.
    const { idempotency_key: _, ...rest } = envelope({ idempotency_key: key });
    const again = await submit({ ...rest, request_key: key.toUpperCase() });
    expect(first.status).toBe(202);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(again.status).toBe(202);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.json).toEqual(first.json);
    expect(keysOf(t, key)).toEqual([{ route: 'POST /v1/pubs/posts' }]);
    expect(count(t, 'pubs_revisions')).toBe(1);
  });

  test('other content under the same key is 409 IDEMPOTENCY_CONFLICT', async () => {
    const { t, submit } = await pubsApp();
    const key = crypto.randomUUID();
    expect((await submit(envelope({ idempotency_key: key }))).status).toBe(202);
    const other = await submit(envelope({ idempotency_key: key, title: 'Another title' }));
    expect(other.status).toBe(409);
    expect(other.json.error.code).toBe('IDEMPOTENCY_CONFLICT');
    expect(count(t, 'pubs_revisions')).toBe(1);
  });

  test('a submission the content rules refuse stores nothing and leaves the key unused', async () => {
    const { t, submit } = await pubsApp();
    const key = crypto.randomUUID();
    const refused = await submit(envelope({ idempotency_key: key, blocks: [{ type: 'paragraph', text: SECRET }] }));
    expect(refused.status).toBe(422);
    expect(refused.json.error.code).toBe('SECRET_LIKE');
    expect(count(t, 'pubs_revisions')).toBe(0);
    expect(keysOf(t, key)).toEqual([]);
    const ok = await submit(envelope({ idempotency_key: key }));
    expect(ok.status).toBe(202);
    expect(ok.headers.get('idempotent-replayed')).toBeNull();
  });

  test('a missing key is 400 PUBS_KEY_REQUIRED, and an Idempotency-Key header does not supply it', async () => {
    const { t, author } = await pubsApp();
    const { idempotency_key: _, ...body } = envelope();
    const r = await t.call('POST', '/v1/pubs/posts', { key: author.key, body, headers: { 'idempotency-key': crypto.randomUUID() } });
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe('PUBS_KEY_REQUIRED');
    expect(count(t, 'pubs_revisions')).toBe(0);
    expect(count(t, 'idempotency_keys')).toBe(0);
  });
});

describe('a key in the body (POST /v1/pubs/posts/{post_id}/comments)', () => {
  test('a retry replays the 201; other blocks under the key are 409; a refusal leaves the key free; no key is PUBS_KEY_REQUIRED', async () => {
    const { t, other, article } = await commentsApp();
    const comment = (body: object) => t.call('POST', `/v1/pubs/posts/${article.postId}/comments`, { key: other.key, body });
    const key = crypto.randomUUID();

    const refused = await comment(commentEnvelope(article.revisionId, { idempotency_key: key, blocks: [{ type: 'paragraph', text: SECRET }] }));
    expect(refused.status).toBe(422);
    expect(refused.json.error.code).toBe('SECRET_LIKE');
    expect(keysOf(t, key)).toEqual([]);

    const body = commentEnvelope(article.revisionId, { idempotency_key: key });
    const first = await comment(body);
    const again = await comment(body);
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.json).toEqual(first.json);

    const changed = await comment(commentEnvelope(article.revisionId, { idempotency_key: key, blocks: [{ type: 'paragraph', text: 'Another point.' }] }));
    expect(changed.status).toBe(409);
    expect(changed.json.error.code).toBe('IDEMPOTENCY_CONFLICT');

    const { idempotency_key: _, ...keyless } = commentEnvelope(article.revisionId);
    const missing = await comment(keyless);
    expect(missing.status).toBe(400);
    expect(missing.json.error.code).toBe('PUBS_KEY_REQUIRED');

    expect(keysOf(t, key)).toEqual([{ route: 'POST /v1/pubs/posts/:id/comments' }]);
    expect(t.db.query('SELECT count(*) AS n FROM pubs_comments WHERE author_id = ?').get(other.id)).toEqual({ n: 1 });
  });
});
