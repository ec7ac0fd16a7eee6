// The probers' HTTP client (bench/probe-client.ts): an answer's framing read in any cut of its
// bytes, a status that is not 2xx or a connection cut short counted as what it is, and one
// kept-alive connection a loop, made again when the server closes it.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { AnswerReader, probeClient } from '../../bench/probe-client.ts';
import { probeTimes } from '../../bench/lib.ts';

const enc = (s: string) => new TextEncoder().encode(s);

/** Feeds `text` cut at every `step` bytes; answers what the last feed returned and the feeds that returned a status. */
function feedCut(text: string, step: number): { status: number | null; done: number } {
  const r = new AnswerReader();
  const bytes = enc(text);
  let status: number | null = null;
  let done = 0;
  for (let i = 0; i < bytes.length; i += step) {
    status = r.feed(bytes.subarray(i, i + step));
    if (status !== null) done++;
  }
  return { status, done };
}

describe('an answer read in pieces', () => {
  const sized = 'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\ncontent-length: 11\r\n\r\nhello world';
  const chunked = 'HTTP/1.1 201 Created\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\nhello\r\n6\r\n world\r\n0\r\nX-Trailer: 1\r\n\r\n';

  test('a Content-Length body, cut anywhere, ends once, at its last byte', () => {
    for (let step = 1; step <= sized.length; step++) expect(feedCut(sized, step)).toEqual({ status: 200, done: 1 });
    const r = new AnswerReader();
    expect(r.feed(enc(sized.slice(0, -1)))).toBeNull();
    expect(r.feed(enc('d'))).toBe(200);
  });

  test('a chunked body with extensions and a trailer, cut anywhere, ends once, after the trailer', () => {
    for (let step = 1; step <= chunked.length; step++) expect(feedCut(chunked, step)).toEqual({ status: 201, done: 1 });
    const r = new AnswerReader();
    expect(r.feed(enc(chunked.slice(0, -2)))).toBeNull(); // the trailer's end not there yet
  });

  test('answers without a body end with their head; the status is any', () => {
    expect(feedCut('HTTP/1.1 204 No Content\r\n\r\n', 3)).toEqual({ status: 204, done: 1 });
    expect(feedCut('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n', 5)).toEqual({ status: 404, done: 1 });
    expect(feedCut('HTTP/1.1 304 Not Modified\r\nContent-Length: 60000\r\n\r\n', 7)).toEqual({ status: 304, done: 1 });
  });

  test('a body delimited by the close ends with the close; a cut-short one does not', () => {
    const r = new AnswerReader();
    expect(r.feed(enc('HTTP/1.1 200 OK\r\n\r\nsome bytes'))).toBeNull();
    expect(r.closes).toBe(true);
    expect(r.ended()).toBe(200);
    const cut = new AnswerReader();
    expect(cut.feed(enc('HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc'))).toBeNull();
    expect(cut.ended()).toBeNull();
    expect(new AnswerReader().ended()).toBeNull(); // nothing came
  });

  test('Connection: close is heard; bytes past the answer and a foreign protocol are errors', () => {
    const r = new AnswerReader();
    expect(r.feed(enc('HTTP/1.1 200 OK\r\nConnection: Close\r\nContent-Length: 2\r\n\r\nok'))).toBe(200);
    expect(r.closes).toBe(true);
    expect(() => new AnswerReader().feed(enc('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokay'))).toThrow('past');
    expect(() => new AnswerReader().feed(enc('SSH-2.0-OpenSSH\r\n\r\n'))).toThrow('not an HTTP/1.1 answer');
    expect(() => new AnswerReader().feed(enc('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n'))).toThrow('chunk size');
  });
});

describe('the client against real servers', () => {
  let server: ReturnType<typeof Bun.serve>;
  let base = '';
  const seen: { path: string; encoding: string | null }[] = [];
  beforeAll(() => {
    server = Bun.serve({
      hostname: '127.0.0.1',
      port: 0,
      fetch(req) {
        const path = new URL(req.url).pathname;
        seen.push({ path, encoding: req.headers.get('accept-encoding') });
        if (path === '/doc') return new Response('x'.repeat(60_000));
        if (path === '/stream')
          return new Response(
            new ReadableStream({
              async pull(c) {
                c.enqueue(enc('part one, '));
                await Bun.sleep(2);
                c.enqueue(enc('part two'));
                c.close();
              },
            }),
          );
        if (path === '/fail') return new Response('no', { status: 503 });
        return new Response('not found', { status: 404 });
      },
    });
    base = `http://127.0.0.1:${server.port}`;
  });
  afterAll(() => server.stop(true));

  test('a sized answer, a streamed (chunked) one and a refusal each come back with their status', async () => {
    const doc = probeClient(`${base}/doc`);
    for (let i = 0; i < 5; i++) expect(await doc.get()).toEqual({ status: 200 });
    doc.close();
    const stream = probeClient(`${base}/stream`);
    expect(await stream.get()).toEqual({ status: 200 });
    expect(await stream.get()).toEqual({ status: 200 });
    stream.close();
    const fail = probeClient(`${base}/fail?x=1`);
    expect(await fail.get()).toEqual({ status: 503 });
    fail.close();
    expect(seen.at(-1)!.encoding).toBe('gzip, deflate, br, zstd'); // what fetch asks for: svc compresses as for fetch
  });

  test('probeTimes counts what was not 2xx as failures, and times every probe', async () => {
    const failures = { n: 0 };
    const starts: number[] = [];
    const times = await probeTimes(`${base}/fail`, 150, { intervalMs: 5, loops: 2, failures, starts });
    expect(times.length).toBeGreaterThan(2);
    expect(failures.n).toBe(times.length);
    expect(starts.length).toBe(times.length);
    for (const t of times) expect(t).toBeGreaterThan(0);
  });

  test('one connection serves a loop; a server that closes after each answer, or mid-answer, is met again', async () => {
    let connections = 0;
    let mode: 'keep' | 'close' | 'cut' = 'keep';
    const raw = Bun.listen({
      hostname: '127.0.0.1',
      port: 0,
      socket: {
        open() {
          connections++;
        },
        data(s) {
          if (mode === 'keep') s.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok');
          else if (mode === 'close') {
            s.write('HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok');
            s.end();
          } else {
            s.write('HTTP/1.1 200 OK\r\nContent-Length: 20\r\n\r\nonly');
            s.end();
          }
        },
      },
    });
    try {
      const client = probeClient(`http://127.0.0.1:${raw.port}/`);
      for (let i = 0; i < 4; i++) expect((await client.get()).status).toBe(200);
      expect(connections).toBe(1);
      mode = 'close';
      for (let i = 0; i < 3; i++) expect((await client.get()).status).toBe(200);
      expect(connections).toBe(3); // the first of these on the kept one, then one each
      mode = 'cut';
      expect((await client.get()).status).toBe(0);
      expect((await client.get()).status).toBe(0);
      mode = 'keep';
      expect((await client.get()).status).toBe(200);
      client.close();
    } finally {
      raw.stop(true);
    }
  });

  test('nothing listening: a failed probe, not a throw', async () => {
    const gone = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } });
    const port = gone.port;
    gone.stop(true);
    const client = probeClient(`http://127.0.0.1:${port}/`);
    expect(await client.get()).toEqual({ status: 0 });
    client.close();
  });
});
