// The channel webhook under the SSRF rules of every outbound fetch (src/outreach/webhook.ts):
// `channel set` refuses a URL that can never be delivered to; a delivery to loopback, a private or
// link-local address (literal, or a name resolving there) fails as `failed` with a short reason and
// without a connection being made; a redirect is not followed; a public name still delivers, pinned
// to its checked address. The names are resolved by the context's injected resolver (as the
// source-page fetcher's tests do); the "public" receiver is an https server on loopback reached
// through the tests' loopback allowance (SVC_FETCH_ALLOW_LOOPBACK=1).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { runAdmin } from '../../src/admin/cli.ts';
import type { OutreachNet } from '../../src/outreach/net.ts';
import { outreachStore } from '../../src/outreach/store.ts';
import { selfSignedCert } from '../tls.ts';
import { makeOutreachApp, outreachEnv } from './harness.ts';

const env = outreachEnv();

/** A TCP listener on loopback that counts connections (and answers 200 to whatever arrives). */
let trap: { port: number; opened: number; stop(): void };
/** The https receiver standing for the messaging service (cert for hooks.example.org). */
let hook: { port: number; ca: string; got: { host: string | null; body: unknown }[]; stop(): void };

beforeAll(() => {
  const counter = { opened: 0 };
  const listener = Bun.listen({
    hostname: '127.0.0.1',
    port: 0,
    socket: {
      open() {
        counter.opened++;
      },
      data(socket) {
        socket.write('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 11\r\nconnection: close\r\n\r\n{"ok":true}');
        socket.end();
      },
    },
  });
  trap = {
    port: listener.port,
    get opened() {
      return counter.opened;
    },
    stop: () => listener.stop(true),
  };
  const { cert, key } = selfSignedCert(['hooks.example.org']);
  const got: { host: string | null; body: unknown }[] = [];
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    tls: { cert, key },
    async fetch(req) {
      const path = new URL(req.url).pathname;
      if (path === '/down') return new Response('internal secret detail of the receiver', { status: 500 });
      if (path === '/moved') return new Response(null, { status: 307, headers: { location: `http://127.0.0.1:${trap.port}/one` } });
      got.push({ host: req.headers.get('host'), body: await req.json() });
      return Response.json({ ok: true });
    },
  });
  hook = { port: server.port as number, ca: cert, got, stop: () => server.stop(true) };
});
afterAll(() => {
  trap.stop();
  hook.stop();
});

const NAMES: Record<string, string[]> = {
  'hooks.example.org': ['127.0.0.1'],
  'loop.example.org': ['127.0.0.1'],
  'internal.example.org': ['10.0.0.1'],
  'metadata.example.org': ['169.254.169.254'],
  'mixed.example.org': ['93.184.216.34', '10.0.0.1'],
  'v6loop.example.org': ['::1'],
  'mapped.example.org': ['::ffff:127.0.0.1'],
};
const net = (): OutreachNet => ({
  ca: hook.ca,
  lookup: async (host: string) => {
    const found = NAMES[host];
    if (!found) throw new Error(`ENOTFOUND ${host}`);
    return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  },
});

/** An outreach app; `loopback` is the tests' SVC_FETCH_ALLOW_LOOPBACK (off: production's rules). */
async function app(loopback: boolean) {
  const t = await makeOutreachApp(env, { start: '2026-11-23T10:00:00Z', net: net(), more: { SVC_FETCH_ALLOW_LOOPBACK: loopback ? '1' : '0' } });
  const ann = await t.resident('ann');
  /** `outreach channel set`: null when accepted, else the refusal's message. */
  const set = async (channel: string, url: string): Promise<string | null> => {
    try {
      await runAdmin(t.ctx, ['outreach', 'channel', 'set', channel, url]);
      return null;
    } catch (e) {
      return (e as Error).message;
    }
  };
  /** A post to channel one: its answer and the stored row's reason. */
  const post = async (text: string) => {
    const r = await t.call('POST', '/v1/outreach/post', { key: ann.key, body: { experiment_id: ann.experiment, channel: 'one', text } });
    const row = t.ctx.db
      .query<{ status: string; last_error: string | null }, [string]>('SELECT status, last_error FROM outreach_posts WHERE id = ?')
      .get(r.json.post_id);
    return { answer: r.json, row };
  };
  return { t, ann, set, post };
}

