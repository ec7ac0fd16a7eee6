// Channel posts to an owner-set webhook (a local Bun.serve): refused until set up, text and
// mention rules, content rules, the daily and per-agent limits, the public log.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { runAdmin } from '../../src/admin/cli.ts';
import { configureArgs, makeOutreachApp, outreachEnv } from './harness.ts';

const env = outreachEnv();
const received: unknown[] = [];
let hook: ReturnType<typeof Bun.serve>;
beforeAll(() => {
  hook = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(req) {
      const url = new URL(req.url);
      if (url.pathname === '/down') return new Response('no', { status: 500 });
      received.push(await req.json());
      return Response.json({ ok: true });
    },
  });
});
afterAll(() => {
  hook.stop(true);
});

describe('channel posts', () => {
  test('refused until set up; then posted to the webhook and listed in the public log', async () => {
    const t = await makeOutreachApp(env, { start: '2026-11-23T10:00:00Z' });
    const ann = await t.resident('ann');
    const post = (who: typeof ann, body: Record<string, unknown>) =>
      t.call('POST', '/v1/outreach/post', { key: who.key, body: { experiment_id: who.experiment, ...body } });
    expect((await post(ann, { channel: 'one', text: 'New measurements are out.' })).json.error.code).toBe('OUTREACH_CHANNEL_NOT_SET');
    runAdmin(t.ctx, ['outreach', 'channel', 'set', 'one', `http://127.0.0.1:${hook.port}/one`]);
    runAdmin(t.ctx, ['outreach', 'channel', 'set', 'two', `http://127.0.0.1:${hook.port}/two`]);
    const r = await post(ann, { channel: 'one', text: 'New measurements are out.' });
    expect(r.json).toEqual({ post_id: expect.any(String), status: 'posted', public_url: `http://svc.test/outreach#p-${r.json.post_id}` });
    expect(received.at(-1)).toMatchObject({ text: 'New measurements are out.', content: 'New measurements are out.' });
    const log = await t.call('GET', '/api/outreach/log', { headers: { 'x-agent-protocol': '', 'content-type': '' } });
    expect(log.json.items[0]).toMatchObject({ type: 'post', channel: 'one', agent: 'ann', text: 'New measurements are out.' });
    expect((await post(ann, { channel: 'one', text: 'x'.repeat(601) })).json.error.code).toBe('OUTREACH_POST_INVALID');
    expect((await post(ann, { channel: 'two', text: 'Thanks @alice and @bob' })).json.error.details.problems[0].rule).toBe('mentions');
    expect((await post(ann, { channel: 'one', text: 'Join our giveaway today' })).json.error.code).toBe('OUTREACH_CONTENT_REFUSED');
    // A webhook that fails: failed, never posted, and not in the log.
    runAdmin(t.ctx, ['outreach', 'channel', 'set', 'one', `http://127.0.0.1:${hook.port}/down`]);
    const failed = await post(ann, { channel: 'one', text: 'Second note.' });
    expect([failed.json.status, failed.json.public_url]).toEqual(['failed', null]);
    // Mode off sends nothing, channel posts included.
    runAdmin(t.ctx, configureArgs('off'));
    const before = received.length;
    const off = await post(ann, { channel: 'two', text: 'Third note.' });
    expect([off.status, off.json.error.code]).toEqual([409, 'OUTREACH_SENDING_OFF']);
    expect(received.length).toBe(before);
  });

  test('channel one 6 a day; channel two 1 per agent per 6 h and 8 a day (days from UTC midnight)', async () => {
    const t = await makeOutreachApp(env, { start: '2026-11-23T10:00:00Z', more: { SVC_OUTREACH_CHANNEL_TWO_PER_DAY: '2' } });
    runAdmin(t.ctx, ['outreach', 'channel', 'set', 'one', `http://127.0.0.1:${hook.port}/one`]);
    runAdmin(t.ctx, ['outreach', 'channel', 'set', 'two', `http://127.0.0.1:${hook.port}/two`]);
    const ann = await t.resident('ann');
    const bob = await t.resident('bob');
    const cat = await t.resident('cat');
    const post = (who: typeof ann, channel: string, text: string) =>
      t.call('POST', '/v1/outreach/post', { key: who.key, body: { experiment_id: who.experiment, channel, text } });
    for (let i = 0; i < 6; i++) expect((await post(ann, 'one', `note ${i}`)).json.status).toBe('posted');
    const full = await post(bob, 'one', 'note 7');
    expect([full.status, full.json.error.code, full.json.error.details.rule, full.json.error.details.retry_at]).toEqual([
      429,
      'OUTREACH_CHANNEL_LIMIT',
      'per_day',
      '2026-11-24T00:00:00.000Z',
    ]);
    expect((await post(ann, 'two', 'two a')).json.status).toBe('posted');
    const soon = await post(ann, 'two', 'two b');
    expect([soon.json.error.details.rule, soon.json.error.details.retry_at]).toEqual(['per_agent', '2026-11-23T16:00:00.000Z']);
    expect((await post(bob, 'two', 'two c')).json.status).toBe('posted');
    expect((await post(cat, 'two', 'two d')).json.error.details.rule).toBe('per_day');
  });
});
