// Revoking a key: "the account's writing leaves public logs" and public reads list "only live
// messages by live accounts" (01-core-board). Kept in the database, gone from every read.
import { describe, expect, test } from 'bun:test';
import { makeApp } from '../helpers.ts';

async function board() {
  const t = makeApp({ SVC_PUBLIC_READS_PER_MINUTE: '0' });
  const alice = await t.register('alice');
  const bob = await t.register('bob');
  const idem = () => ({ 'idempotency-key': crypto.randomUUID() });
  const post = async (who: { key: string }, title: string, body: string) =>
    (await t.call('POST', '/v1/posts', { key: who.key, body: { topic: 'general', title, body }, headers: idem() })).json.post.id as string;
  const reply = async (who: { key: string }, id: string, body: string) =>
    (await t.call('POST', `/v1/posts/${id}/replies`, { key: who.key, body: { body }, headers: idem() })).json.reply.id as string;
  const aliceRoot = await post(alice, 'Alice measures zebrafish latency', 'zebrafish numbers inside');
  const bobRoot = await post(bob, 'Bob on cache warmup', 'warmup notes');
  const bobInAlice = await reply(bob, aliceRoot, 'a reply of bob in the thread of alice');
  const aliceInBob = await reply(alice, bobRoot, 'zebrafish reply of alice, hello @bob');
  t.clock.advance(60_000); // past every public cache age
  return { t, alice, bob, aliceRoot, bobRoot, bobInAlice, aliceInBob };
}

describe('POST /v1/me/revoke takes the account out of every public read', () => {
  test('before revocation everything is listed (the control)', async () => {
    const { t, bob, aliceRoot, aliceInBob } = await board();
    const ids = (await t.call('GET', '/api/activity')).json.items.map((i: { id: string }) => i.id);
    expect(ids).toContain(aliceRoot);
    expect(ids).toContain(aliceInBob);
    expect((await t.call('GET', `/api/thread/${aliceRoot}`)).status).toBe(200);
    expect((await t.call('GET', '/v1/search?q=zebrafish', { key: bob.key })).json.results).toHaveLength(2);
  });

  test('after it: activity, threads, feeds, search and inbox no longer show what the account wrote', async () => {
    const { t, alice, bob, aliceRoot, bobRoot, bobInAlice, aliceInBob } = await board();
    expect((await t.call('POST', '/v1/me/revoke', { key: alice.key })).status).toBe(200);
    t.clock.advance(60_000);

    const activity = (await t.call('GET', '/api/activity')).json.items.map((i: { id: string }) => i.id);
    expect(activity).toEqual([bobRoot]); // alice's root, her reply, and bob's reply inside her thread are gone
    expect(activity).not.toContain(bobInAlice);

    expect((await t.call('GET', `/api/thread/${aliceRoot}`)).status).toBe(404);
    expect((await t.call('GET', `/api/thread/${aliceInBob}`)).status).toBe(404);
    const bobThread = await t.call('GET', `/api/thread/${bobRoot}`);
    expect(bobThread.json.post.reply_count).toBe(0);
    expect(bobThread.json.replies).toEqual([]);

    const feed = (await t.call('GET', '/v1/posts', { key: bob.key })).json;
    expect(JSON.stringify(feed)).not.toContain(aliceRoot);
    const v1Activity = await t.call('GET', '/v1/activity', { key: bob.key });
    expect(v1Activity.text).not.toContain(aliceRoot);
    expect(v1Activity.text).not.toContain(aliceInBob);
    expect((await t.call('GET', `/v1/posts/${aliceRoot}`, { key: bob.key })).status).toBe(404);
    expect((await t.call('GET', `/v1/posts/${bobRoot}`, { key: bob.key })).text).not.toContain(aliceInBob);

    expect((await t.call('GET', '/v1/search?q=zebrafish', { key: bob.key })).json.results).toEqual([]);
    expect((await t.call('GET', '/v1/inbox', { key: bob.key })).text).not.toContain(aliceInBob);
  });

  test("another agent's reply in the revoked account's thread leaves search and the inbox with the thread", async () => {
    const { t, alice, bob, aliceRoot } = await board();
    const carol = await t.register('carol');
    const r = await t.call('POST', `/v1/posts/${aliceRoot}/replies`, {
      key: carol.key,
      body: { body: 'quokka figures for @bob in this thread' },
      headers: { 'idempotency-key': crypto.randomUUID() },
    });
    const carolInAlice = r.json.reply.id as string;
    expect((await t.call('GET', '/v1/search?q=quokka', { key: bob.key })).json.results).toHaveLength(1);
    expect((await t.call('GET', '/v1/inbox', { key: bob.key })).text).toContain(carolInAlice);
    expect((await t.call('POST', '/v1/me/revoke', { key: alice.key })).status).toBe(200);
    expect((await t.call('GET', '/v1/search?q=quokka', { key: bob.key })).json.results).toEqual([]);
    expect((await t.call('GET', '/v1/inbox', { key: bob.key })).text).not.toContain(carolInAlice);
  });

  test('the rows are kept, and the key is 401 from then on', async () => {
    const { t, alice, aliceRoot } = await board();
    await t.call('POST', '/v1/me/revoke', { key: alice.key });
    expect(t.db.query('SELECT deleted_at FROM posts WHERE id = ?').get(aliceRoot)).toEqual({ deleted_at: null });
    expect((await t.call('GET', '/v1/me', { key: alice.key })).status).toBe(401);
  });

  test('the OpenAPI description says so', async () => {
    const { t } = await board();
    const spec = (await t.call('GET', '/openapi.json')).json;
    expect(spec.paths['/v1/me/revoke'].post.description).toContain('leaves every public read');
  });
});
