// Cached documents (the `cached` group): svc's cached public documents against a raw Bun.serve
// (bench/raw-server.ts) and Express 5 under Node (bench/express-server.mjs) serving the very bytes
// and headers svc sent, each in its own process, measured in rotated order, idle and under paced
// writes. The requests are an anonymous reader's (no agent headers, no key, no Accept-Encoding:
// the identity bytes every peer can send), and every answer's body is counted by the Lua script:
// a round whose answers were not the document labelled (its size) is refused.
//
// Two kinds of rounds per write rate: at full speed (svc's req/s against raw's: ≥ 85 %), then
// svc and raw paced (BENCH_CACHED_PACE_MS, 4 ms before each request of each connection; 0: none)
// for the CPU a request (≤ 1.2× raw's). At full speed on two cores wrk runs out of its core before
// raw does, and the harness refuses those rounds; paced, both serve one offered load below their
// ceilings and their CPU a request compares like for like.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { list, rotation, spread, withSpread } from '../harness.ts';
import { BUN, lastJsonLine, listeningUrl, num, ROOT } from '../lib.ts';
import {
  type Ctx,
  CONNECTIONS,
  check,
  children,
  luaAnonymousGet,
  pacedWriter,
  ROUNDS,
  type Round,
  round,
  SECONDS,
  scriptsDir,
  selected,
  stop,
  summarize,
  WARMUP,
} from './context.ts';

// What the peers copy from svc's answer: everything but what changes per answer (Date, Age, X-Request-Id).
const COPIED_HEADERS = [
  'content-type',
  'cache-control',
  'etag',
  'access-control-allow-origin',
  'access-control-expose-headers',
  'vary',
  'x-content-type-options',
];

/** The cached documents measured: the small (~5 KB), middle (~17 KB) and large (~60 KB) ones. */
export const CACHED_DOCS = [
  { name: 'doc-pubs-feed', path: '/api/pubs/feed' },
  { name: 'doc-leaderboard', path: '/api/leaderboard' },
  { name: 'doc-activity', path: '/api/activity' },
];

/**
 * A round's answers were the `bytes`-long document (each answer's body, as the script counted
 * them), else why not: a peer answering another variant measures another document. Under writes
 * the document itself changes as they land (a vote moves the leaderboard, a reply the activity):
 * `drift` is the share its size may move then (0: the very bytes, to the byte).
 */
export function bodyRefusal(r: Round, bytes: number, drift = 0): string | null {
  if (r.body_bytes == null || r.completed === 0) return null;
  const each = r.body_bytes / r.completed;
  return Math.abs(each - bytes) <= Math.max(1, drift * bytes) ? null : `answers were ${each.toFixed(0)} bytes, not the ${bytes} measured`;
}

/** How far a document's size may move while writes land during the round (another variant differs by a quarter or more). */
export const DRIFT_UNDER_WRITES = 0.05;

/** Refuses a round (in place) for any further reason. */
export function refuse(r: Round, why: string | null): Round {
  if (why) r.refused = [r.refused, why].filter(Boolean).join('; ');
  return r;
}

/** Milliseconds each connection waits before each request in the CPU rounds (0: no paced rounds; the CPU is judged at full speed). */
export const CACHED_PACE_MS = num('BENCH_CACHED_PACE_MS', 4);

interface Peer {
  name: string;
  url: string;
  pid: number;
}

