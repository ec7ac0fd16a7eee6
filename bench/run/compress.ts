// Compressed answers (the `compress` group, issue 40 §2): cached public documents requested with
// `Accept-Encoding: identity`, `gzip` and `br` by an anonymous reader at CONNECTIONS connections:
// the bytes on the wire an answer (its body as received, and everything wrk read) and svc's CPU a
// request. With BENCH_BEFORE_BIN (the build of the commit before compression landed) and
// BENCH_BEFORE_CORPUS (a corpus made by that build's own bench/corpus.ts: its migrations are
// older), the same documents from that build, on its own copy, in the same rotated rounds.
// Targets: the identity answer costs at most 1.1× the build before it a request (the hot path kept
// its cost), and a compressed answer at most COMPRESSED_EXTRA_US above the identity (compressed
// once per cached copy: compressing a 5 KB document per request would cost tens of µs).
//
// The rounds are paced (BENCH_COMPRESS_PACE_MS, 4 ms between a connection's answer and its next
// request: at most CONNECTIONS × 250 a second): at full speed on two cores wrk, which reads every
// body into its Lua (to count the statuses and the bytes), ran out of its core before either
// server did, and the harness refused those rounds. At one offered load both builds are measured
// below their ceilings and the CPU a request is compared like for like. 0 sends at full speed.
import { existsSync } from 'node:fs';
import { freshDataDir } from '../corpus.ts';
import { num } from '../lib.ts';
import { pairedDifference, pairedRatio, rotation, type Spread } from '../harness.ts';
import { bodyRefusal, refuse } from './cached.ts';
import {
  type Ctx,
  CONNECTIONS,
  check,
  dataDirs,
  luaAnonymousGet,
  ROUNDS,
  type Round,
  round,
  SECONDS,
  selected,
  startSvc,
  stop,
  summarize,
  WARMUP,
} from './context.ts';

/**
 * How far an answer's size may move with no writes: a document rebuilt on its own schedule during
 * the rounds (the leaderboard) carries a new generated_at, and its compressed bytes move by a few
 * (1,476 → 1,471 B of gzip at 1M). Another form of the bytes differs by far more (identity 16 KB).
 */
export const REBUILT_DRIFT = 0.01;

export const COMPRESS_DOCS = [
  { name: 'compress-pubs-feed', path: '/api/pubs/feed' },
  { name: 'compress-leaderboard', path: '/api/leaderboard' },
  { name: 'compress-activity', path: '/api/activity' },
  { name: 'compress-docs', path: '/docs' },
  { name: 'compress-openapi', path: '/openapi.json' },
];
const CODINGS = ['identity', 'gzip', 'br'] as const;
/** Milliseconds each connection waits before each request (0: full speed); see the top. */
export const COMPRESS_PACE_MS = num('BENCH_COMPRESS_PACE_MS', 4);
/** A compressed answer's CPU above the identity's, µs a request, at most. */
export const COMPRESSED_EXTRA_US = 5;

interface Peer {
  name: string; // "after identity", "before identity", …
  build: 'after' | 'before';
  coding: (typeof CODINGS)[number];
  url: string;
  pid: number;
  script: string;
  /** The answer's body as sent (compressed when coded), its Content-Encoding and its status line and headers' length. */
  bytes: number;
  encoding: string;
  head: number;
}

/**
 * What `url` answers `path` with for `coding`: the body's length as sent, its Content-Encoding,
 * and the length of its status line and headers as HTTP/1.1 sends them (wrk's own count of the
 * bytes it read also holds the answers still in flight when a round ends: at a few answers a
 * second, as for a 1 MB identity document, that is most of it).
 */
async function answerOf(url: string, path: string, coding: string): Promise<{ status: number; bytes: number; encoding: string; head: number }> {
  const r = await fetch(`${url}${path}`, { headers: { 'Accept-Encoding': coding }, decompress: false });
  let head = `HTTP/1.1 ${r.status} ${r.statusText}\r\n\r\n`.length;
  for (const [k, v] of r.headers) head += k.length + v.length + 4;
  return { status: r.status, bytes: (await r.arrayBuffer()).byteLength, encoding: r.headers.get('content-encoding') ?? 'identity', head };
}

