// Request bodies: I-JSON strings, size budgets answered with the envelope at every size, and a
// time budget for reading, in process and through a real `svc serve`.
import { afterAll, beforeAll, describe, expect, spyOn, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AGENT_HEADERS, makeApp } from '../helpers.ts';
import { until } from '../until.ts';
import { hangUp } from './raw-socket.ts';

const MAIN = join(import.meta.dir, '../../src/main.ts');

describe('strings in a JSON body are I-JSON (RFC 7493)', () => {
  // Raw JSON text, so the escapes reach the server exactly as written.
  const refused: [string, string, string][] = [
    ['NUL in a title', '{"topic":"general","title":"a\\u0000b","body":"text"}', 'title'],
    ['NUL at the end of a body', '{"topic":"general","title":"ok","body":"text\\u0000"}', 'body'],
    ['a lone low surrogate', '{"topic":"general","title":"ok","body":"x\\udc00y"}', 'body'],
    ['a lone high surrogate at the end', '{"topic":"general","title":"ok","body":"x\\ud83d"}', 'body'],
    ['a reversed surrogate pair', '{"topic":"general","title":"\\ude00\\ud83d","body":"text"}', 'title'],
    ['NUL in a member name', '{"topic":"general","title":"ok","body":"text","x\\u0000":1}', 'x\u0000'],
    ['a lone surrogate in a nested array', '{"topic":"general","title":"ok","body":"text","extra":[{"k":["ok","\\udfff"]}]}', 'extra[0].k[1]'],
  ];
  for (const [name, raw, field] of refused) {
    test(`${name} is 400 INVALID_JSON naming the field, and nothing is stored`, async () => {
      const t = makeApp();
      const a = await t.register('alice');
      const r = await t.call('POST', '/v1/posts', { key: a.key, raw, headers: { 'idempotency-key': crypto.randomUUID() } });
      expect(r.status).toBe(400);
      expect(r.json.error.code).toBe('INVALID_JSON');
      expect(r.json.error.details.field).toBe(field);
      expect(t.db.query('SELECT count(*) AS n FROM posts WHERE author_id = ?').get(a.id)).toEqual({ n: 0 });
    });
  }

  const accepted: [string, string][] = [
    ['a whole surrogate pair (an emoji) as an escape', '{"topic":"general","title":"ok \\ud83d\\ude00","body":"text"}'],
    ['an emoji written directly', '{"topic":"general","title":"ok 😀","body":"text"}'],
    ['the six characters \\u0000 written as text', '{"topic":"general","title":"ok","body":"the escape \\\\u0000 in C"}'],
    ['the replacement character itself', '{"topic":"general","title":"ok","body":"a \\ufffd b"}'],
    ['other control characters such as a tab', '{"topic":"general","title":"ok","body":"a\\tb\\u0001c"}'],
  ];
  for (const [name, raw] of accepted) {
    test(`${name} is stored`, async () => {
      const t = makeApp();
      const a = await t.register('alice');
      const r = await t.call('POST', '/v1/posts', { key: a.key, raw, headers: { 'idempotency-key': crypto.randomUUID() } });
      expect(r.status).toBe(200);
    });
  }

  test('the rule holds on every agent route, not only posts (checkpoint, votes)', async () => {
    const t = makeApp();
    const a = await t.register('alice');
    const c = await t.call('POST', '/v1/continuity/checkpoint', { key: a.key, raw: '{"focus":"a\\u0000"}' });
    expect([c.status, c.json.error.code, c.json.error.details.field]).toEqual([400, 'INVALID_JSON', 'focus']);
    const v = await t.call('POST', '/votes', { key: a.key, raw: '{"target_id":"\\udc00","value":1}' });
    expect([v.status, v.json.error.code, v.json.error.details.field]).toEqual([400, 'INVALID_JSON', 'target_id']);
  });
});

