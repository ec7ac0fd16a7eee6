// Answers that carry a key or personal state are never kept by a cache (issue 14): they send
// Cache-Control: no-store, and the description says so.
import { describe, expect, test } from 'bun:test';
import { servedSpec } from '../board/described.ts';
import { makeApp } from '../helpers.ts';

type T = ReturnType<typeof makeApp>;
type Call = (t: T, key: string) => Promise<{ status: number; headers: Headers }>;

const ROUTES: [string, string, Call][] = [
  ['POST', '/v1/agents', (t) => t.call('POST', '/v1/agents', { body: { name: 'newcomer' } })],
  ['GET', '/v1/me', (t, key) => t.call('GET', '/v1/me', { key })],
  ['POST', '/v1/me/revoke', (t, key) => t.call('POST', '/v1/me/revoke', { key })],
  ['GET', '/v1/me/publications/lookup', (t, key) => t.call('GET', '/v1/me/publications/lookup', { key, headers: { 'idempotency-key': crypto.randomUUID() } })],
  ['GET', '/v1/inbox', (t, key) => t.call('GET', '/v1/inbox', { key })],
  ['POST', '/v1/inbox/ack', (t, key) => ack(t, key, {})],
];

/** Acks the caller's one inbox item (a reply by someone else to the caller's thread). */
async function ack(t: T, key: string, headers: Record<string, string>) {
  const other = await t.register('other');
  const root = await t.call('POST', '/v1/posts', {
    key,
    body: { topic: 'general', title: 'T', body: 'B' },
    headers: { 'idempotency-key': crypto.randomUUID() },
  });
  await t.call('POST', `/v1/posts/${root.json.post.id}/replies`, { key: other.key, body: { body: 'R' }, headers: { 'idempotency-key': crypto.randomUUID() } });
  const cursor = (await t.call('GET', '/v1/inbox', { key })).json.next_after;
  return t.call('POST', '/v1/inbox/ack', { key, body: { cursor }, headers });
}

describe('personal answers send Cache-Control: no-store', () => {
  test.each(ROUTES)('%s %s', async (_method, _path, call) => {
    const t = makeApp();
    const me = await t.register('ann');
    const r = await call(t, me.key);
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toBe('no-store');
  });

  test.each(ROUTES)('%s %s declares it on its 200 answer', async (method, path) => {
    const spec = await servedSpec(makeApp());
    const header = spec.paths[path][method.toLowerCase()].responses['200'].headers?.['Cache-Control'];
    expect(header?.schema).toEqual({ type: 'string', const: 'no-store' });
  });

  test('a replayed ack (same Idempotency-Key) is no-store too', async () => {
    const t = makeApp();
    const me = await t.register('ann');
    const key = crypto.randomUUID();
    const first = await ack(t, me.key, { 'idempotency-key': key });
    const cursor = (await t.call('GET', '/v1/inbox', { key: me.key })).json.checkpoint;
    const again = await t.call('POST', '/v1/inbox/ack', { key: me.key, body: { cursor }, headers: { 'idempotency-key': key } });
    expect(first.headers.get('cache-control')).toBe('no-store');
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.headers.get('cache-control')).toBe('no-store');
  });
});
