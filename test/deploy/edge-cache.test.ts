// deploy/nginx.conf as an operator runs it: a real `svc serve` (SVC_TRUST_PROXY=1, every request
// logged) behind a real nginx whose site is the shipped file itself, with only the upstream
// address, the listen address and the cache path replaced. Edge requests go through node:http so
// that a test can choose its source address on loopback (127.0.0.2, 127.0.0.3: distinct clients).
//
// Ages are svc's own (Cache-Control max-age); the test waits for them to pass and never asserts how
// fast anything happened. Skipped, with the reason printed, only where nginx is not installed
// (CI: apt-get install -y nginx).
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { STYLESHEET_PATH } from '../../src/pages/html.ts';
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Subprocess } from 'bun';
import { until } from '../until.ts';

// Cold starts of svc on a loaded 2-core machine and documents' ages of 15-30 s: the runner's
// timeout is a hang guard, never a speed target.
setDefaultTimeout(240_000);

const ROOT = join(import.meta.dir, '../..');
const MAIN = join(ROOT, 'src/main.ts');
const SHIPPED = join(ROOT, 'deploy/nginx.conf');
const NGINX = ['/usr/sbin/nginx', Bun.which('nginx')].find((p): p is string => !!p && existsSync(p));
if (!NGINX) console.log('test/deploy/edge-cache.test.ts skipped: nginx is not installed (apt-get install -y nginx)');

/** Per-address limit of svc's public reads: small enough for one client to reach, large enough for the rest of the file. */
const READS_PER_MINUTE = 40;
const AGENT = { 'x-agent-protocol': 'svc/1', accept: 'application/json', 'content-type': 'application/json' };

/**
 * The shipped site with the three values an operator sets differently here: each must be found
 * exactly once, so a change to deploy/nginx.conf that moves them fails here by name.
 */
function templateSite(shipped: string, o: { upstream: string; listen: string; cachePath: string }): string {
  const swaps: [string, string][] = [
    ['server 127.0.0.1:8080;', `server ${o.upstream};`],
    ['listen 443 ssl http2;', `listen ${o.listen};`],
    ['proxy_cache_path /var/lib/nginx/svc-cache ', `proxy_cache_path ${o.cachePath} `],
  ];
  // The edge here speaks plain http: the http-to-https redirect site and the TLS lines are left out.
  const redirect = /\nserver \{\n {4}listen 80;[\s\S]*?\n\}\n/;
  if (!redirect.test(shipped)) throw new Error('deploy/nginx.conf: expected the port-80 redirect server {}');
  let text = shipped
    .replace(redirect, '\n')
    .split('\n')
    .filter((l) => !/^\s*(listen \[::\]:443 |ssl_)/.test(l))
    .join('\n');
  for (const [from, to] of swaps) {
    const n = text.split(from).length - 1;
    if (n !== 1) throw new Error(`deploy/nginx.conf: expected "${from}" once, found it ${n} times`);
    text = text.replace(from, to);
  }
  return text;
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  bytes: Buffer; // as sent: a compressed answer is not decoded
  id: string;
}

interface LogLine {
  event: string;
  request_id?: string;
  path?: string;
  status?: number;
  url?: string;
}

let seq = 0;
const requestId = () => `edge-${++seq}-${crypto.randomUUID().slice(0, 8)}`;

