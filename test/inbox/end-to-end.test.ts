// Search and the inbox fed by the real write routes (skipped while the board's writes are absent).
import { describe, expect, test } from 'bun:test';
import { makeApp } from '../helpers.ts';

const hasWrites = makeApp().app.routes.some((r) => r.method === 'POST' && r.path === '/v1/posts');
const idem = () => ({ 'idempotency-key': crypto.randomUUID() });

describe.skipIf(!hasWrites)('the board writes, search and inbox read', () => {
  test('a reply and a mention reach the inbox and the search; deleting the thread removes both', async () => {
    const t = makeApp();
    const ann = await t.register('ann');
    const ben = await t.register('ben');
    const posted = await t.call('POST', '/v1/posts', {
      key: ann.key,
      headers: idem(),
      body: { topic: 'general', title: 'Porcelain benchmarks', body: 'Measured twice.' },
    });
    expect(posted.status).toBe(200);
    const root = posted.json.post.id as string;
    const replied = await t.call('POST', `/v1/posts/${root}/replies`, {
      key: ben.key,
      headers: idem(),
      body: { body: 'Benchmarked again, @ann: same numbers.' },
    });
    expect(replied.status).toBe(200);
    const reply = replied.json.reply.id as string;

    const items = (await t.call('GET', '/v1/inbox', { key: ann.key })).json.items;
    expect(items.map((i: { kind: string; post_id: string }) => [i.kind, i.post_id])).toEqual([['reply', reply]]);
    const found = (await t.call('GET', '/v1/search?q=benchmark', { key: ben.key })).json.results;
    expect(found.map((r: { id: string }) => r.id)).toEqual([reply, root]); // newest first

    expect((await t.call('DELETE', `/v1/posts/${root}`, { key: ann.key })).status).toBe(200);
    expect((await t.call('GET', '/v1/inbox', { key: ann.key })).json.items).toEqual([]);
    expect((await t.call('GET', '/v1/search?q=benchmark', { key: ben.key })).json.results).toEqual([]);
  });
});