export async function cachedScenarios(c: Ctx): Promise<void> {
  const docs = CACHED_DOCS.filter((d) => selected(d.name, 'cached'));
  if (!docs.length) return;
  const writeRates = list(process.env.BENCH_WRITE_RATES, '0,10,100').map(Number);
  for (const d of docs) {
    // The identity bytes (fetch asks for br and gzip unless told, and decodes them).
    const first = await fetch(`${c.url}${d.path}`, { headers: { 'Accept-Encoding': 'identity' } });
    const body = Buffer.from(await first.arrayBuffer());
    if (first.status !== 200) {
      process.stderr.write(`  ! ${d.name}: ${first.status}\n`);
      continue;
    }
    const headers = Object.fromEntries(COPIED_HEADERS.flatMap((h) => (first.headers.has(h) ? [[h, first.headers.get(h)!]] : [])));
    const file = join(scriptsDir, `${d.name}.body`);
    mkdirSync(scriptsDir, { recursive: true });
    writeFileSync(file, body);
    const spec = JSON.stringify({ path: d.path, file, headers, requestId: first.headers.has('x-request-id') });
    const raw = children.spawn([BUN, join(ROOT, 'bench/raw-server.ts')], { RAW_SPEC: spec });
    const express = children.spawn(['node', join(ROOT, 'bench/express-server.mjs')], { RAW_SPEC: spec });
    const peers: Peer[] = [
      { name: 'svc', url: c.url, pid: c.pid },
      { name: 'raw', url: await listeningUrl(raw, 'raw Bun.serve'), pid: raw.pid },
      { name: 'express', url: await listeningUrl(express, 'express'), pid: express.pid },
    ];
    for (const p of peers.slice(1)) {
      const same = Buffer.from(await (await fetch(`${p.url}${d.path}`, { headers: { 'Accept-Encoding': 'identity' } })).arrayBuffer());
      if (!same.equals(body)) throw new Error(`${p.name} does not answer the bytes svc served for ${d.path}`);
    }
    const script = luaAnonymousGet(d.path);
    const pacedScript = CACHED_PACE_MS > 0 ? luaAnonymousGet(d.path, null, CACHED_PACE_MS) : null;
    for (const rate of writeRates) {
      // Replies as long as the corpus's: the activity document they land in stays the kind and size
      // of the corpus's own (~60 KB), before and after the other documents' write rounds (with the
      // writer's one-sentence replies it was a 46 KB one).
      const writer = rate > 0 ? pacedWriter(c, rate, { bodies: 'corpus' }) : null;
      /** Rotated rounds of `among` with `lua`: each peer's rounds. */
      const measure = async (among: Peer[], lua: string): Promise<Map<string, Round[]>> => {
        const byPeer = new Map<string, Round[]>(among.map((p) => [p.name, []]));
        for (const p of among) await round({ url: p.url, pid: p.pid, connections: CONNECTIONS, script: lua }, WARMUP);
        for (let r = 0; r < ROUNDS; r++) {
          for (const p of rotation(among, r)) {
            // While a peer is measured, svc (taking the writes) and the writer are the bench's own CPU.
            const helpers = [...(writer ? [writer.pid] : []), ...(p.name === 'svc' ? [] : [c.pid])];
            const watch = p.name === 'svc' ? undefined : c.pid; // svc's CPU for the writes alone
            const x = await round({ url: p.url, pid: p.pid, connections: CONNECTIONS, script: lua, helpers, ...(watch ? { watch } : {}) }, SECONDS);
            byPeer.get(p.name)!.push(refuse(x, bodyRefusal(x, body.length, writer ? DRIFT_UNDER_WRITES : 0)));
          }
        }
        return byPeer;
      };
      process.stderr.write(`· ${c.size} ${d.name} ${rate ? `under ${rate} writes/s` : 'idle'}: svc, raw, express in rotated order\n`);
      const byPeer = await measure(peers, script);
      let paced: Map<string, Round[]> | null = null;
      if (pacedScript) {
        process.stderr.write(`  svc and raw paced (${CACHED_PACE_MS} ms a connection), for the CPU a request\n`);
        paced = await measure(peers.slice(0, 2), pacedScript);
      }
      let writes: unknown = null;
      if (writer) {
        writer.kill('SIGTERM');
        writes = lastJsonLine(await new Response(writer.stdout).text(), 'null');
        await writer.exited;
        children.forget(writer);
      }
      const cond = rate ? `${rate} writes/s` : 'idle';
      const svcRounds = byPeer.get('svc')!;
      const rawRounds = byPeer.get('raw')!;
      const ratio = spread(svcRounds.map((s, i) => s.rps / rawRounds[i]!.rps));
      // Under writes svc's CPU also pays for the writes, which raw and Express never see: what svc
      // spent on them alone (per second, while the peers were measured) is taken out of its rounds,
      // so the ratio compares the cost of serving the document. Idle, nothing is taken out.
      const peerRounds = [...rawRounds, ...byPeer.get('express')!, ...(paced?.get('raw') ?? [])];
      const writesUsPerS = writer ? spread(peerRounds.map((x) => (x.watched_cpu_us ?? 0) / x.window_s)).median : 0;
      const readUsPerReq = (x: Round) => Math.max(0, x.server_cpu_us_per_req * x.completed - writesUsPerS * x.window_s) / Math.max(1, x.completed);
      // The CPU a request from the paced rounds when there are some, else from the full-speed ones.
      const [cpuSvc, cpuRaw] = paced ? [paced.get('svc')!, paced.get('raw')!] : [svcRounds, rawRounds];
      const cpuRatio = spread(cpuSvc.map((s, i) => readUsPerReq(s) / cpuRaw[i]!.server_cpu_us_per_req));
      const refusals = [...svcRounds, ...rawRounds].map((x) => x.refused);
      const cpuRefusals = [...cpuSvc, ...cpuRaw].map((x) => x.refused);
      const what = `GET ${d.path} (${(body.length / 1024).toFixed(1)} KB) ${cond}`;
      const svcRow = summarize(c.size, d.name, what, 'svc', svcRounds, {
        bytes: body.length,
        writes,
        rate,
        pct_of_raw: ratio,
        cpu_ratio_vs_raw: cpuRatio,
        ...(paced
          ? {
              paced_ms: CACHED_PACE_MS,
              paced_cpu_us_per_req: { svc: spread(cpuSvc.map(readUsPerReq)), raw: spread(cpuRaw.map((x) => x.server_cpu_us_per_req)) },
              paced_rps: { svc: spread(cpuSvc.map((x) => x.rps)), raw: spread(cpuRaw.map((x) => x.rps)) },
            }
          : {}),
        ...(writer ? { writes_cpu_us_per_s: Math.round(writesUsPerS), read_cpu_us_per_req: spread(svcRounds.map(readUsPerReq)) } : {}),
      });
      summarize(c.size, d.name, what, 'raw', rawRounds, { bytes: body.length, rate });
      const expressRounds = byPeer.get('express')!;
      summarize(c.size, d.name, what, 'express', expressRounds, {
        bytes: body.length,
        rate,
        svc_pct_of_express: spread(svcRounds.map((s, i) => s.rps / expressRounds[i]!.rps)),
      });
      check(svcRow, { metric: 'pct', op: '>=', value: 0.85, text: 'svc req/s ≥ 85 % of raw' }, ratio, refusals);
      if (paced)
        svcRow.note = `paced at ${CACHED_PACE_MS} ms: svc ${withSpread(spread(cpuSvc.map(readUsPerReq)))} µs, raw ${withSpread(spread(cpuRaw.map((x) => x.server_cpu_us_per_req)))} µs a request`;
      check(svcRow, { metric: 'cpu', op: '<=', value: 1.2, text: `svc CPU/request ≤ 1.2× raw${paced ? ' (paced rounds)' : ''}` }, cpuRatio, cpuRefusals);
    }
    await stop(raw);
    await stop(express);
  }
}