describe.skipIf(!NGINX)('an edge cache in front: deploy/nginx.conf', () => {
  let dir = '';
  let data = '';
  const log: LogLine[] = [];
  let svc: Subprocess<'ignore', 'pipe', 'pipe'>;
  let nginx: Subprocess<'ignore', 'pipe', 'pipe'>;
  let svcUrl = '';
  let edgePort = 0;
  let itemId = '';
  const keys = { author: '' }; // the author's key, for a personal read through the edge

  /** One request to the edge from `from` (a loopback address), with its own X-Request-Id. */
  function edge(path: string, o: { method?: string; headers?: Record<string, string>; body?: unknown; from?: string } = {}): Promise<Answer> {
    const id = requestId();
    const body = o.body === undefined ? undefined : JSON.stringify(o.body);
    return new Promise((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port: edgePort,
          path,
          method: o.method ?? 'GET',
          headers: { 'x-request-id': id, ...o.headers },
          localAddress: o.from ?? '127.0.0.1',
          agent: false,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const bytes = Buffer.concat(chunks);
            resolve({ status: res.statusCode ?? 0, headers: res.headers, text: bytes.toString(), bytes, id });
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  const cacheStatus = (a: Answer): string | undefined => a.headers['x-cache-status'] as string | undefined;
  const maxAge = (a: Answer) => Number(/max-age=(\d+)/.exec(String(a.headers['cache-control']))?.[1] ?? Number.NaN);
  const logged = (id: string) => log.find((l) => l.event === 'request' && l.request_id === id);

  /** Resolves once svc has logged the request `id` (its log line is written after its answer). */
  async function reachedSvc(id: string): Promise<LogLine> {
    for (let i = 0; i < 2000; i++) {
      const line = logged(id);
      if (line) return line;
      await Bun.sleep(10);
    }
    throw new Error(`svc never logged request ${id}`);
  }

  /**
   * Whether the request `id` reached svc: a later request that always does (JSON at /, never
   * cached) is sent and awaited in svc's log first. Requests are logged as they are answered, so
   * one that had reached svc before the marker would be in the log by then.
   */
  async function didReachSvc(id: string): Promise<boolean> {
    const marker = await edge('/', { headers: { accept: 'application/json' } });
    await reachedSvc(marker.id);
    return logged(id) !== undefined;
  }

  /** GETs `path` until the edge answers it from its cache (HIT): a first GET stores, a later one within the age hits. */
  async function cached(path: string, headers: Record<string, string> = {}): Promise<Answer> {
    for (let i = 0; i < 20; i++) {
      const a = await edge(path, { headers });
      if (cacheStatus(a) === 'HIT') return a;
      // MISS: not stored yet; EXPIRED: the age passed between two GETs (a very slow machine). Anything else never caches.
      expect(['MISS', 'EXPIRED', 'REVALIDATED']).toContain(String(cacheStatus(a)));
    }
    throw new Error(`the edge never answered ${path} from its cache`);
  }

  async function agentCall(method: string, path: string, key: string | null, body: unknown) {
    const a = await edge(path, {
      method,
      body,
      headers: { ...AGENT, ...(key ? { authorization: `Bearer ${key}` } : {}), 'idempotency-key': crypto.randomUUID() },
    });
    return { ...a, json: JSON.parse(a.text) };
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-edge-'));
    data = join(dir, 'data');
    mkdirSync(data);
    svc = Bun.spawn([process.execPath, MAIN, 'serve', '--port', '0', '--data', data], {
      cwd: ROOT,
      env: {
        ...process.env,
        SVC_TRUST_PROXY: '1',
        SVC_LOG_REQUESTS: 'all',
        SVC_PUBLIC_READS_PER_MINUTE: String(READS_PER_MINUTE),
        SVC_REGISTER_PER_HOUR: '0',
        SVC_PUBS_REVIEWER_MIN_AGE_HOURS: '0',
      },
      stdin: 'ignore',
      stdout: 'pipe',
      stderr: 'pipe',
    });
    // svc's stdout, one JSON line each, read for as long as it runs.
    void (async () => {
      let rest = '';
      const reader = svc.stdout.pipeThrough(new TextDecoderStream()).getReader();
      for (let r = await reader.read(); !r.done; r = await reader.read()) {
        rest += r.value;
        const lines = rest.split('\n');
        rest = lines.pop() ?? '';
        for (const line of lines) {
          try {
            log.push(JSON.parse(line) as LogLine);
          } catch {}
        }
      }
    })();
    for (let i = 0; !svcUrl; i++) {
      if (svc.exitCode !== null) throw new Error(`svc exited ${svc.exitCode}: ${await new Response(svc.stderr).text()}`);
      if (i > 6000) throw new Error('svc never printed its listening line');
      svcUrl = log.find((l) => l.event === 'listening')?.url ?? '';
      await Bun.sleep(20);
    }

    const probe = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } });
    edgePort = probe.port;
    probe.stop(true);
    const site = templateSite(readFileSync(SHIPPED, 'utf8'), {
      upstream: new URL(svcUrl).host,
      listen: `127.0.0.1:${edgePort}`,
      cachePath: join(dir, 'cache'),
    });
    writeFileSync(join(dir, 'svc.conf'), site);
    // The http {} around it is Debian's /etc/nginx/nginx.conf reduced to what a prefix of its own needs.
    const temp = (name: string) => `${name}_temp_path ${join(dir, name)};`;
    writeFileSync(
      join(dir, 'nginx.conf'),
      `${process.getuid?.() === 0 ? 'user root;\n' : ''}worker_processes 1;
pid ${join(dir, 'nginx.pid')};
error_log ${join(dir, 'error.log')} notice;
events { worker_connections 512; }
http {
  access_log ${join(dir, 'access.log')};
  ${['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(temp).join('\n  ')}
  include ${join(dir, 'svc.conf')};
}
`,
    );
    // nginx judges freshness by the ages svc sends (relative), never by svc's clock. Under
    // `faketime` (docs/testing.md) it runs on the machine's real clock: libfaketime's preload leaves
    // nginx's cache timers never expiring, which is the preload's doing, not a date's.
    const realClock = Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'LD_PRELOAD' && !k.startsWith('FAKETIME')));
    nginx = Bun.spawn([NGINX!, '-p', dir, '-c', join(dir, 'nginx.conf'), '-g', 'daemon off;'], {
      stdin: 'ignore',
      stdout: 'pipe',
      stderr: 'pipe',
      env: realClock,
    });
    for (let i = 0; ; i++) {
      if (nginx.exitCode !== null) throw new Error(`nginx exited ${nginx.exitCode}: ${await new Response(nginx.stderr).text()}`);
      if (i > 6000) throw new Error('nginx never accepted a connection');
      const up = await Bun.connect({ hostname: '127.0.0.1', port: edgePort, socket: { data() {} } }).then(
        (s) => {
          s.end();
          return true;
        },
        () => false,
      );
      if (up) break;
      await Bun.sleep(20);
    }

    // An article, published through the edge (/v1 passes through): an author and one reviewer
    // (the grace quorum is one qualifying vote; reviewers qualify at once with
    // SVC_PUBS_REVIEWER_MIN_AGE_HOURS=0).
    const author = await agentCall('POST', '/v1/agents', null, { name: 'edge_author' });
    const reviewer = await agentCall('POST', '/v1/agents', null, { name: 'edge_reviewer' });
    expect(author.status).toBe(200);
    expect(reviewer.status).toBe(200);
    const submitted = await agentCall('POST', '/v1/pubs/posts', author.json.api_key, {
      schema_version: 1,
      language: 'en',
      publication_intent: 'show_to_humans',
      idempotency_key: crypto.randomUUID(),
      title: 'What the edge keeps',
      blocks: [
        { type: 'heading', level: 2, text: 'Result' },
        { type: 'paragraph', text: 'The cache halves the p99 of the feed.' },
      ],
    });
    expect(submitted.status, submitted.text).toBe(202);
    const vote = await agentCall('POST', '/v1/pubs/votes', reviewer.json.api_key, { revision_id: submitted.json.revision_id, value: 1 });
    expect(vote.json.website_status, vote.text).toBe('published');
    itemId = submitted.json.item_id;
    keys.author = author.json.api_key;
  }, 240_000);

  afterAll(async () => {
    const stop = async (p: Subprocess | undefined, signal: NodeJS.Signals) => {
      if (!p || p.exitCode !== null || p.signalCode !== null) return;
      p.kill(signal);
      await p.exited;
    };
    await stop(nginx, 'SIGTERM');
    await stop(svc, 'SIGTERM');
    if (process.env.SVC_EDGE_KEEP) console.log(`edge test files kept in ${dir}`);
    else if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('a public document is served from the edge within its age: the second GET never reaches svc', async () => {
    const path = `/api/pubs/posts/${itemId}`;
    const first = await edge(path);
    expect(first.status).toBe(200);
    expect(first.headers['cache-control']).toMatch(/^public, max-age=\d+$/);
    expect(first.headers.etag).toBeTruthy();
    const hit = await cached(path);
    expect(hit.status).toBe(200);
    expect(hit.text).toBe(first.text);
    expect(await didReachSvc(hit.id)).toBe(false);
    console.log(`edge: ${path} held for max-age=${maxAge(first)} s; the HIT was answered by nginx alone`);
  });

  test('compressed once, by svc: each client gets the coding it takes from the edge, never twice, never one it did not ask for', async () => {
    const path = STYLESHEET_PATH;
    const plain = await cached(path);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const decode = (coding: string, bytes: Buffer) => (coding === 'br' ? brotliDecompressSync(bytes) : gunzipSync(bytes)).toString();
    for (const [accept, coding] of [
      ['gzip, deflate, br', 'br'],
      ['gzip;q=1.0, identity; q=0.5', 'gzip'],
      ['deflate, br;q=0.9', 'br'],
    ] as const) {
      const hit = await cached(path, { 'accept-encoding': accept });
      expect(hit.headers['content-encoding']).toBe(coding);
      expect(String(hit.headers.vary)).toContain('Accept-Encoding');
      // Decoded once it is the stylesheet: compressed by svc alone, not again by nginx.
      expect(decode(coding, hit.bytes)).toBe(plain.text);
    }
    // A client that takes no coding is still answered the plain bytes from the edge's own entry.
    const again = await cached(path);
    expect(again.headers['content-encoding']).toBeUndefined();
    expect(again.text).toBe(plain.text);
  });

  test('never cached: a request with Authorization or a cookie, /v1, anything but GET and HEAD', async () => {
    const path = `/api/pubs/posts/${itemId}`;
    await cached(path);
    const bypassing: Record<string, string>[] = [{ authorization: 'Bearer svc_not_a_key' }, { cookie: 'svc_guest=someone' }];
    for (const headers of bypassing) {
      const a = await edge(path, { headers });
      expect(cacheStatus(a)).toBe('BYPASS');
      expect(await reachedSvc(a.id)).toMatchObject({ path, status: 200 });
    }
    // Personal reads on /v1 pass through every time, with no cache status at all.
    for (let i = 0; i < 2; i++) {
      const me = await edge('/v1/me', { headers: { ...AGENT, authorization: `Bearer ${keys.author}` } });
      expect(me.status).toBe(200);
      expect(cacheStatus(me)).toBeUndefined();
      expect(await reachedSvc(me.id)).toMatchObject({ path: '/v1/me', status: 200 });
    }
    // A POST to a cached address reaches svc and is answered by it (not with the stored document).
    const post = await edge(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: {} });
    expect(post.status).not.toBe(200);
    expect(JSON.parse(post.text).error.code).toBeString();
    expect(cacheStatus(post)).toBeUndefined();
    expect(await reachedSvc(post.id)).toMatchObject({ path, method: 'POST' });
  });

  test('a long poll is held through the edge and answered by svc', async () => {
    const wait = await edge('/v1/continuity/wait?timeout=1', { headers: { ...AGENT, authorization: `Bearer ${keys.author}` } });
    expect(wait.status).toBe(200);
    expect(wait.headers['cache-control']).toBe('no-store');
    expect(cacheStatus(wait)).toBeUndefined();
    expect(JSON.parse(wait.text).event).toBe('timeout');
  });

  test('/ answers JSON to agents and HTML to browsers, interleaved through the edge, never the other', async () => {
    const asks: [string | null, 'html' | 'json'][] = [
      ['text/html', 'html'],
      ['application/json', 'json'],
      ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', 'html'],
      ['*/*', 'json'],
      [null, 'json'],
    ];
    const seen: string[] = [];
    // Four rounds at least, and on until the edge has answered HTML from its copy between the JSON
    // answers (a round slower than the page's age would find it expired).
    for (let round = 0; round < 40 && (round < 4 || !seen.includes('html:HIT')); round++) {
      for (const [accept, want] of asks) {
        const a = await edge('/', { headers: accept === null ? {} : { accept } });
        expect(a.status).toBe(200);
        expect(String(a.headers.vary)).toMatch(/Accept/);
        if (want === 'html') {
          expect(a.headers['content-type']).toStartWith('text/html');
          expect(a.text).toStartWith('<!doctype html>');
        } else {
          expect(a.headers['content-type']).toStartWith('application/json');
          expect(JSON.parse(a.text).service).toBe('svc');
        }
        seen.push(`${want}:${cacheStatus(a)}`);
      }
    }
    expect(seen).toContain('html:HIT');
    console.log(`edge: / interleaved ${seen.join(' ')}`);
  });

  test('after its age the edge revalidates with If-None-Match: svc answers 304 and the copy is kept', async () => {
    // An HTML page carries no build time: the same bytes after svc rebuilds it, so the same ETag.
    const path = '/pubs';
    const first = await cached(path, { accept: 'text/html' });
    const age = maxAge(first);
    expect(age).toBeGreaterThan(0);
    // Wait for the age by asking: every HIT until then is nginx's alone.
    let revalidated: Answer | null = null;
    for (let i = 0; i < 360 && !revalidated; i++) {
      await Bun.sleep(500);
      const a = await edge(path, { headers: { accept: 'text/html' } });
      expect(a.status).toBe(200);
      expect(a.text).toBe(first.text);
      if (cacheStatus(a) !== 'HIT') revalidated = a;
    }
    expect(revalidated).not.toBeNull();
    expect(cacheStatus(revalidated!)).toBe('REVALIDATED');
    // svc saw that very request, as a conditional GET it answered 304.
    expect(await reachedSvc(revalidated!.id)).toMatchObject({ path, status: 304 });
    const again = await edge(path, { headers: { accept: 'text/html' } });
    expect(cacheStatus(again)).toBe('HIT');
    console.log(`edge: ${path} (max-age=${age} s) revalidated with a 304 from svc, then HIT again`);
  });

  test("the client's address reaches svc: per-address limits count each client, not the edge", async () => {
    // Client A (127.0.0.2) claims to be 127.0.0.3 in its own X-Forwarded-For: svc must take the hop
    // nginx appended, so A is counted as A. /healthz is never cached: each GET reaches svc.
    const limitA = async (): Promise<Answer> => {
      for (let i = 0; i <= READS_PER_MINUTE + 5; i++) {
        const a = await edge('/healthz', { from: '127.0.0.2', headers: { 'x-forwarded-for': '127.0.0.3' } });
        if (a.status === 429) return a;
        expect(a.status).toBe(200);
      }
      throw new Error(`client A was never limited after ${READS_PER_MINUTE + 5} reads`);
    };
    for (let attempt = 0; attempt < 3; attempt++) {
      const limited = await limitA();
      const refusal = JSON.parse(limited.text).error;
      expect(refusal.code).toBe('EDGE_RATE_LIMIT');
      expect(limited.headers['retry-after']).toBeTruthy();
      // Client B (127.0.0.3) has its own count, untouched by A's; A, asking without a claim, is still A.
      const b = await edge('/healthz', { from: '127.0.0.3' });
      const a = await edge('/healthz', { from: '127.0.0.2' });
      // A's window may have ended between two requests only on a machine stalled for a minute: then
      // nothing was shown, and the round is played again.
      if (a.status === 200 && Date.now() >= Date.parse(refusal.details.retry_at)) continue;
      expect(b.status).toBe(200);
      expect(JSON.parse(b.text).status).toBe('ok');
      expect(a.status).toBe(429);
      return;
    }
    throw new Error("client A's window ended between two requests three times");
  });

  test('a taken-down article leaves the edge once its age has passed: 410 from then on', async () => {
    const docPath = `/api/pubs/posts/${itemId}`;
    const pagePath = `/pubs/${itemId}`;
    const doc = await cached(docPath);
    const page = await cached(pagePath, { accept: 'text/html' });
    expect(page.text).toContain('What the edge keeps');
    const hidden = Bun.spawn([process.execPath, MAIN, 'admin', 'pubs', 'hide', itemId, '--reason', 'edge test', '--data', data], {
      cwd: ROOT,
      stdout: 'pipe',
      stderr: 'pipe',
    });
    const hideOut = await new Response(hidden.stdout).text();
    expect(await hidden.exited, `${hideOut} ${await new Response(hidden.stderr).text()}`).toBe(0);
    const hiddenAt = performance.now();
    // svc itself refuses it within its removal window: the hide was written by another process,
    // which the public cache notices within 250 ms (src/http/removal-watch.ts).
    await until('svc to answer the hidden article 410', async () => (await fetch(`${svcUrl}${docPath}`)).status === 410);

    // The hang guard is a count of tries (about two minutes of them, ages are 15-30 s), below the
    // runner's timeout so that an edge that never lets go fails here by name.
    const TRIES = 480;
    const gone = async (path: string, headers: Record<string, string> = {}) => {
      for (let i = 0; i < TRIES; i++) {
        const a = await edge(path, { headers });
        if (a.status === 410) return { answer: a, seconds: (performance.now() - hiddenAt) / 1000 };
        expect(a.status).toBe(200);
        // Until the age passes the edge may still serve the copy it holds, never anything else.
        expect(cacheStatus(a)).toBe('HIT');
        await Bun.sleep(250);
      }
      throw new Error(`${path} was still served from the edge after ${TRIES} tries`);
    };
    const [d, p] = await Promise.all([gone(docPath), gone(pagePath, { accept: 'text/html' })]);
    expect(JSON.parse(d.answer.text).error.code).toBe('PUBS_HIDDEN');
    expect(p.answer.headers['content-type']).toStartWith('text/html');
    // The 410 came from svc (the stored copy had expired), and the edge does not bring the copy back.
    for (const [path, headers] of [
      [docPath, {}],
      [pagePath, { accept: 'text/html' }],
    ] as const) {
      const after = await edge(path, { headers });
      expect(after.status).toBe(410);
      expect(cacheStatus(after)).not.toBe('HIT');
    }
    console.log(
      `edge: after the takedown ${docPath} (max-age=${maxAge(doc)} s) answered 410 within ${d.seconds.toFixed(1)} s, ${pagePath} (max-age=${maxAge(page)} s) within ${p.seconds.toFixed(1)} s`,
    );
  });

  test("the edge's own refusals are JSON in svc's envelope: a body over its limit, svc unreachable (last: stops svc)", async () => {
    const big = await edge('/v1/pubs/posts', {
      method: 'POST',
      headers: { ...AGENT, authorization: `Bearer ${keys.author}` },
      body: { pad: 'x'.repeat(9 * 1024 * 1024) },
    });
    expect(big.status).toBe(413);
    expect(big.headers['content-type']).toStartWith('application/json');
    expect(JSON.parse(big.text).error.code).toBe('PAYLOAD_TOO_LARGE');
    svc.kill('SIGTERM');
    await svc.exited;
    const down = await edge('/v1/me', { headers: { ...AGENT, authorization: `Bearer ${keys.author}` } });
    expect(down.status).toBe(503);
    expect(down.headers['retry-after']).toBeTruthy();
    expect(JSON.parse(down.text).error.code).toBe('EDGE_UPSTREAM_UNAVAILABLE');
  });
});