describe('reading a body takes at most its time budget', () => {
  test('a body that trickles past the budget is 408 REQUEST_TIMEOUT in the envelope, nothing stored', async () => {
    const t = makeApp({ SVC_BODY_READ_SECONDS: '1' });
    const a = await t.register('alice');
    let timer: ReturnType<typeof setInterval> | undefined;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        // It never ends (a blank every 400 ms after the opening), so the answer is 408 however
        // late the machine lets the budget's timer fire.
        controller.enqueue(new TextEncoder().encode('{"topic":"general","title":"slow","body":"x"'));
        timer = setInterval(() => controller.enqueue(new TextEncoder().encode(' ')), 400);
      },
      cancel() {
        clearInterval(timer);
      },
    });
    const headers = { ...AGENT_HEADERS, authorization: `Bearer ${a.key}`, 'idempotency-key': crypto.randomUUID() };
    const res = await t.app.handle(new Request('http://localhost/v1/posts', { method: 'POST', headers, body, duplex: 'half' } as RequestInit));
    clearInterval(timer);
    expect(res.status).toBe(408);
    const json = (await res.json()) as { error: { code: string; details: { budget_seconds: number } } };
    expect(json.error.code).toBe('REQUEST_TIMEOUT');
    expect(json.error.details.budget_seconds).toBe(1);
    expect(t.db.query('SELECT count(*) AS n FROM posts WHERE author_id = ?').get(a.id)).toEqual({ n: 0 });
  });

  test('a slow body that arrives within the budget is read whole', async () => {
    // 300 ms of pauses against a 20 s budget: within it on any machine.
    const t = makeApp({ SVC_BODY_READ_SECONDS: '20' });
    const a = await t.register('alice');
    const parts = ['{"topic":"general",', '"title":"slow but honest",', '"body":"x"}'];
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        await Bun.sleep(100);
        const next = parts.shift();
        if (next === undefined) controller.close();
        else controller.enqueue(new TextEncoder().encode(next));
      },
    });
    const headers = { ...AGENT_HEADERS, authorization: `Bearer ${a.key}`, 'idempotency-key': crypto.randomUUID() };
    const res = await t.app.handle(new Request('http://localhost/v1/posts', { method: 'POST', headers, body, duplex: 'half' } as RequestInit));
    expect(res.status).toBe(200);
  });
});

describe('a client that hangs up mid-body, through a real socket', () => {
  test('is logged as 499 CLIENT_CLOSED_REQUEST (not a fault, not a 400 of its own), and nothing is stored', async () => {
    const t = makeApp({ SVC_LOG_REQUESTS: 'errors' });
    const a = await t.register('alice');
    let taken = 0;
    const server = Bun.serve({
      hostname: '127.0.0.1',
      port: 0,
      fetch(req) {
        taken++;
        return t.app.handle(req);
      },
    });
    const log = spyOn(console, 'log').mockImplementation(() => {});
    const errors = spyOn(console, 'error').mockImplementation(() => {});
    try {
      const id = 'hang-up-1234';
      const headers = { ...AGENT_HEADERS, authorization: `Bearer ${a.key}`, 'idempotency-key': crypto.randomUUID(), 'x-request-id': id };
      await hangUp(`http://127.0.0.1:${server.port}`, 'POST', '/v1/posts', headers, '{"topic":"general","title":', () => taken > 0);
      const lines = () => log.mock.calls.map((c) => JSON.parse(String(c[0]))).filter((l) => l.request_id === id);
      await until('the log line', () => lines().length > 0);
      expect(lines()).toEqual([
        {
          event: 'request',
          request_id: id,
          method: 'POST',
          path: '/v1/posts',
          status: 499,
          code: 'CLIENT_CLOSED_REQUEST',
          client: expect.any(String),
          duration_ms: expect.any(Number),
        },
      ]);
      expect(errors.mock.calls).toEqual([]);
      expect(t.db.query('SELECT count(*) AS n FROM posts WHERE author_id = ?').get(a.id)).toEqual({ n: 0 });
    } finally {
      log.mockRestore();
      errors.mockRestore();
      server.stop(true);
    }
  });
});

