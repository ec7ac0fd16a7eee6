// What a cached document costs beyond a bare Bun.serve, step by step (issue 39 §5): svc serves a
// cached document (dist/svc on a copy of the 10k corpus), and each variant is a Bun.serve of its
// own (its own process) answering svc's very bytes and headers as `raw` does (bench/raw-server.ts:
// a per-request Response with a fresh X-Request-Id), plus, cumulatively, the things svc's hot path
// (src/http/plugin.ts answerHot, src/http/hot-reads.ts) must do for every answer. Measured with
// wrk at 64 connections, paced, in rotated rounds (svc among them); printed: each one's CPU a request and
// its ratio to raw's in the same round. The last variant does what the spec needs of svc with
// nothing else: svc ÷ it is svc's own cost, it ÷ raw is Bun's.
//
//   bun bench/hot-floor.ts                         BENCH_FLOOR_PATHS=/api/pubs/feed,/api/leaderboard
//   bun bench/hot-floor.ts --serve NAME SPEC_FILE  one variant (the bench starts them)
//
// BENCH_SECONDS (5), BENCH_ROUNDS (3), BENCH_WARMUP_SECONDS (2), BENCH_FLOOR_PACE_MS (4: each
// connection waits that long before each request, so that every variant serves one offered load
// below its ceiling and wrk below its own; 0: full speed). A variant's steps are cumulative
// in VARIANTS' order, so each row's increase over the row before is what that step costs.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureCorpus, freshDataDir } from './corpus.ts';
import { fmt, list, pairedRatio, rotation, spread, verdict, withSpread } from './harness.ts';
import { BUN, listeningUrl, num, runBench } from './lib.ts';
import { children, dataDirs, luaAnonymousGet, type Round, round, scriptsDir, startSvc, stop, svcBinary } from './run/context.ts';
import { findWrk, WRK_MISSING } from './wrk.ts';

/** The steps, each adding to the one before (a variant is every step up to its own); `alt` variants change one step instead. */
export const VARIANTS = [
  { name: 'raw', level: 0, adds: 'a Response built per request with the headers and a fresh X-Request-Id (bench/raw-server.ts)' },
  { name: 'url', level: 1, adds: 'request.url read, the address cut from it and looked up in a Map (HotReads.at)' },
  { name: 'hdrobj', level: 2, adds: 'request.headers read (the Headers object made), nothing looked up' },
  {
    name: 'headers',
    level: 3,
    adds: 'Cookie, Authorization, Accept-Encoding, If-None-Match and X-Request-Id looked up in it, one call each (HotReads.pick, respond)',
  },
  { name: 'clock', level: 4, adds: 'performance.now() and the clock (Date.now) read, an Age computed' },
  { name: 'address', level: 5, adds: "server.requestIP(request) (getpeername): the client's address for the per-address read limit, counted in a Map" },
  { name: 'template', level: 6, adds: "the Response made from a kept Headers and Blob, the request id set on the answer's copy (HotReads.respond)" },
  { name: 'json', level: 6, alt: true, adds: 'template, but the five headers read from one request.headers.toJSON() (a plain object) instead of five calls' },
] as const;

interface Spec {
  path: string;
  file: string;
  headers: Record<string, string>;
}