export async function compressScenarios(c: Ctx): Promise<void> {
  const docs = COMPRESS_DOCS.filter((d) => selected(d.name, 'compress'));
  if (!docs.length) return;
  const beforeBin = process.env.BENCH_BEFORE_BIN;
  const beforeCorpus = process.env.BENCH_BEFORE_CORPUS;
  if (beforeBin && !(beforeCorpus && existsSync(beforeCorpus)))
    throw new Error('BENCH_BEFORE_BIN needs BENCH_BEFORE_CORPUS: a corpus made by that build (its bench/corpus.ts), whose migrations it knows');
  let before: { proc: Awaited<ReturnType<typeof startSvc>>['proc']; url: string } | null = null;
  if (beforeBin && beforeCorpus) {
    const dir = freshDataDir(beforeCorpus, `${c.size}-before`);
    dataDirs.push(dir);
    before = await startSvc(beforeBin, dir);
  }
  try {
    for (const d of docs) {
      const peers: Peer[] = [];
      const builds = [
        { build: 'after' as const, url: c.url, pid: c.pid },
        ...(before ? [{ build: 'before' as const, url: before.url, pid: before.proc.pid }] : []),
      ];
      for (const b of builds)
        for (const coding of CODINGS) {
          const a = await answerOf(b.url, d.path, coding);
          if (a.status !== 200) throw new Error(`${b.build}: GET ${d.path} (${coding}) answered ${a.status}`);
          // The build before compression answers every coding with the identity: measured once.
          if (b.build === 'before' && coding !== 'identity' && a.encoding === 'identity') continue;
          peers.push({ name: `${b.build} ${coding}`, ...b, coding, script: luaAnonymousGet(d.path, coding, COMPRESS_PACE_MS), ...a });
        }
      const identity = peers.find((p) => p.name === 'after identity')!;
      process.stderr.write(
        `· ${c.size} ${d.name}: GET ${d.path} (${peers.map((p) => `${p.name} ${p.bytes} B`).join(', ')}), ${CONNECTIONS} connections${COMPRESS_PACE_MS > 0 ? `, each pacing ${COMPRESS_PACE_MS} ms` : ''}, rotated\n`,
      );
      const byPeer = new Map<string, Round[]>(peers.map((p) => [p.name, []]));
      for (const p of peers) await round({ url: p.url, pid: p.pid, connections: CONNECTIONS, script: p.script }, WARMUP);
      for (let r = 0; r < ROUNDS; r++)
        for (const p of rotation(peers, r)) {
          const x = await round({ url: p.url, pid: p.pid, connections: CONNECTIONS, script: p.script }, SECONDS);
          byPeer.get(p.name)!.push(refuse(x, bodyRefusal(x, p.bytes, REBUILT_DRIFT)));
        }
      const cpu = (name: string) => byPeer.get(name)!.map((x) => x.server_cpu_us_per_req);
      const refusalsOf = (...names: string[]) => names.flatMap((n) => byPeer.get(n)!.map((x) => x.refused));
      for (const p of peers) {
        const rs = byPeer.get(p.name)!;
        const wire = p.bytes + p.head;
        const what = `GET ${d.path} (${(identity.bytes / 1024).toFixed(1)} KB), Accept-Encoding: ${p.coding}`;
        const row = summarize(c.size, d.name, what, `svc ${p.build}`, rs, {
          coding: p.coding,
          content_encoding: p.encoding,
          body_bytes: p.bytes,
          wire_bytes_per_answer: wire,
          body_bytes_counted: rs.map((x) => (x.body_bytes ?? Number.NaN) / Math.max(1, x.completed)),
        });
        row.note = `${p.encoding}: ${p.bytes} B a body, ${wire} B with its headers`;
        if (p.build === 'after' && p.coding !== 'identity') {
          const extra = pairedDifference(cpu(p.name), cpu('after identity'));
          row.extra.cpu_us_above_identity = extra;
          check(
            row,
            {
              metric: 'µs',
              op: '<=',
              value: COMPRESSED_EXTRA_US,
              text: `${p.coding} CPU/request ≤ identity's + ${COMPRESSED_EXTRA_US} µs (compressed once per copy)`,
            },
            extra,
            refusalsOf(p.name, 'after identity'),
          );
        }
        const beforeIdentity = peers.find((x) => x.name === 'before identity');
        // Only the same document is compared across builds (the build before answered /docs whole, 1 MB).
        if (p.name === 'after identity' && beforeIdentity && Math.abs(beforeIdentity.bytes - p.bytes) > 0.05 * p.bytes)
          row.note += `; the build before answers another document here (${beforeIdentity.bytes} B): not compared`;
        else if (p.name === 'after identity' && beforeIdentity) {
          const ratio: Spread = pairedRatio(cpu('after identity'), cpu('before identity'));
          row.extra.cpu_ratio_vs_before = ratio;
          check(
            row,
            { metric: 'cpu', op: '<=', value: 1.1, text: 'identity CPU/request ≤ 1.1× the build before compression' },
            ratio,
            refusalsOf('after identity', 'before identity'),
          );
        }
      }
    }
  } finally {
    if (before) await stop(before.proc);
  }
}
