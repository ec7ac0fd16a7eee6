// What a cached document costs beyond a bare Bun.serve, step by step (issue 39 §5): each variant
// is a Bun.serve of its own (its own process) answering the same body with the same headers as
// `raw` (bench/raw-server.ts: a per-request Response with a fresh X-Request-Id), plus one more of
// the things svc's hot path (src/http/plugin.ts answerHot, src/http/hot-reads.ts) must do for
// every answer. Measured with wrk at 64 connections in rotated rounds; printed: each variant's
// CPU a request and its ratio to raw's in the same round.
//
//   bun bench/hot-floor.ts                 BENCH_FLOOR_BYTES=4895,16705 (the cached 4.9 and 17 KB documents)
//   bun bench/hot-floor.ts --serve NAME    one variant (the bench starts them)
//
// BENCH_SECONDS (5), BENCH_ROUNDS (3), BENCH_WARMUP_SECONDS (2). A variant's steps are cumulative
// in VARIANTS' order, so each row's increase over the row before is what that step costs.
import { mkdirSync, rmSync } from 'node:fs';
import { fmt, list, pairedRatio, rotation, spread, verdict, withSpread } from './harness.ts';
import { BUN, listeningUrl, num, runBench } from './lib.ts';
import { children, luaAnonymousGet, type Round, round, scriptsDir } from './run/context.ts';
import { findWrk, WRK_MISSING } from './wrk.ts';

/** The steps, each adding to the one before (a variant is every step up to its own). */
export const VARIANTS = [
  { name: 'raw', adds: 'a Response built per request with the headers and a fresh X-Request-Id (bench/raw-server.ts)' },
  { name: 'url', adds: 'request.url read, the address cut from it and looked up in a Map (HotReads.at)' },
  { name: 'headers', adds: 'request.headers read: Cookie, Authorization, Accept-Encoding, If-None-Match and X-Request-Id looked at (HotReads.pick, respond)' },
  { name: 'clock', adds: 'performance.now() and the clock (Date.now) read, an Age computed' },
  { name: 'address', adds: "server.requestIP(request) (getpeername): the client's address for the per-address read limit, counted in a Map" },
  { name: 'template', adds: "the Response made from a kept Headers and Blob, the request id set on the answer's copy (HotReads.respond)" },
] as const;

const PATH = '/api/doc';

function serve(name: string, bytes: number): void {
  const level = VARIANTS.findIndex((v) => v.name === name);
  if (level < 0) throw new Error(`unknown variant ${name}`);
  const body = JSON.stringify({ items: Array.from({ length: bytes }, (_, i) => String.fromCharCode(97 + ((i * 7) % 26))).join('') }).slice(0, bytes);
  const headers = {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'public, max-age=15',
    'access-control-allow-origin': '*',
    vary: 'Accept-Encoding',
    etag: '"abc"',
  };
  const slots = new Map([[PATH, { headers: new Headers(headers), blob: new Blob([new TextEncoder().encode(body)]) }]]);
  const counts = new Map<string, number>();
  const builtAt = Date.now();
  let server: ReturnType<typeof Bun.serve> | undefined;
  const handler = (request: Request): Response => {
    let slot = slots.get(PATH)!;
    if (level >= 1) {
      const url = request.url;
      const start = url.indexOf('/', url.indexOf('//') + 2);
      slot = slots.get(start < 0 ? '/' : url.slice(start))!;
    }
    let id: string = crypto.randomUUID();
    let age = '0';
    if (level >= 2) {
      const h = request.headers;
      if (h.has('cookie') || h.has('authorization')) return new Response('no', { status: 403 });
      void h.get('accept-encoding');
      const held = h.get('if-none-match');
      if (held === '"abc"') return new Response(null, { status: 304 });
      id = h.get('x-request-id') ?? id;
    }
    if (level >= 3) {
      const at = performance.now();
      age = String(Math.floor((Date.now() - builtAt) / 1000));
      void at;
    }
    if (level >= 4) {
      const address = server!.requestIP(request)?.address ?? 'local';
      counts.set(address, (counts.get(address) ?? 0) + 1);
    }
    if (level >= 5) {
      const answer = new Response(slot.blob, { headers: slot.headers });
      answer.headers.set('x-request-id', id);
      return answer;
    }
    return new Response(body, { headers: { ...headers, age, 'X-Request-Id': id } });
  };
  server = Bun.serve({ hostname: '127.0.0.1', port: 0, routes: { [PATH]: { GET: handler } }, fetch: () => new Response('not found', { status: 404 }) });
  console.log(JSON.stringify({ event: 'listening', url: `http://127.0.0.1:${server.port}` }));
  const stop = () => {
    void server?.stop(true);
    process.exit(0);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

async function main(): Promise<number> {
  if (!findWrk()) {
    console.error(WRK_MISSING);
    return 2;
  }
  const seconds = num('BENCH_SECONDS', 5);
  const warmup = num('BENCH_WARMUP_SECONDS', 2);
  const rounds = num('BENCH_ROUNDS', 3);
  mkdirSync(scriptsDir, { recursive: true });
  for (const bytes of list(process.env.BENCH_FLOOR_BYTES, '4895,16705').map(Number)) {
    const peers = [];
    for (const v of VARIANTS) {
      const proc = children.spawn([BUN, import.meta.path, '--serve', v.name, String(bytes)]);
      peers.push({ ...v, pid: proc.pid, url: await listeningUrl(proc, v.name) });
    }
    const script = luaAnonymousGet(PATH);
    process.stderr.write(`· ${bytes} B: ${peers.map((p) => p.name).join(', ')}, 64 connections, ${rounds} rotated rounds of ${seconds} s\n`);
    for (const p of peers) await round({ url: p.url, pid: p.pid, connections: 64, script }, warmup);
    const byPeer = new Map<string, Round[]>(peers.map((p) => [p.name, []]));
    for (let r = 0; r < rounds; r++)
      for (const p of rotation(peers, r)) byPeer.get(p.name)!.push(await round({ url: p.url, pid: p.pid, connections: 64, script }, seconds));
    const raw = byPeer.get('raw')!;
    console.log(`\n${bytes} B a body: CPU a request, µs (median and spread), and ÷ raw's in the same round`);
    for (const p of peers) {
      const rs = byPeer.get(p.name)!;
      const ratio = pairedRatio(
        rs.map((x) => x.server_cpu_us_per_req),
        raw.map((x) => x.server_cpu_us_per_req),
      );
      const judged = verdict(
        { metric: 'x', op: '<=', value: Number.POSITIVE_INFINITY, text: '' },
        ratio,
        [...rs, ...raw].map((x) => x.refused),
      );
      console.log(
        `  ${p.name.padEnd(9)} ${withSpread(spread(rs.map((x) => x.server_cpu_us_per_req)), 1).padEnd(20)} ${withSpread(ratio).padEnd(20)} ${judged.verdict === 'NO VERDICT' ? `(${judged.why}) ` : ''}+ ${p.adds}`,
      );
    }
    await children.stopAll();
    console.log(`  (req/s of raw: ${fmt(spread(raw.map((x) => x.rps)).median, 0)})`);
  }
  rmSync(scriptsDir, { recursive: true, force: true });
  return 0;
}

if (process.argv[2] === '--serve') serve(process.argv[3]!, Number(process.argv[4] ?? 4895));
else
  runBench(main, async () => {
    await children.stopAll();
    rmSync(scriptsDir, { recursive: true, force: true });
  });