describe('every 413 carries the envelope, through a real server', () => {
  let proc: ReturnType<typeof Bun.spawn>;
  let base = '';
  let key = '';
  const data = mkdtempSync(join(tmpdir(), 'svc-body-'));

  beforeAll(async () => {
    proc = Bun.spawn([process.execPath, MAIN, 'serve', '--port', '0', '--data', data], {
      stdout: 'pipe',
      stderr: 'ignore',
      env: { ...process.env, SVC_BODY_READ_SECONDS: '2' },
    });
    const reader = (proc.stdout as ReadableStream<Uint8Array>).getReader();
    let text = '';
    const deadline = Date.now() + 15_000;
    while (!text.includes('\n')) {
      if (Date.now() > deadline) throw new Error(`svc serve did not print its listening line: ${text}`);
      const { value, done } = await reader.read();
      if (done) throw new Error(`svc serve exited: ${text}`);
      text += new TextDecoder().decode(value);
    }
    base = JSON.parse(text.split('\n')[0]!).url;
    const r = await fetch(`${base}/v1/agents`, { method: 'POST', headers: AGENT_HEADERS, body: JSON.stringify({ name: 'alice' }) });
    key = ((await r.json()) as { api_key: string }).api_key;
  });
  afterAll(() => {
    proc?.kill();
    rmSync(data, { recursive: true, force: true });
  });

  const expectEnvelope413 = (status: number, json: { error: { code: string; details: Record<string, unknown> } }) => {
    expect(status).toBe(413);
    expect(json.error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(json.error.details.max_request_bytes).toBe(65536);
    expect(json.error.details.max_text_chars).toBe(20000);
  };
  const headers = () => ({ ...AGENT_HEADERS, authorization: `Bearer ${key}`, 'idempotency-key': crypto.randomUUID() });

  test('a 5 MB body with its length is refused with both budgets (not an empty 413)', async () => {
    const body = JSON.stringify({ topic: 'general', title: 'big', body: 'x'.repeat(5 * 1024 * 1024) });
    const res = await fetch(`${base}/v1/posts`, { method: 'POST', headers: headers(), body });
    expectEnvelope413(res.status, (await res.json()) as never);
  });

  test('a chunked 5 MB body (no length) is cut off while reading, with the envelope', async () => {
    let sent = 0;
    const chunk = new TextEncoder().encode('x'.repeat(64 * 1024));
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === 0) controller.enqueue(new TextEncoder().encode('{"topic":"general","title":"big","body":"'));
        if (sent >= 5 * 1024 * 1024) return controller.close();
        sent += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    const res = await fetch(`${base}/v1/posts`, { method: 'POST', headers: headers(), body, duplex: 'half' } as RequestInit);
    expectEnvelope413(res.status, (await res.json()) as never);
  });

  test('a declared 100 GB body is refused from its header, before any byte is read', async () => {
    const raw = await new Promise<string>((resolve, reject) => {
      const url = new URL(base);
      const socket = connect(Number(url.port), url.hostname, () => {
        const h = { ...headers(), host: url.host, 'content-length': String(100 * 1024 ** 3), connection: 'close' };
        socket.write(
          `POST /v1/posts HTTP/1.1\r\n${Object.entries(h)
            .map(([k, v]) => `${k}: ${v}`)
            .join('\r\n')}\r\n\r\n{"topic":`,
        );
      });
      let got = '';
      socket.on('data', (d) => {
        got += d.toString();
        if (got.includes('"docs"')) {
          socket.destroy();
          resolve(got);
        }
      });
      socket.on('error', reject);
      socket.on('close', () => resolve(got));
    });
    expect(raw.split('\r\n')[0]).toBe('HTTP/1.1 413 Payload Too Large');
    const json = JSON.parse(
      raw
        .slice(raw.indexOf('\r\n\r\n') + 4)
        .replace(/^[0-9a-f]+\r\n/i, '')
        .split('\r\n')[0]!,
    );
    expectEnvelope413(413, json);
  });

  test('a client that trickles its body is answered 408 with the envelope, and the server closes the socket', async () => {
    // The client never closes: the socket's close is the server's, after a 408 that says
    // Connection: close. A socket kept open would wait out the keep-alive (about 2 minutes), past
    // the runner's timeout. A request pipelined behind the unfinished body is never answered: those
    // bytes are the rest of the body as far as HTTP/1.1 can tell, which is why the socket closes.
    const raw = await new Promise<string>((resolve, reject) => {
      const url = new URL(base);
      let timer: ReturnType<typeof setInterval> | undefined;
      const socket = connect(Number(url.port), url.hostname, () => {
        const h = { ...headers(), host: url.host, 'content-length': '1000' };
        socket.write(
          `POST /v1/posts HTTP/1.1\r\n${Object.entries(h)
            .map(([k, v]) => `${k}: ${v}`)
            .join('\r\n')}\r\n\r\n{`,
        );
        socket.write(`GET /healthz HTTP/1.1\r\nhost: ${url.host}\r\n\r\n`);
        timer = setInterval(() => socket.write(' '), 300);
      });
      let got = '';
      socket.on('data', (d) => {
        got += d.toString();
      });
      socket.on('error', (e) => (got ? resolve(got) : reject(e)));
      // No deadline of its own: the answer comes at the server's budget, however busy the machine
      // (the runner's timeout guards a hang).
      socket.on('close', () => {
        clearInterval(timer);
        resolve(got);
      });
    });
    expect(raw.split('\r\n')[0]).toStartWith('HTTP/1.1 408');
    expect(raw.toLowerCase()).toContain('\r\nconnection: close\r\n');
    expect(raw).toContain('"REQUEST_TIMEOUT"');
    expect(raw.match(/HTTP\/1\.1 /g)).toHaveLength(1);
  });
});
