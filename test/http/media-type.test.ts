// A write's body is JSON only (01-core-board: Content-Type: application/json on calls with a body):
// any other type is 415 UNSUPPORTED_MEDIA_TYPE in the envelope, the body is never parsed, and
// nothing is stored, however much the body looks like JSON.
import { describe, expect, test } from 'bun:test';
import { makeApp } from '../helpers.ts';

const THREAD = JSON.stringify({ topic: 'general', title: 'Sent as text', body: 'A JSON-looking body.' });

async function setup() {
  const t = makeApp();
  const a = await t.register('typist');
  const posts = () => (t.db.query('SELECT count(*) AS n FROM posts WHERE author_id = ?').get(a.id) as { n: number }).n;
  /** POST /v1/posts with `body` as bytes (so no Content-Type is added on its own) and the given type. */
  const post = (type: string | null, body: string | Uint8Array = THREAD) =>
    t.call('POST', '/v1/posts', {
      key: a.key,
      raw: typeof body === 'string' ? new TextEncoder().encode(body) : body,
      headers: { 'content-type': type ?? '', 'idempotency-key': crypto.randomUUID() },
    });
  return { t, a, posts, post };
}

describe('a write with a body that is not application/json: 415 UNSUPPORTED_MEDIA_TYPE, nothing stored', () => {
  const TYPES: [string, string | null, string | null][] = [
    ['text/plain with a JSON-looking body', 'text/plain', 'text/plain'],
    ['text/plain with a charset', 'text/plain; charset=utf-8', 'text/plain'],
    ['a form post', 'application/x-www-form-urlencoded', 'application/x-www-form-urlencoded'],
    ['multipart', 'multipart/form-data; boundary=x', 'multipart/form-data'],
    ['a JSON-flavoured other type', 'application/merge-patch+json', 'application/merge-patch+json'],
    ['no Content-Type at all', null, null],
  ];
  for (const [what, type, got] of TYPES) {
    test(what, async () => {
      const { posts, post } = await setup();
      const r = await post(type);
      expect(r.status).toBe(415);
      expect(r.json.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
      expect(r.json.error.details).toEqual({ expected: 'application/json', got });
      expect(r.json.docs).toContain('UNSUPPORTED_MEDIA_TYPE');
      expect(posts()).toBe(0);
    });
  }

  test('the body is not read: an invalid or oversized text body is still 415, not 400 or 413', async () => {
    const { post } = await setup();
    expect((await post('text/plain', '{not json')).status).toBe(415);
    expect((await post('text/plain', 'x'.repeat(100_000))).status).toBe(415);
  });

  test('on other agent writes too: a reply, a vote, a checkpoint', async () => {
    const { t, a } = await setup();
    const root = await t.call('POST', '/v1/posts', { key: a.key, body: JSON.parse(THREAD), headers: { 'idempotency-key': crypto.randomUUID() } });
    const text = { 'content-type': 'text/plain' };
    const reply = await t.call('POST', `/v1/posts/${root.json.post.id}/replies`, {
      key: a.key,
      raw: new TextEncoder().encode('{"body":"hi"}'),
      headers: { ...text, 'idempotency-key': crypto.randomUUID() },
    });
    const vote = await t.call('POST', '/votes', { key: a.key, raw: new TextEncoder().encode(`{"target_id":"${root.json.post.id}","value":1}`), headers: text });
    const checkpoint = await t.call('POST', '/v1/continuity/checkpoint', { key: a.key, raw: new TextEncoder().encode('{"focus":"x"}'), headers: text });
    expect([reply.status, vote.status, checkpoint.status]).toEqual([415, 415, 415]);
    expect(t.db.query('SELECT count(*) AS n FROM posts WHERE thread_id = ? AND id != thread_id').get(root.json.post.id)).toEqual({ n: 0 });
  });

  test('registration too (an agent route without a key): no account is made', async () => {
    const t = makeApp();
    const r = await t.call('POST', '/v1/agents', { raw: new TextEncoder().encode('{"name":"plain_text"}'), headers: { 'content-type': 'text/plain' } });
    expect([r.status, r.json.error.code]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
    expect(t.db.query("SELECT count(*) AS n FROM accounts WHERE name = 'plain_text'").get()).toEqual({ n: 0 });
  });
});

describe('near misses', () => {
  for (const type of ['application/json', 'application/json; charset=utf-8', 'Application/JSON']) {
    test(`${type} is read and stored`, async () => {
      const { posts, post } = await setup();
      expect((await post(type)).status).toBe(200);
      expect(posts()).toBe(1);
    });
  }

  test('a write without a body needs no Content-Type (revoking a key)', async () => {
    const { t, a } = await setup();
    const r = await t.call('POST', '/v1/me/revoke', { key: a.key, headers: { 'content-type': 'text/plain' } });
    expect(r.status).toBe(200);
  });

  test('a declared empty body with another type is no body (inbox ack answers its own validation)', async () => {
    const { t, a } = await setup();
    const r = await t.call('POST', '/v1/inbox/ack', { key: a.key, raw: new Uint8Array(0), headers: { 'content-type': 'text/plain', 'content-length': '0' } });
    expect(r.status).not.toBe(415);
  });

  test('the description declares 415 on agent writes', async () => {
    const { t } = await setup();
    const spec = (await t.call('GET', '/openapi.json')).json;
    expect(spec.paths['/v1/posts'].post.responses['415'].content['application/json'].schema.properties.error.properties.code.enum).toContain(
      'UNSUPPORTED_MEDIA_TYPE',
    );
  });
});

describe('a JSON body declared in a charset other than UTF-8: 415, never read as UTF-8', () => {
  // JSON between systems is UTF-8 (RFC 8259 §8.1): a body declared as UTF-16 or Latin-1 would be
  // stored changed if it were read as UTF-8, so it is refused before a byte of it is read.
  const FOREIGN = ['utf-16', 'UTF-16LE', 'latin1', 'iso-8859-1', 'windows-1252', '"utf-16"', 'utf-32'];
  for (const charset of FOREIGN) {
    test(`charset=${charset}`, async () => {
      const { posts, post } = await setup();
      const r = await post(`application/json; charset=${charset}`);
      expect(r.status).toBe(415);
      expect(r.json.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
      expect(r.json.error.details).toMatchObject({ expected: 'application/json; charset=utf-8', got: `application/json; charset=${charset}` });
      expect(r.json.error.details.reason).toContain(charset.replaceAll('"', '').toLowerCase());
      expect(posts()).toBe(0);
    });
  }

  test('a UTF-16 body that would decode as mojibake is refused, not stored', async () => {
    const { posts, post } = await setup();
    const utf16 = new Uint8Array(new Uint16Array([...THREAD].map((c) => c.charCodeAt(0))).buffer);
    expect((await post('application/json; charset=utf-16le', utf16)).status).toBe(415);
    expect(posts()).toBe(0);
  });

  for (const type of [
    'application/json',
    'application/json; charset=utf-8',
    'application/json; charset=UTF-8',
    'application/json;charset="utf-8"',
    'application/json; charset=utf8',
  ]) {
    test(`${type} is read`, async () => {
      const { posts, post } = await setup();
      expect((await post(type)).status).toBe(200);
      expect(posts()).toBe(1);
    });
  }

  test('a guest write declared as UTF-16 is 415 too', async () => {
    const t = makeApp();
    const r = await t.call('POST', '/api/pubs/reports', {
      raw: new TextEncoder().encode('{}'),
      headers: { 'content-type': 'application/json; charset=utf-16' },
    });
    expect(r.status).toBe(415);
    expect(r.json.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });
});
