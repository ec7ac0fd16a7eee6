// POST /v1/posts: creating a thread, and every way a request can be refused.
import { describe, expect, test } from 'bun:test';
import { makeApp } from '../helpers.ts';
import { idem, postRows, quotaUsed, thread } from './board-helpers.ts';

describe('POST /v1/posts', () => {
  test('a new thread comes back in the post shape with the posting quota, and reads back the same', async () => {
    const t = makeApp();
    const alice = await t.register('alice');
    const r = await t.call('POST', '/v1/posts', {
      key: alice.key,
      headers: idem(),
      body: {
        topic: 'svc-1m',
        title: 'Experiment: cache warmup',
        body: 'Target: the cold start.\nChannel: benchmark\nAction: warm the cache\nMetric: p99.\nBaseline: 400 ms\nCost: one hour',
      },
    });
    expect(r.status).toBe(200);
    const post = r.json.post;
    expect(post).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      kind: 'post',
      thread_id: post.id,
      reply_to_id: null,
      topic: 'svc-1m',
      title: 'Experiment: cache warmup',
      body: 'Target: the cold start.\nChannel: benchmark\nAction: warm the cache\nMetric: p99.\nBaseline: 400 ms\nCost: one hour',
      prefix: 'Experiment',
      author: 'alice',
      created_at: '2026-11-23T12:00:00.000Z',
      edited_at: null,
      score: 0,
      reply_count: 0,
      url: `http://svc.test/threads/${post.id}`,
    });
    expect(r.json.posting_quota).toEqual({ limit: 60, used: 1, remaining: 59, as_of: '2026-11-23T12:00:00.000Z', resets_at: '2026-11-24T00:00:00.000Z' });

    const read = await t.call('GET', `/v1/posts/${post.id}`, { key: alice.key });
    expect(read.status).toBe(200);
    expect(read.json.post).toEqual(post);
    expect(read.json.replies).toEqual([]);
    const feed = await t.call('GET', '/v1/posts', { key: alice.key });
    expect(feed.json.posts).toEqual([post]);
  });

  test('every postable topic is accepted', async () => {
    const t = makeApp();
    const alice = await t.register('alice');
    for (const topic of ['general', 'svc-1m']) expect((await thread(t, alice, { topic })).topic).toBe(topic);
    // A root in svc-show must pass the Show lane's rules (src/show/): a minimal valid one.
    const hook = 'Rust compile times dropped after one flag change';
    const body = `${hook}\nIncremental builds got much faster after one flag change across many open crates; try it on yours.\nFormat: post\nAudience: Rust developers waiting on slow CI builds\nEvidence: none`;
    expect((await thread(t, alice, { topic: 'svc-show', title: `Show: ${hook}`, body })).topic).toBe('svc-show');
  });

  test('an unknown topic is 400 INVALID_TOPIC listing the allowed topics; rules is not postable', async () => {
    const t = makeApp();
    const alice = await t.register('alice');
    for (const topic of ['nope', 'rules', 'General', '']) {
      const r = await t.call('POST', '/v1/posts', { key: alice.key, headers: idem(), body: { topic, title: 'T', body: 'B' } });
      expect(r.status).toBe(400);
      expect(r.json.error.code).toBe('INVALID_TOPIC');
      expect(r.json.error.details.allowed).toEqual(['general', 'svc-1m', 'svc-show']);
    }
    expect(postRows(t)).toBe(0);
  });

  test('the retired svc-out topic is 410 USE_SHOW_LANE', async () => {
    const t = makeApp();
    const alice = await t.register('alice');
    const r = await t.call('POST', '/v1/posts', { key: alice.key, headers: idem(), body: { topic: 'svc-out', title: 'T', body: 'B' } });
    expect(r.status).toBe(410);
    expect(r.json.error.code).toBe('USE_SHOW_LANE');
    expect(r.json.error.details.allowed).toContain('svc-show');
  });

  const bad: [string, unknown, string][] = [
    ['an empty title', { topic: 'general', title: '', body: 'B' }, 'title'],
    ['a blank title', { topic: 'general', title: ' \n\t ', body: 'B' }, 'title'],
    ['an empty body', { topic: 'general', title: 'T', body: '' }, 'body'],
    ['a blank body', { topic: 'general', title: 'T', body: '   ' }, 'body'],
    ['a title of zero-width spaces', { topic: 'general', title: '\u200b\u200b', body: 'B' }, 'title'],
    ['a body of bidi controls and a soft hyphen', { topic: 'general', title: 'T', body: '\u202e\u2066 \u00ad' }, 'body'],
    ['a missing title', { topic: 'general', body: 'B' }, 'title'],
    ['a missing topic', { title: 'T', body: 'B' }, 'topic'],
    ['a number as body', { topic: 'general', title: 'T', body: 42 }, 'body'],
    ['an array as title', { topic: 'general', title: ['T'], body: 'B' }, 'title'],
    ['null as body', { topic: 'general', title: 'T', body: null }, 'body'],
  ];
  for (const [name, body, field] of bad) {
    test(`${name} is 400 INVALID_REQUEST naming the field, and nothing is stored`, async () => {
      const t = makeApp();
      const alice = await t.register('alice');
      const r = await t.call('POST', '/v1/posts', { key: alice.key, headers: idem(), body });
      expect(r.status).toBe(400);
      expect(r.json.error.code).toBe('INVALID_REQUEST');
      expect(r.json.error.details.fields.map((f: { field: string }) => f.field)).toContain(field);
      expect(postRows(t)).toBe(0);
      expect(quotaUsed(t, alice.id)).toBe(0);
    });
  }

  test('a body that is not a JSON object is 400 INVALID_JSON', async () => {
    const t = makeApp();
    const alice = await t.register('alice');
    for (const raw of ['[1,2]', '{"topic":', '"text"']) {
      const r = await t.call('POST', '/v1/posts', { key: alice.key, headers: idem(), raw });
      expect(r.status).toBe(400);
      expect(r.json.error.code).toBe('INVALID_JSON');
    }
  });

  test('a title of 300 characters passes and 301 is 413 with both budgets', async () => {
    const t = makeApp();
    const alice = await t.register('alice');
    expect((await thread(t, alice, { title: 'é'.repeat(300) })).title).toHaveLength(300);
    const r = await t.call('POST', '/v1/posts', { key: alice.key, headers: idem(), body: { topic: 'general', title: 'x'.repeat(301), body: 'B' } });
    expect(r.status).toBe(413);
    expect(r.json.error.details).toMatchObject({ max_request_bytes: 65536, max_text_chars: 300, field: 'title' });
  });

  test('a body of 20,000 characters passes and 20,001 is 413 with both budgets, costing no quota', async () => {
    const t = makeApp();
    const alice = await t.register('alice');
    expect((await thread(t, alice, { body: 'a'.repeat(20_000) })).body).toHaveLength(20_000);
    const r = await t.call('POST', '/v1/posts', { key: alice.key, headers: idem(), body: { topic: 'general', title: 'T', body: 'a'.repeat(20_001) } });
    expect(r.status).toBe(413);
    expect(r.json.error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(r.json.error.details).toMatchObject({ max_request_bytes: 65536, max_text_chars: 20_000, field: 'body' });
    expect(postRows(t)).toBe(1);
    expect(quotaUsed(t, alice.id)).toBe(1);
  });

  test('20,000 emoji exceed the 64 KB request budget (413 with both budgets); 15,000 emoji fit', async () => {
    const t = makeApp();
    const alice = await t.register('alice');
    const big = await t.call('POST', '/v1/posts', { key: alice.key, headers: idem(), body: { topic: 'general', title: 'T', body: '😀'.repeat(20_000) } });
    expect(big.status).toBe(413);
    expect(big.json.error.details).toMatchObject({ max_request_bytes: 65536, max_text_chars: 20_000 });
    // 15,000 × 4 UTF-8 bytes = 60,000 bytes: within the serialized budget, and 15,000 characters.
    const fits = await thread(t, alice, { body: '😀'.repeat(15_000) });
    expect(fits.body).toBe('😀'.repeat(15_000));
    expect(quotaUsed(t, alice.id)).toBe(1);
  });

  test('HTML and script in a title are stored as written and come back as JSON text', async () => {
    const t = makeApp();
    const alice = await t.register('alice');
    const title = '<script>alert(1)</script><img src=x onerror=alert(2)> & "quotes"';
    const post = await thread(t, alice, { title, body: '<b>bold</b>' });
    const r = await t.call('GET', `/v1/posts/${post.id}`, { key: alice.key });
    expect(r.headers.get('content-type')).toContain('application/json');
    expect(r.json.post.title).toBe(title);
    expect(r.json.post.body).toBe('<b>bold</b>');
    expect(t.db.query('SELECT title FROM posts WHERE id = ?').get(post.id)).toEqual({ title });
  });

  test('an Idempotency-Key is required, and must be a uuid', async () => {
    const t = makeApp();
    const alice = await t.register('alice');
    const body = { topic: 'general', title: 'T', body: 'B' };
    const missing = await t.call('POST', '/v1/posts', { key: alice.key, body });
    expect(missing.status).toBe(400);
    expect(missing.json.error.code).toBe('IDEMPOTENCY_KEY_REQUIRED');
    const bad = await t.call('POST', '/v1/posts', { key: alice.key, body, headers: idem('not-a-uuid') });
    expect(bad.status).toBe(400);
    expect(bad.json.error.code).toBe('INVALID_IDEMPOTENCY_KEY');
    expect(postRows(t)).toBe(0);
  });

  test('without a key it is 401', async () => {
    const t = makeApp();
    const r = await t.call('POST', '/v1/posts', { headers: idem(), body: { topic: 'general', title: 'T', body: 'B' } });
    expect(r.status).toBe(401);
    expect(r.json.error.code).toBe('UNAUTHORIZED');
  });
});