describe('outreach channel set: a URL that can never be delivered to is refused', () => {
  test('without the loopback allowance: loopback, private, link-local and mapped literals, http, another port, a user name', async () => {
    const { t, set } = await app(false);
    const refused: [string, RegExp][] = [
      [`http://127.0.0.1:${trap.port}/one`, /must be an https webhook URL/],
      ['http://hooks.example.org/x', /must be an https webhook URL/],
      ['ftp://hooks.example.org/x', /must be an https webhook URL/],
      ['not a url', /must be an https webhook URL/],
      [`https://127.0.0.1:${trap.port}/one`, /names 127\.0\.0\.1, which is not a public address/],
      ['https://127.0.0.1/one', /names 127\.0\.0\.1, which is not a public address/],
      ['https://10.0.0.1/hook', /names 10\.0\.0\.1, which is not a public address/],
      ['https://192.168.1.20/hook', /names 192\.168\.1\.20, which is not a public address/],
      ['https://169.254.169.254/latest/meta-data/', /names 169\.254\.169\.254, which is not a public address/],
      ['https://[::1]/hook', /names ::1, which is not a public address/],
      ['https://[::ffff:10.0.0.1]/hook', /which is not a public address/],
      ['https://[fd00::1]/hook', /which is not a public address/],
      ['https://0x7f000001/hook', /names 127\.0\.0\.1, which is not a public address/],
      ['https://localhost/hook', /names localhost, which is not a public address/],
      ['https://hooks.example.org:8443/hook', /must use port 443, not 8443/],
      ['https://user:pw@hooks.example.org/hook', /must not carry a user name or password/],
    ];
    for (const [url, why] of refused) expect([url, await set('one', url)]).toEqual([url, expect.stringMatching(why)]);
    expect(outreachStore(t.ctx.db).channels.all()).toEqual([]);
    // A public literal and a name (checked again, resolved, at each delivery) are taken.
    expect(await set('one', 'https://93.184.216.34/hook')).toBeNull();
    expect(await set('two', 'https://discord.example.com/api/webhooks/1/abc')).toBeNull();
    expect(
      outreachStore(t.ctx.db)
        .channels.all()
        .map((c) => c.url),
    ).toEqual(['https://93.184.216.34/hook', 'https://discord.example.com/api/webhooks/1/abc']);
  });

  test('with the loopback allowance (tests only): loopback, on any port and over http, is taken; private addresses never are', async () => {
    const { set } = await app(true);
    expect(await set('one', `http://127.0.0.1:${trap.port}/one`)).toBeNull();
    expect(await set('one', `https://hooks.example.org:${hook.port}/hook`)).toBeNull();
    expect(await set('one', 'https://10.0.0.1/hook')).toMatch(/not a public address/);
    expect(await set('one', 'https://169.254.169.254/latest')).toMatch(/not a public address/);
    expect(await set('one', 'http://hooks.example.org/x')).toMatch(/must be an https webhook URL/);
  });
});

describe('a delivery to a non-public address fails without a connection', () => {
  test('a stored channel at loopback, private or link-local (literal or by name) is failed with a short reason; nothing connects', async () => {
    const { t, post } = await app(false);
    const store = outreachStore(t.ctx.db);
    const targets = [
      `http://127.0.0.1:${trap.port}/one`,
      `https://127.0.0.1:${trap.port}/one`,
      `https://[::1]:${trap.port}/one`,
      `https://localhost:${trap.port}/one`,
      'https://10.0.0.1/hook',
      'https://169.254.169.254/latest/meta-data/',
      `https://loop.example.org:${trap.port}/one`,
      'https://loop.example.org/one',
      'https://internal.example.org/hook',
      'https://metadata.example.org/latest/meta-data/',
      'https://mixed.example.org/hook',
      `https://v6loop.example.org:${trap.port}/one`,
      `https://mapped.example.org:${trap.port}/one`,
    ];
    for (const [i, url] of targets.entries()) {
      // As a row set before these checks existed (or under another setting) would be.
      store.setChannel.run('one', url, t.clock.now());
      const { answer, row } = await post(`note ${i}`);
      expect([url, answer.status, answer.public_url, row?.status]).toEqual([url, 'failed', null, 'failed']);
      expect([url, row?.last_error]).toEqual([url, expect.stringMatching(/^private_address: .{1,120} is not a public address$/)]);
      expect(row?.last_error).not.toContain('/one');
    }
    expect(trap.opened).toBe(0);
    // None of them used the day's slots or entered the public log.
    const log = await t.call('GET', '/api/outreach/log', { headers: { 'x-agent-protocol': '', 'content-type': '' } });
    expect(log.json.items).toEqual([]);
  });

  test('with the loopback allowance a name resolving to a private address is still refused', async () => {
    const { set, post } = await app(true);
    for (const host of ['internal.example.org', 'metadata.example.org', 'mixed.example.org']) {
      expect(await set('one', `https://${host}/hook`)).toBeNull();
      const { answer, row } = await post(`to ${host}`);
      expect([host, answer.status, row?.last_error]).toEqual([host, 'failed', expect.stringMatching(/^private_address: /)]);
    }
  });
});

describe('a public channel still delivers, and only to where it was checked', () => {
  test('a name resolving to a public address (here: loopback under the allowance) is posted, pinned, with its own Host', async () => {
    const { t, set, post } = await app(true);
    expect(await set('one', `https://hooks.example.org:${hook.port}/hook`)).toBeNull();
    const before = hook.got.length;
    const { answer, row } = await post('New measurements are out.');
    expect([answer.status, row?.status, row?.last_error]).toEqual(['posted', 'posted', null]);
    expect(hook.got.length).toBe(before + 1);
    expect(hook.got.at(-1)).toEqual({
      host: `hooks.example.org:${hook.port}`,
      body: expect.objectContaining({ text: 'New measurements are out.', content: 'New measurements are out.' }),
    });
    const log = await t.call('GET', '/api/outreach/log', { headers: { 'x-agent-protocol': '', 'content-type': '' } });
    expect(log.json.items[0]).toMatchObject({ type: 'post', channel: 'one', text: 'New measurements are out.' });
  });

  test('a redirect is not followed (not even to an address the allowance admits); a refusal keeps no answer body', async () => {
    const { set, post } = await app(true);
    expect(await set('one', `https://hooks.example.org:${hook.port}/moved`)).toBeNull();
    const moved = await post('first');
    expect([moved.answer.status, moved.row?.last_error]).toEqual(['failed', 'redirects: the server answered 307; redirects are not followed']);
    expect(trap.opened).toBe(0);
    expect(await set('one', `https://hooks.example.org:${hook.port}/down`)).toBeNull();
    const down = await post('second');
    expect([down.answer.status, down.row?.last_error]).toEqual(['failed', 'webhook answered 500']);
  });
});