function serve(name: string, specFile: string): void {
  const variant = VARIANTS.find((v) => v.name === name);
  if (!variant) throw new Error(`unknown variant ${name}`);
  const level = variant.level;
  const json = 'alt' in variant;
  const { path: PATH, file, headers } = JSON.parse(readFileSync(specFile, 'utf8')) as Spec;
  const body = readFileSync(file);
  const etag = headers.etag ?? '';
  const slots = new Map([[PATH, { headers: new Headers({ ...headers, age: '0' }), blob: new Blob([body]) }]]);
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
      if (json) {
        const o = h.toJSON() as Record<string, string | undefined>;
        if (o.cookie !== undefined || o.authorization !== undefined) return new Response('no', { status: 403 });
        void o['accept-encoding'];
        const held = o['if-none-match'];
        if (held !== undefined && held === etag) return new Response(null, { status: 304 });
        id = o['x-request-id'] ?? id;
      } else if (level >= 3) {
        if (h.has('cookie') || h.has('authorization')) return new Response('no', { status: 403 });
        void h.get('accept-encoding');
        const held = h.get('if-none-match');
        if (held !== null && held === etag) return new Response(null, { status: 304 });
        id = h.get('x-request-id') ?? id;
      }
    }
    if (level >= 4) {
      const at = performance.now();
      age = String(Math.floor((Date.now() - builtAt) / 1000));
      void at;
    }
    if (level >= 5) {
      const address = server!.requestIP(request)?.address ?? 'local';
      counts.set(address, (counts.get(address) ?? 0) + 1);
    }
    if (level >= 6) {
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
  const pace = num('BENCH_FLOOR_PACE_MS', 4);
  mkdirSync(scriptsDir, { recursive: true });
  const bin = svcBinary();
  const { file } = await ensureCorpus('10k', bin);
  const dataDir = freshDataDir(file, '10k-floor');
  dataDirs.push(dataDir);
  const svc = await startSvc(bin, dataDir);
  for (const path of list(process.env.BENCH_FLOOR_PATHS, '/api/pubs/feed,/api/leaderboard')) {
    // svc's identity answer, as an anonymous reader gets it: the bytes and headers every variant sends.
    const first = await fetch(`${svc.url}${path}`, { headers: { 'Accept-Encoding': 'identity' } });
    const body = Buffer.from(await first.arrayBuffer());
    if (first.status !== 200) throw new Error(`GET ${path} answered ${first.status}`);
    const skip = new Set(['date', 'age', 'x-request-id', 'content-length']);
    const headers = Object.fromEntries([...first.headers].filter(([k]) => !skip.has(k)));
    const spec = join(scriptsDir, `floor-${body.length}.json`);
    writeFileSync(join(scriptsDir, `floor-${body.length}.body`), body);
    writeFileSync(spec, JSON.stringify({ path, file: join(scriptsDir, `floor-${body.length}.body`), headers }));
    const peers: { name: string; adds: string; pid: number; url: string }[] = [];
    for (const v of VARIANTS) {
      const proc = children.spawn([BUN, import.meta.path, '--serve', v.name, spec]);
      peers.push({ name: v.name, adds: v.adds, pid: proc.pid, url: await listeningUrl(proc, v.name) });
    }
    for (const p of peers) {
      const same = Buffer.from(await (await fetch(`${p.url}${path}`)).arrayBuffer());
      if (!same.equals(body)) throw new Error(`${p.name} does not answer svc's bytes`);
    }
    peers.push({ name: 'svc', adds: "svc's hot path itself (dist/svc)", pid: svc.proc.pid, url: svc.url });
    const script = luaAnonymousGet(path, null, pace);
    process.stderr.write(
      `· ${path} (${body.length} B): ${peers.map((p) => p.name).join(', ')}, 64 connections${pace ? ` pacing ${pace} ms` : ''}, ${rounds} rotated rounds of ${seconds} s\n`,
    );
    for (const p of peers) await round({ url: p.url, pid: p.pid, connections: 64, script }, warmup);
    const byPeer = new Map<string, Round[]>(peers.map((p) => [p.name, []]));
    for (let r = 0; r < rounds; r++)
      for (const p of rotation(peers, r)) byPeer.get(p.name)!.push(await round({ url: p.url, pid: p.pid, connections: 64, script }, seconds));
    const raw = byPeer.get('raw')!;
    console.log(`\n${path}, ${body.length} B a body: CPU a request, µs (median and spread), and ÷ raw's in the same round`);
    for (const p of peers) {
      const rs = byPeer.get(p.name)!;
      const ratio = pairedRatio(
        rs.map((x) => x.server_cpu_us_per_req),
        raw.map((x) => x.server_cpu_us_per_req),
      );
      const refused = [...rs, ...raw].map((x) => x.refused).filter((x): x is string => x !== null);
      const why = refused.length ? verdict({ metric: 'x', op: '<=', value: 0, text: '' }, ratio, refused).why : '';
      console.log(
        `  ${p.name.padEnd(9)} ${withSpread(spread(rs.map((x) => x.server_cpu_us_per_req)), 1).padEnd(20)} ${withSpread(ratio).padEnd(20)} + ${p.adds}${why ? ` (NO VERDICT: ${why})` : ''}`,
      );
    }
    console.log(`  (req/s of raw: ${fmt(spread(raw.map((x) => x.rps)).median, 0)})`);
    for (const p of peers) if (p.name !== 'svc') process.kill(p.pid, 'SIGTERM');
  }
  await stop(svc.proc);
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(scriptsDir, { recursive: true, force: true });
  return 0;
}

const cleanup = async () => {
  await children.stopAll();
  for (const d of dataDirs) rmSync(d, { recursive: true, force: true });
  rmSync(scriptsDir, { recursive: true, force: true });
};

if (process.argv[2] === '--serve') serve(process.argv[3]!, process.argv[4]!);
else runBench(main, cleanup);
