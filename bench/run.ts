// The bench harness: `bun bench/run.ts [--markdown]` (npm run bench). docs/performance.md says
// what it measures, how, and why a verdict can be refused.
//
// For each size (BENCH_SIZES=10k,100k,1m; default 10k) it takes the cached corpus (bench/corpus.ts,
// seeded once), copies it to a fresh data dir, starts `dist/svc serve` on it in its own process
// (built first when missing or older than src/), and drives every scenario over loopback with wrk
// in its own process (Lua scripts for headers, methods and bodies). Every scenario runs three
// rounds (after a warm-up) and prints p50/p99/max, req/s with the spread over the rounds (min–max),
// the server's CPU per request and the generator's CPU; a round in which the generator used ≥ 90 %
// of its cores, or in which other processes used the CPU, refuses the verdict. Cached documents are
// compared with a raw Bun.serve and Express serving the same bytes, each in its own process, in
// rotated order. Prints a table, writes bench/out/bench-<date>.json; --markdown prints the rows
// for docs/performance.md with the date, the commit and the CPU.
//
// MCP tool calls are compared with the REST route answering the same read (mcp-me, mcp-thread),
// and lab publishes of ~2 MB sites run with /healthz probed from another process (lab-publish).
//
// Env: BENCH_SIZES, BENCH_ONLY (scenario names or groups: read, cached, write, mcp, start), BENCH_SECONDS
// (per round, default 5), BENCH_WARMUP_SECONDS (2), BENCH_ROUNDS (3), BENCH_READ_CONNECTIONS (1: the
// latency of one request), BENCH_CONNECTIONS (64; also MCP vs REST), BENCH_WRITE_CONNECTIONS (64),
// BENCH_LAB_PUBLISHES (12 a round), BENCH_LAB_CONCURRENCY (4), SVC_BIN (default dist/svc). Exits 0
// when targets are missed (a measuring tool), 1 when the bench could not run, 2 when wrk is missing.
import { Database } from 'bun:sqlite';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchKey, type CorpusMeta, ensureCorpus, freshDataDir } from './corpus.ts';
import {
  fmt,
  judgeRound,
  list,
  luaCommon,
  luaRequest,
  machineBusyMicros,
  mdRow,
  pairedRatio,
  parseStatuses,
  type RoundJudgement,
  rotation,
  type Spread,
  spread,
  type Target,
  TOOL_ERROR,
  type Verdict,
  verdict,
  withSpread,
} from './harness.ts';
import { labSite } from './lab-site.ts';
import { BUN, Children, cpuMicros, lastJsonLine, listeningUrl, memoryOf, num, ROOT, runBench } from './lib.ts';
import { mcpCallBody, mcpHeaders, mcpToken, sameRead, toolOutcome } from './mcp.ts';
import { TOPIC, textGen } from './text.ts';
import { findWrk, runWrk, WRK_MISSING, type WrkResult } from './wrk.ts';

const SIZES = list(process.env.BENCH_SIZES, '10k');
const ONLY = list(process.env.BENCH_ONLY, '');
const SECONDS = num('BENCH_SECONDS', 5);
const WARMUP = num('BENCH_WARMUP_SECONDS', 2);
const ROUNDS = num('BENCH_ROUNDS', 3);
const READ_CONNECTIONS = num('BENCH_READ_CONNECTIONS', 1);
const CONNECTIONS = num('BENCH_CONNECTIONS', 64);
const WRITE_CONNECTIONS = num('BENCH_WRITE_CONNECTIONS', 64);
const MARKDOWN = process.argv.includes('--markdown');
const SERVER_ENV = {
  // The per-address read limit stays on (its cost is measured) but far above what wrk sends.
  SVC_PUBLIC_READS_PER_MINUTE: '10000000',
  SVC_POSTING_PER_DAY: '1000000',
  SVC_VOTES_PER_DAY: '1000000',
  SVC_PUBS_SUBMISSIONS_PER_DAY: '1000000',
  SVC_LOG_REQUESTS: 'off',
};
const AGENT = { 'X-Agent-Protocol': 'svc/1', Accept: 'application/json' };
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

// ---- results -----------------------------------------------------------------------------------

interface Round extends Omit<WrkResult, 'stdout'>, RoundJudgement {
  statuses: Record<string, number> | null;
  /** CPU of WrkRun.watch over the round, µs (svc taking the paced writes while a peer is measured). */
  watched_cpu_us?: number;
}

interface Row {
  size: string;
  scenario: string;
  what: string;
  server: string; // svc | raw | express
  rounds: Round[];
  rps: Spread;
  p50: Spread;
  p99: Spread;
  max: Spread;
  cpu_us: Spread;
  gen_cpu: Spread;
  other_cpu: Spread;
  non2xx: number;
  statuses: Record<string, number>;
  extra: Record<string, unknown>;
  checks: { target: string; value: string; verdict: Verdict; why: string }[];
}

const rows: Row[] = [];
const children = new Children();
const dataDirs: string[] = [];
const scriptsDir = join(tmpdir(), `svc-bench-lua-${process.pid}`);

function summarize(size: string, scenario: string, what: string, server: string, rounds: Round[], extra: Record<string, unknown> = {}): Row {
  const statuses: Record<string, number> = {};
  for (const r of rounds) for (const [k, v] of Object.entries(r.statuses ?? {})) statuses[k] = (statuses[k] ?? 0) + v;
  const row: Row = {
    size,
    scenario,
    what,
    server,
    rounds,
    rps: spread(rounds.map((r) => r.rps)),
    p50: spread(rounds.map((r) => r.p50_ms)),
    p99: spread(rounds.map((r) => r.p99_ms)),
    max: spread(rounds.map((r) => r.max_ms)),
    cpu_us: spread(rounds.map((r) => r.server_cpu_us_per_req)),
    gen_cpu: spread(rounds.map((r) => r.generator_cpu_pct)),
    other_cpu: spread(rounds.map((r) => r.other_cpu_pct)),
    non2xx: rounds.reduce((n, r) => n + r.non2xx + r.errors + r.timeouts + (r.statuses?.[TOOL_ERROR] ?? 0), 0),
    statuses,
    extra,
    checks: [],
  };
  rows.push(row);
  return row;
}

function check(row: Row, t: Target, s: Spread, refusals = row.rounds.map((r) => r.refused)): void {
  const v = verdict(t, s, refusals);
  row.checks.push({ target: t.text, value: withSpread(s), ...v });
}

// ---- processes ---------------------------------------------------------------------------------

/** dist/svc (or SVC_BIN), built with `npm run build` when missing or older than the sources. */
function svcBinary(): string {
  if (process.env.SVC_BIN) return process.env.SVC_BIN;
  const bin = join(ROOT, 'dist/svc');
  const newest = (dir: string): number =>
    readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .reduce((m, e) => Math.max(m, statSync(join(e.parentPath, e.name)).mtimeMs), 0);
  const sources = Math.max(newest('src'), newest('schema'), newest('workers'));
  if (!existsSync(bin) || statSync(bin).mtimeMs < sources) {
    process.stderr.write('· dist/svc is missing or older than src/: npm run build\n');
    const b = Bun.spawnSync([BUN, 'scripts/build.ts'], { cwd: ROOT, stdout: 'inherit', stderr: 'inherit' });
    if (b.exitCode !== 0) throw new Error('npm run build failed');
  }
  return bin;
}

async function startSvc(bin: string, dataDir: string, env: Record<string, string> = {}): Promise<{ proc: ReturnType<Children['spawn']>; url: string }> {
  const proc = children.spawn([bin, 'serve', '--port', '0', '--host', '127.0.0.1', '--data', dataDir], { ...SERVER_ENV, ...env });
  return { proc, url: await listeningUrl(proc, 'svc', 180_000) };
}

async function stop(proc: ReturnType<Children['spawn']>): Promise<void> {
  proc.kill('SIGTERM');
  await Promise.race([proc.exited, Bun.sleep(10_000).then(() => proc.kill('SIGKILL'))]);
  children.forget(proc);
}

let scriptN = 0;
function luaFile(body: string, opts: { toolErrors?: boolean } = {}): string {
  mkdirSync(scriptsDir, { recursive: true });
  const file = join(scriptsDir, `s${scriptN++}.lua`);
  writeFileSync(file, `${luaCommon(Math.floor(Math.random() * 0x7fffffff), opts)}\n${body}`);
  return file;
}

const luaString = (s: string) => JSON.stringify(s); // a JSON string is a valid Lua string literal for our text
const luaList = (xs: readonly string[]) => `{${xs.map(luaString).join(',')}}`;

/** A Lua request() for GETs with the agent headers and a key. */
const luaGet = (path: string, key: string | null) =>
  luaFile(`
local headers = { ["X-Agent-Protocol"] = "svc/1", ["Accept"] = "application/json"${key ? `, ["Authorization"] = ${luaString(`Bearer ${key}`)}` : ''} }
local path = ${luaString(path)}
request = function() return wrk.format("GET", path, headers) end
`);

interface WrkRun {
  url: string;
  pid: number;
  connections: number;
  script: string;
  helpers?: number[];
  /** A process whose CPU over the round is reported on its own (it is among the helpers too). */
  watch?: number;
}

/** One wrk round with the CPU of the server, the generator, the bench's helpers and the machine. */
async function round(o: WrkRun, seconds: number): Promise<Round> {
  const helpers0 = (o.helpers ?? []).reduce((n, p) => n + safeCpu(p), 0);
  const watched0 = o.watch === undefined ? 0 : safeCpu(o.watch);
  const server0 = cpuMicros(o.pid);
  const machine0 = machineBusyMicros();
  const { stdout, ...r } = await runWrk(children, o.url, { threads: 1, connections: o.connections, seconds, script: o.script });
  const server = cpuMicros(o.pid) - server0;
  const machine = machineBusyMicros() - machine0;
  const helpers = (o.helpers ?? []).reduce((n, p) => n + safeCpu(p), 0) - helpers0;
  const watched = o.watch === undefined ? undefined : safeCpu(o.watch) - watched0;
  const j = judgeRound({
    window_s: r.window_s,
    completed: r.completed,
    server_cpu_us: server,
    generator_cpu_pct: r.generator_cpu_pct,
    generator_threads: 1,
    helpers_cpu_us: helpers,
    machine_busy_us: machine,
  });
  return { ...r, ...j, statuses: parseStatuses(stdout), ...(watched === undefined ? {} : { watched_cpu_us: watched }) };
}

const safeCpu = (pid: number) => {
  try {
    return cpuMicros(pid);
  } catch {
    return 0;
  }
};

/** A warm-up, then ROUNDS measured rounds. */
async function rounds(o: WrkRun, label: string): Promise<Round[]> {
  process.stderr.write(`· ${label}\n`);
  await round(o, WARMUP);
  const out: Round[] = [];
  for (let i = 0; i < ROUNDS; i++) out.push(await round(o, SECONDS));
  return out;
}

// ---- scenarios ---------------------------------------------------------------------------------

interface Ctx {
  size: string;
  meta: CorpusMeta;
  url: string;
  pid: number;
  bin: string;
  file: string; // the cached corpus (read-only)
  dataDir: string;
}

const selected = (name: string, group: string) => ONLY.length === 0 || ONLY.includes(name) || ONLY.includes(group);
const key = (i: number) => benchKey(i);
const readTarget = (size: string): Target | null => (size === '1m' ? { metric: 'p99', op: '<', value: 10, text: 'p99 < 10 ms at 1M' } : null);

async function readScenario(c: Ctx, name: string, path: string, agentIndex: number | null, target: Target | null = readTarget(c.size)): Promise<Row> {
  const probe = await fetch(`${c.url}${path}`, { headers: agentIndex === null ? {} : { ...AGENT, Authorization: `Bearer ${key(agentIndex)}` } });
  const bytes = (await probe.arrayBuffer()).byteLength;
  if (probe.status !== 200) process.stderr.write(`  ! ${name}: GET ${path} answered ${probe.status}\n`);
  const script = luaGet(path, agentIndex === null ? null : key(agentIndex));
  const rs = await rounds({ url: c.url, pid: c.pid, connections: READ_CONNECTIONS, script }, `${c.size} ${name}: GET ${path}`);
  const row = summarize(c.size, name, `GET ${path.length > 60 ? `${path.slice(0, 57)}…` : path}`, 'svc', rs, { bytes, status: probe.status });
  if (target) check(row, target, row.p99);
  return row;
}

/** The next page of a search answer, from whatever link or cursor it gives. */
async function searchSecondPage(c: Ctx, q: string, agent: number): Promise<string | null> {
  const first = `/v1/search?${new URLSearchParams({ q })}`;
  const r = await fetch(`${c.url}${first}`, { headers: { ...AGENT, Authorization: `Bearer ${key(agent)}` } });
  const j = (await r.json()) as Record<string, unknown>;
  for (const k of ['next', 'next_url', 'links']) {
    const v = k === 'links' ? (j.links as Record<string, unknown> | undefined)?.next : j[k];
    if (typeof v === 'string' && v) return v.startsWith('http') ? new URL(v).pathname + new URL(v).search : v;
  }
  for (const [k, param] of [
    ['next_before', 'before'],
    ['next_cursor', 'cursor'],
    ['next_after', 'after'],
  ] as const) {
    const v = j[k];
    if (typeof v === 'string' && v) return `${first}&${param}=${encodeURIComponent(v)}`;
  }
  return null;
}

async function readScenarios(c: Ctx): Promise<void> {
  const m = c.meta;
  if (selected('pins', 'read')) await readScenario(c, 'pins', '/pins', null);
  if (selected('resume', 'read')) await readScenario(c, 'resume', '/v1/continuity', m.roles.resume);
  const searchTarget: Target | null = c.size === '1m' ? { metric: 'p99', op: '<', value: 20, text: 'common word p99 < 20 ms at 1M' } : null;
  if (selected('search-common', 'read')) await readScenario(c, 'search-common', `/v1/search?q=${TOPIC[0]}`, m.roles.resume, searchTarget);
  if (selected('search-rare', 'read')) await readScenario(c, 'search-rare', `/v1/search?q=${TOPIC[3000]}`, m.roles.resume);
  if (selected('search-page2', 'read')) {
    const next = await searchSecondPage(c, TOPIC[0]!, m.roles.resume);
    if (next) await readScenario(c, 'search-page2', next, m.roles.resume);
    else process.stderr.write('  ! search-page2: the first page gave no next link\n');
  }
  if (selected('feed', 'read')) await readScenario(c, 'feed', '/v1/posts', m.roles.resume);
  if (selected('activity', 'read')) await readScenario(c, 'activity', '/v1/activity', m.roles.resume);
  if (selected('thread', 'read')) await readScenario(c, 'thread', `/api/thread/${m.big_thread}`, null);
  if (selected('inbox', 'read')) await readScenario(c, 'inbox', '/v1/inbox', m.roles.reader);
  if (selected('me', 'read')) await readScenario(c, 'me', '/v1/me', m.roles.resume);
}

/** Recent live posts not written by agents [from, to): vote targets that are never a self-vote. */
function voteTargets(c: Ctx, from: number, to: number, n: number): string[] {
  const db = new Database(join(c.dataDir, 'svc.sqlite'), { readonly: true });
  try {
    const voters = c.meta.agent_ids.slice(from, to);
    const own = new Set(voters);
    // Not a post one of these voters already voted on: the seed's votes include -1s, and a +1 on
    // one is 409 VOTE_IMMUTABLE, which is not the write being measured.
    const voted = new Set<string>();
    const byVoter = db.query<{ target_id: string }, [string]>('SELECT target_id FROM votes WHERE voter_id = ?');
    for (const v of voters) for (const r of byVoter.all(v)) voted.add(r.target_id);
    const rowsOut = db
      .query<{ id: string; author_id: string; prefix: string | null }, [number]>(
        "SELECT id, author_id, prefix FROM posts WHERE deleted_at IS NULL AND kind = 'post' ORDER BY seq DESC LIMIT ?",
      )
      .all(n * 2 + voted.size);
    return rowsOut
      .filter((r) => !own.has(r.author_id) && !voted.has(r.id))
      .map((r) => r.id)
      .slice(0, n);
  } finally {
    db.close();
  }
}

interface Peer {
  name: string;
  url: string;
  pid: number;
}

async function cachedScenarios(c: Ctx): Promise<void> {
  const docs = [
    { name: 'doc-pubs-feed', path: '/api/pubs/feed', about: '~4.7 KB' },
    { name: 'doc-leaderboard', path: '/api/leaderboard', about: '~17 KB' },
    { name: 'doc-activity', path: '/api/activity', about: '~65 KB' },
  ].filter((d) => selected(d.name, 'cached'));
  if (!docs.length) return;
  const writeRates = list(process.env.BENCH_WRITE_RATES, '0,10,100').map(Number);
  const threads = c.meta.recent_roots.slice(-200);
  const targets = voteTargets(c, c.meta.roles.writers[0], c.meta.roles.writers[1], 2000);
  for (const d of docs) {
    const first = await fetch(`${c.url}${d.path}`);
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
      const same = Buffer.from(await (await fetch(`${p.url}${d.path}`)).arrayBuffer());
      if (!same.equals(body)) throw new Error(`${p.name} does not answer the bytes svc served for ${d.path}`);
    }
    const script = luaGet(d.path, null);
    for (const rate of writeRates) {
      const writer =
        rate > 0
          ? children.spawn([
              BUN,
              join(ROOT, 'bench/writer.ts'),
              'paced',
              JSON.stringify({
                url: c.url,
                rate,
                keys: c.meta.agent_ids.slice(c.meta.roles.writers[0], c.meta.roles.writers[1]).map((_, i) => key(c.meta.roles.writers[0] + i)),
                threads,
                voteTargets: targets,
              }),
            ])
          : null;
      const byPeer = new Map<string, Round[]>(peers.map((p) => [p.name, []]));
      process.stderr.write(`· ${c.size} ${d.name} ${rate ? `under ${rate} writes/s` : 'idle'}: svc, raw, express in rotated order\n`);
      for (const p of peers) await round({ url: p.url, pid: p.pid, connections: CONNECTIONS, script }, WARMUP);
      for (let r = 0; r < ROUNDS; r++) {
        for (const p of rotation(peers, r)) {
          // While a peer is measured, svc (taking the writes) and the writer are the bench's own CPU.
          const helpers = [...(writer ? [writer.pid] : []), ...(p.name === 'svc' ? [] : [c.pid])];
          const watch = p.name === 'svc' ? undefined : c.pid; // svc's CPU for the writes alone
          byPeer.get(p.name)!.push(await round({ url: p.url, pid: p.pid, connections: CONNECTIONS, script, helpers, ...(watch ? { watch } : {}) }, SECONDS));
        }
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
      const peerRounds = [...rawRounds, ...byPeer.get('express')!];
      const writesUsPerS = writer ? spread(peerRounds.map((x) => (x.watched_cpu_us ?? 0) / x.window_s)).median : 0;
      const readUsPerReq = (x: Round) => Math.max(0, x.server_cpu_us_per_req * x.completed - writesUsPerS * x.window_s) / Math.max(1, x.completed);
      const cpuRatio = spread(svcRounds.map((s, i) => readUsPerReq(s) / rawRounds[i]!.server_cpu_us_per_req));
      const refusals = [...svcRounds, ...rawRounds].map((x) => x.refused);
      const what = `GET ${d.path} (${(body.length / 1024).toFixed(1)} KB) ${cond}`;
      const svcRow = summarize(c.size, d.name, what, 'svc', svcRounds, {
        bytes: body.length,
        writes,
        rate,
        pct_of_raw: ratio,
        cpu_ratio_vs_raw: cpuRatio,
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
      check(svcRow, { metric: 'cpu', op: '<=', value: 1.2, text: 'svc CPU/request ≤ 1.2× raw' }, cpuRatio, refusals);
    }
    await stop(raw);
    await stop(express);
  }
}

// ---- MCP tool calls vs REST -------------------------------------------------------------------

/**
 * The same read by the same agent, over REST (GET with the board key) and as an MCP tool call
 * (POST /mcp, tools/call, the agent's OAuth token), at CONNECTIONS (64) connections: the figure is
 * throughput (how many calls a busy server answers), which is what a per-call overhead costs; at
 * one connection it would be latency, mostly the round trip. REST and MCP rounds alternate in
 * rotated order (REST, MCP / MCP, REST / …); each MCP answer's body is checked by the Lua script,
 * so a 200 carrying a tool error or a JSON-RPC error counts as an error, never as a call.
 */
async function mcpScenarios(c: Ctx): Promise<void> {
  const thread = c.meta.recent_roots.at(-1)!;
  const reads = [
    { name: 'mcp-me', tool: 'get_my_account', args: {}, path: '/v1/me' },
    { name: 'mcp-thread', tool: 'read_thread', args: { id: thread }, path: `/v1/posts/${thread}` },
  ].filter((d) => selected(d.name, 'mcp'));
  if (!reads.length) return;
  const agent = c.meta.roles.resume;
  const token = await mcpToken(c.url, key(agent));
  const restHeaders = { ...AGENT, Authorization: `Bearer ${key(agent)}` };
  for (const d of reads) {
    const body = mcpCallBody(d.tool, d.args);
    // Once before measuring: the tool answers a real result, the same the route answers.
    const rest = await fetch(`${c.url}${d.path}`, { headers: restHeaders });
    const restText = await rest.text();
    const mcp = await fetch(`${c.url}/mcp`, { method: 'POST', headers: mcpHeaders(token), body });
    const mcpText = await mcp.text();
    const outcome = toolOutcome(mcp.status, mcpText);
    if (rest.status !== 200 || !outcome.ok) {
      process.stderr.write(`  ! ${d.name}: REST ${rest.status}, MCP ${outcome.ok ? 'ok' : outcome.why}: not measured\n`);
      continue;
    }
    if (!sameRead(outcome.structured, JSON.parse(restText))) {
      process.stderr.write(`  ! ${d.name}: the tool's result is not the read GET ${d.path} answers: not measured\n`);
      continue;
    }
    const peers = [
      { name: 'REST', script: luaFile(luaRequest('GET', d.path, restHeaders)) },
      { name: 'MCP', script: luaFile(luaRequest('POST', '/mcp', mcpHeaders(token), body), { toolErrors: true }) },
    ];
    const byPeer = new Map<string, Round[]>(peers.map((p) => [p.name, []]));
    process.stderr.write(`· ${c.size} ${d.name}: GET ${d.path} vs tools/call ${d.tool}, ${CONNECTIONS} connections, rotated\n`);
    for (const p of peers) await round({ url: c.url, pid: c.pid, connections: CONNECTIONS, script: p.script }, WARMUP);
    for (let r = 0; r < ROUNDS; r++) {
      for (const p of rotation(peers, r)) {
        const x = await round({ url: c.url, pid: c.pid, connections: CONNECTIONS, script: p.script }, SECONDS);
        const errors = x.non2xx + x.errors + x.timeouts + (x.statuses?.[TOOL_ERROR] ?? 0);
        // A round with errors among its answers measured the errors: no verdict on it.
        if (errors > 0) x.refused = [x.refused, `${errors} answers were errors`].filter(Boolean).join('; ');
        byPeer.get(p.name)!.push(x);
      }
      const a = byPeer.get('MCP')![r]!;
      const b = byPeer.get('REST')![r]!;
      process.stderr.write(
        `  round ${r + 1}: REST ${b.rps.toFixed(0)}/s, MCP ${a.rps.toFixed(0)}/s = ${((a.rps / b.rps) * 100).toFixed(0)} %; CPU per call MCP ${a.server_cpu_us_per_req.toFixed(0)} µs ÷ REST ${b.server_cpu_us_per_req.toFixed(0)} µs = ${(a.server_cpu_us_per_req / b.server_cpu_us_per_req).toFixed(2)}×\n`,
      );
    }
    const restRounds = byPeer.get('REST')!;
    const mcpRounds = byPeer.get('MCP')!;
    const ratio = pairedRatio(
      mcpRounds.map((x) => x.rps),
      restRounds.map((x) => x.rps),
    );
    const cpuRatio = pairedRatio(
      mcpRounds.map((x) => x.server_cpu_us_per_req),
      restRounds.map((x) => x.server_cpu_us_per_req),
    );
    const what = `${d.tool}: GET ${d.path.length > 40 ? `${d.path.slice(0, 37)}…` : d.path} vs tools/call (${(restText.length / 1024).toFixed(1)} KB / ${(mcpText.length / 1024).toFixed(1)} KB)`;
    summarize(c.size, d.name, what, 'REST', restRounds, { bytes: restText.length });
    const row = summarize(c.size, d.name, what, 'MCP', mcpRounds, {
      bytes: mcpText.length,
      pct_of_rest: ratio,
      pct_of_rest_by_round: mcpRounds.map((x, i) => x.rps / restRounds[i]!.rps),
      cpu_ratio_vs_rest: cpuRatio,
    });
    const refusals = [...restRounds, ...mcpRounds].map((x) => x.refused);
    check(row, { metric: 'pct', op: '>=', value: 0.7, text: 'MCP req/s ≥ 70 % of REST (same read, same agent)' }, ratio, refusals);
    // The same target counted in CPU (the server is the bottleneck in both): 70 % of the calls for the same CPU is ≤ 1/0.7 of REST's CPU a call.
    check(row, { metric: 'cpu', op: '<=', value: 1.43, text: 'MCP CPU/call ≤ 1.43× REST (the same 70 %, counted in CPU)' }, cpuRatio, refusals);
  }
}

async function writeScenarios(c: Ctx): Promise<void> {
  const m = c.meta;
  const writers = Array.from({ length: m.roles.writers[1] - m.roles.writers[0] }, (_, i) => key(m.roles.writers[0] + i)).slice(0, WRITE_CONNECTIONS);
  const tg = textGen(99);
  // Board posts: general and svc-1m only (svc-show takes the Show lane's format, not a board post).
  const titles = Array.from({ length: 400 }, () => `Result: ${tg.topicWord()} ${tg.topicWord()} measured`);
  const bodies = Array.from({ length: 400 }, () => tg.body());
  const authHeader = `"Bearer " .. keys[(n % #keys) + 1]`;
  // JSON-encoded strings embedded as Lua strings: the request body splices them in as they are.
  const jsonList = (xs: readonly string[]) => luaList(xs.map((x) => JSON.stringify(x)));
  const postScript = luaFile(`
local keys = ${luaList(writers)}
local titles = ${jsonList(titles)}
local bodies = ${jsonList(bodies)}
local topics = {"general", "svc-1m"}
local n = 0
request = function()
  n = n + 1
  local body = '{"topic":"' .. topics[(n % 2) + 1] .. '","title":' .. titles[(n % #titles) + 1] .. ',"body":' .. bodies[(n % #bodies) + 1] .. '}'
  return wrk.format("POST", "/v1/posts", { ["X-Agent-Protocol"] = "svc/1", ["Accept"] = "application/json", ["Content-Type"] = "application/json", ["Authorization"] = ${authHeader}, ["Idempotency-Key"] = uuid() }, body)
end
`);
  if (selected('write-posts', 'write')) {
    const rs = await rounds(
      { url: c.url, pid: c.pid, connections: WRITE_CONNECTIONS, script: postScript },
      `${c.size} write-posts: POST /v1/posts, ${writers.length} agents`,
    );
    const row = summarize(c.size, 'write-posts', `POST /v1/posts, ${writers.length} agents`, 'svc', rs);
    check(row, { metric: 'ok/s', op: '>=', value: 2500, text: 'posts ≥ 2,500/s, every answer 2xx' }, okPerS(rs), refusalsWithNon2xx(rs));
  }
  if (selected('write-replies', 'write')) {
    const threads = m.recent_roots.slice(-500);
    const script = luaFile(`
local keys = ${luaList(writers)}
local threads = ${luaList(threads)}
local bodies = ${jsonList(bodies)}
local n = 0
request = function()
  n = n + 1
  return wrk.format("POST", "/v1/posts/" .. threads[(n % #threads) + 1] .. "/replies", { ["X-Agent-Protocol"] = "svc/1", ["Accept"] = "application/json", ["Content-Type"] = "application/json", ["Authorization"] = ${authHeader}, ["Idempotency-Key"] = uuid() }, '{"body":' .. bodies[(n % #bodies) + 1] .. '}')
end
`);
    const rs = await rounds({ url: c.url, pid: c.pid, connections: WRITE_CONNECTIONS, script }, `${c.size} write-replies`);
    summarize(c.size, 'write-replies', `POST /v1/posts/{id}/replies, ${writers.length} agents`, 'svc', rs);
  }
  const [v0, v1] = m.roles.voters;
  const voters = Array.from({ length: v1 - v0 }, (_, i) => key(v0 + i));
  const targets = voteTargets(c, v0, v1, 4000);
  // Each voter walks the targets in its own order from `offset`: no vote repeats within a run.
  const voteScript = (offset: number) =>
    luaFile(`
local keys = ${luaList(voters)}
local targets = ${luaList(targets)}
local n = ${offset}
request = function()
  n = n + 1
  local k = n % #keys
  local t = (math.floor(n / #keys) + k * 61) % #targets
  return wrk.format("POST", "/votes", { ["X-Agent-Protocol"] = "svc/1", ["Accept"] = "application/json", ["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. keys[k + 1], ["Idempotency-Key"] = uuid() }, '{"target_id":"' .. targets[t + 1] .. '","value":1}')
end
`);
  if (selected('write-votes', 'write')) {
    process.stderr.write(`· ${c.size} write-votes: ${voters.length} voters, windows of ${SECONDS} s\n`);
    // Successive windows continue where the last stopped (offset), so votes/s over time shows growth.
    const windows = num('BENCH_VOTE_WINDOWS', 6);
    const rs: Round[] = [];
    let offset = 0;
    for (let w = 0; w < windows; w++) {
      const r = await round({ url: c.url, pid: c.pid, connections: Math.min(WRITE_CONNECTIONS, voters.length), script: voteScript(offset) }, SECONDS);
      offset += r.completed + 1000;
      rs.push(r);
    }
    const row = summarize(c.size, 'write-votes', `POST /votes, ${voters.length} heavy voters, ${windows} windows`, 'svc', rs, {
      votes_per_s_by_window: rs.map((r) => Math.round(okOf(r) / r.window_s)),
      cpu_us_per_vote_by_window: rs.map((r) => Math.round(r.server_cpu_us_per_req)),
    });
    check(row, { metric: 'ok/s', op: '>=', value: 3000, text: 'votes ≥ 3,000/s, every answer 2xx' }, okPerS(rs), refusalsWithNon2xx(rs));
    const first = rs[0]!.server_cpu_us_per_req;
    check(
      row,
      { metric: 'growth', op: '<=', value: 1.25, text: 'vote CPU flat: last window ≤ 1.25× the first' },
      spread([rs.at(-1)!.server_cpu_us_per_req / first]),
      rs.map((r) => r.refused),
    );
  }
}

const okOf = (r: Round) => (r.statuses ? Object.entries(r.statuses).reduce((n, [k, v]) => n + (k.startsWith('2') ? v : 0), 0) : r.ok);
const okPerS = (rs: Round[]) => spread(rs.map((r) => okOf(r) / r.window_s));
const refusalsWithNon2xx = (rs: Round[]) => rs.map((r) => r.refused);

async function submitScenario(c: Ctx): Promise<void> {
  if (!selected('submit', 'write')) return;
  const [s0, s1] = c.meta.roles.submitters;
  const keys = Array.from({ length: s1 - s0 }, (_, i) => key(s0 + i));
  process.stderr.write(`· ${c.size} submit: articles with two 60 KB SVGs, 4 at a time, /healthz probed\n`);
  const results: {
    submit: { p50_ms: number; p99_ms: number; max_ms: number; statuses: Record<string, number>; submissions: number };
    healthz: { requests: number; p50_ms: number; p99_ms: number; max_ms: number };
    cpu_us: number;
  }[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const probe = children.spawn([BUN, join(ROOT, 'bench/writer.ts'), 'probe', `${c.url}/healthz`]);
    const cpu0 = cpuMicros(c.pid);
    const sub = children.spawn([
      BUN,
      join(ROOT, 'bench/writer.ts'),
      'submit',
      JSON.stringify({ url: c.url, keys, concurrency: 4, count: num('BENCH_SUBMISSIONS', 24) }),
    ]);
    const out = await new Response(sub.stdout).text();
    await sub.exited;
    children.forget(sub);
    const cpu = cpuMicros(c.pid) - cpu0;
    probe.kill('SIGTERM');
    const healthz = lastJsonLine<{ requests: number; p50_ms: number; p99_ms: number; max_ms: number }>(await new Response(probe.stdout).text());
    await probe.exited;
    children.forget(probe);
    results.push({ submit: lastJsonLine(out), healthz, cpu_us: cpu });
  }
  const fake = (x: (typeof results)[number]): Round =>
    ({
      rps: 0,
      completed: x.submit.submissions,
      ok: x.submit.statuses['202'] ?? 0,
      non2xx: x.submit.submissions - (x.submit.statuses['202'] ?? 0),
      errors: 0,
      timeouts: 0,
      p50_ms: x.submit.p50_ms,
      p99_ms: x.submit.p99_ms,
      max_ms: x.submit.max_ms,
      window_s: 0,
      threads: 4,
      connections: 4,
      generator_cpu_pct: Number.NaN,
      generator_saturated: false,
      server_cpu_pct: Number.NaN,
      server_cpu_us_per_req: x.cpu_us / Math.max(1, x.submit.submissions),
      other_cpu_pct: Number.NaN,
      refused: null,
      statuses: x.submit.statuses,
    }) satisfies Round;
  const row = summarize(c.size, 'submit', 'POST /v1/pubs/posts (~150 KB, two 60 KB SVGs), 4 submitters', 'svc', results.map(fake), {
    healthz_max_ms: spread(results.map((x) => x.healthz.max_ms)),
    healthz_p99_ms: spread(results.map((x) => x.healthz.p99_ms)),
  });
  check(row, { metric: 'p99', op: '<', value: 150, text: 'article submit p99 < 150 ms' }, row.p99);
}

/** The lab agents: keyed agents no other scenario uses, each allowed on the lab and publishing to its own slug. */
const LAB_AGENTS: [number, number] = [300, 316];

/**
 * Agents publish ~2 MB lab sites (bench/lab-site.ts: html, css, js, json and four PNGs, every
 * publish different from the last) while another process GETs /healthz every 5 ms: the publishes'
 * p50/p99, how many, and /healthz p99 and max (the loop's longest stall). Each publish replaces
 * the agent's site (after the first), so the server scans and stores every byte of every one.
 */
async function labPublishScenario(c: Ctx): Promise<void> {
  if (!selected('lab-publish', 'write')) return;
  const [l0, l1] = LAB_AGENTS;
  const idx = Array.from({ length: l1 - l0 }, (_, i) => l0 + i);
  for (const i of idx) {
    const r = Bun.spawnSync([c.bin, 'admin', 'lab', 'allow', c.meta.agent_names[i]!, '--data', c.dataDir], { env: { ...process.env, ...SERVER_ENV } });
    if (r.exitCode !== 0) throw new Error(`svc admin lab allow ${c.meta.agent_names[i]}: ${r.stdout}${r.stderr}`);
  }
  const keys = idx.map(key);
  const slugs = idx.map((i) => `bench-run-${i}`);
  const concurrency = num('BENCH_LAB_CONCURRENCY', 4);
  const count = num('BENCH_LAB_PUBLISHES', 12);
  // 20 publishes per agent per UTC day (src/lab/pages/quota.ts): more would measure LAB_QUOTA refusals.
  if (keys.length + count * ROUNDS > keys.length * 20)
    throw new Error(`BENCH_LAB_PUBLISHES=${count}: ${keys.length} lab agents publish at most ${keys.length * 20} times a day`);
  mkdirSync(scriptsDir, { recursive: true });
  let n = 0;
  const build = (k: number) =>
    Array.from({ length: k }, () => {
      const file = join(scriptsDir, `lab-${n}.json`);
      writeFileSync(file, JSON.stringify(labSite(n++)));
      return file;
    });
  // Once before measuring (and every agent's first publish, a create): each answers 201.
  const firsts = build(keys.length);
  const check0 = children.spawn([BUN, join(ROOT, 'bench/writer.ts'), 'lab', JSON.stringify({ url: c.url, keys, slugs, concurrency, files: firsts })]);
  const first = lastJsonLine<{ statuses: Record<string, number>; codes: Record<string, number> }>(await new Response(check0.stdout).text());
  await check0.exited;
  children.forget(check0);
  for (const f of firsts) rmSync(f, { force: true });
  if ((first.statuses['201'] ?? 0) !== keys.length) {
    process.stderr.write(`  ! lab-publish: the first publishes answered ${JSON.stringify(first)}: not measured\n`);
    return;
  }
  process.stderr.write(
    `· ${c.size} lab-publish: ${count} publishes of ~2 MB a round, ${concurrency} at a time by ${keys.length} agents, /healthz probed every 5 ms\n`,
  );
  type LabOut = {
    publishes: number;
    seconds: number;
    body_bytes: number;
    statuses: Record<string, number>;
    codes: Record<string, number>;
    p50_ms: number;
    p99_ms: number;
    max_ms: number;
  };
  type Probe = { requests: number; p50_ms: number; p99_ms: number; max_ms: number };
  const results: { lab: LabOut; healthz: Probe; cpu_us: number; machine_us: number; helpers_us: number; window_s: number }[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const files = build(count); // built before the round: the writer only sends
    const probe = children.spawn([BUN, join(ROOT, 'bench/writer.ts'), 'probe', `${c.url}/healthz`]);
    const cpu0 = cpuMicros(c.pid);
    const machine0 = machineBusyMicros();
    const probe0 = safeCpu(probe.pid);
    const t0 = performance.now();
    const writer = children.spawn([BUN, join(ROOT, 'bench/writer.ts'), 'lab', JSON.stringify({ url: c.url, keys, slugs, concurrency, files })]);
    const out = await new Response(writer.stdout).text();
    await writer.exited;
    const usage = writer.resourceUsage();
    const helpers = safeCpu(probe.pid) - probe0 + (usage ? Number(usage.cpuTime.user) + Number(usage.cpuTime.system) : 0);
    children.forget(writer);
    const window_s = (performance.now() - t0) / 1000;
    const cpu = cpuMicros(c.pid) - cpu0;
    const machine = machineBusyMicros() - machine0;
    probe.kill('SIGTERM');
    const healthz = lastJsonLine<Probe>(await new Response(probe.stdout).text());
    await probe.exited;
    children.forget(probe);
    results.push({ lab: lastJsonLine(out), healthz, cpu_us: cpu, machine_us: machine, helpers_us: helpers, window_s });
    for (const f of files) rmSync(f, { force: true }); // 2.7 MB each
    process.stderr.write(
      `  round ${r + 1}: ${results.at(-1)!.lab.publishes} publishes, p99 ${results.at(-1)!.lab.p99_ms} ms; /healthz ${healthz.requests} probes, p99 ${healthz.p99_ms} ms, max ${healthz.max_ms} ms\n`,
    );
  }
  const asRound = (x: (typeof results)[number]): Round => {
    const ok = Object.entries(x.lab.statuses).reduce((s, [k, v]) => s + (k.startsWith('2') ? v : 0), 0);
    const j = judgeRound({
      window_s: x.window_s,
      completed: x.lab.publishes,
      server_cpu_us: x.cpu_us,
      generator_cpu_pct: 0, // the writer and the prober are the bench's helpers
      generator_threads: 1,
      helpers_cpu_us: x.helpers_us,
      machine_busy_us: x.machine_us,
    });
    return {
      rps: x.lab.publishes / x.window_s,
      completed: x.lab.publishes,
      ok,
      non2xx: x.lab.publishes - ok,
      errors: 0,
      timeouts: 0,
      p50_ms: x.lab.p50_ms,
      p99_ms: x.lab.p99_ms,
      max_ms: x.lab.max_ms,
      window_s: x.window_s,
      threads: concurrency,
      connections: concurrency,
      generator_cpu_pct: Number.NaN,
      generator_saturated: false,
      ...j,
      statuses: x.lab.statuses,
    } satisfies Round;
  };
  const rs = results.map(asRound);
  const row = summarize(c.size, 'lab-publish', `PUT /v1/lab/pages/{slug} (~2 MB decoded, 9 files), ${concurrency} publishers; /healthz every 5 ms`, 'svc', rs, {
    publishes: results.map((x) => x.lab.publishes),
    codes: results.map((x) => x.lab.codes),
    body_mb: results.map((x) => x.lab.body_bytes / 1e6),
    healthz_requests: results.map((x) => x.healthz.requests),
    healthz_p99_ms: spread(results.map((x) => x.healthz.p99_ms)),
    healthz_max_ms: spread(results.map((x) => x.healthz.max_ms)),
  });
  check(
    row,
    { metric: 'healthz max', op: '<', value: 50, text: '/healthz max < 50 ms during 2 MB lab publishes' },
    spread(results.map((x) => x.healthz.max_ms)),
  );
}

async function startScenarios(size: string, file: string, bin: string): Promise<void> {
  if (!selected('start', 'start')) return;
  const n = num('BENCH_STARTS', 5);
  const times: number[] = [];
  const rss: number[] = [];
  process.stderr.write(`· ${size} start: spawn → first 200 on /healthz, ${n} times; idle RSS 2 s later\n`);
  for (let i = 0; i < n; i++) {
    const dir = freshDataDir(file, `${size}-start`);
    dataDirs.push(dir);
    const port = 20000 + Math.floor(Math.random() * 20000);
    const t0 = performance.now();
    const proc = children.spawn([bin, 'serve', '--port', String(port), '--host', '127.0.0.1', '--data', dir], SERVER_ENV);
    void new Response(proc.stdout).text();
    void new Response(proc.stderr).text();
    for (;;) {
      const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ok) break;
      if (proc.exitCode !== null) throw new Error('svc exited while starting');
      if (performance.now() - t0 > 120_000) throw new Error('svc did not answer /healthz within 120 s');
      await Bun.sleep(2);
    }
    times.push(performance.now() - t0);
    await Bun.sleep(2000);
    rss.push(memoryOf(proc.pid).rss_mb);
    await stop(proc);
    rmSync(dir, { recursive: true, force: true });
  }
  const mk = (ms: number): Round =>
    ({
      rps: 0,
      completed: 1,
      ok: 1,
      non2xx: 0,
      errors: 0,
      timeouts: 0,
      p50_ms: ms,
      p99_ms: ms,
      max_ms: ms,
      window_s: 0,
      threads: 0,
      connections: 0,
      generator_cpu_pct: Number.NaN,
      generator_saturated: false,
      server_cpu_pct: Number.NaN,
      server_cpu_us_per_req: Number.NaN,
      other_cpu_pct: Number.NaN,
      refused: null,
      statuses: null,
    }) satisfies Round;
  const row = summarize(size, 'start', `cold start (spawn → first 200 on /healthz), idle RSS; ${n} starts`, 'svc', times.map(mk), {
    start_ms: spread(times),
    idle_rss_mb: spread(rss),
  });
  check(
    row,
    { metric: 'ms', op: '<', value: 120, text: 'cold start < 120 ms (median)' },
    { ...spread(times), max: spread(times).median, min: spread(times).median },
  );
  check(row, { metric: 'MB', op: '<', value: 70, text: 'idle RSS < 70 MB' }, spread(rss));
}

// ---- output ------------------------------------------------------------------------------------

function machine() {
  const cpu = cpus()[0]?.model ?? 'unknown';
  const commit = Bun.spawnSync(['git', 'rev-parse', '--short', 'HEAD'], { cwd: ROOT }).stdout.toString().trim() || 'unknown';
  const dirty = Bun.spawnSync(['git', 'status', '--porcelain', 'src', 'schema'], { cwd: ROOT }).stdout.toString().trim() !== '';
  return { date: new Date().toISOString().slice(0, 10), commit: dirty ? `${commit}+changes` : commit, cpu, cores: cpus().length, bun: Bun.version };
}

const HEAD = ['size', 'scenario', 'server', 'req/s (min–max)', 'p50 ms', 'p99 ms (min–max)', 'max ms', 'srv µs/req', 'gen CPU %', 'other CPU %', 'non-2xx'];
function cells(r: Row): string[] {
  const ratio = (r.extra.pct_of_raw ?? r.extra.pct_of_rest) as Spread | undefined;
  const of = r.extra.pct_of_raw ? 'raw' : 'REST';
  const cpu = r.extra.cpu_ratio_vs_rest as Spread | undefined;
  const hz = r.extra.healthz_max_ms as Spread | undefined;
  const hz99 = r.extra.healthz_p99_ms as Spread | undefined;
  const count = r.rounds.reduce((n, x) => n + x.completed, 0);
  const probed = hz && hz99 ? ` (${count} in all; /healthz p99 ${withSpread(hz99)} ms, max ${withSpread(hz)} ms)` : '';
  return [
    r.size,
    `${r.scenario}: ${r.what}`,
    r.server +
      (ratio
        ? ` (${withSpread({ median: ratio.median * 100, min: ratio.min * 100, max: ratio.max * 100 }, 0)} % of ${of}${cpu ? `, ${withSpread(cpu)}× its CPU/req` : ''})`
        : '') +
      probed,
    withSpread(r.rps, 0),
    fmt(r.p50.median),
    withSpread(r.p99),
    fmt(r.max.max),
    withSpread(r.cpu_us, 1),
    fmt(r.gen_cpu.max, 0),
    fmt(r.other_cpu.max, 0),
    r.non2xx ? `${r.non2xx} ${JSON.stringify(Object.fromEntries(Object.entries(r.statuses).filter(([k]) => !k.startsWith('2'))))}` : '0',
  ];
}

function report(started: string): void {
  const m = machine();
  const checks = rows.flatMap((r) => r.checks.map((c) => ({ size: r.size, scenario: r.scenario, what: r.what, ...c })));
  mkdirSync(join(ROOT, 'bench/out'), { recursive: true });
  const out = join(ROOT, `bench/out/bench-${started}.json`);
  writeFileSync(
    out,
    `${JSON.stringify({ machine: m, settings: { SIZES, ONLY, SECONDS, WARMUP, ROUNDS, READ_CONNECTIONS, CONNECTIONS, WRITE_CONNECTIONS }, rows, checks }, null, 1)}\n`,
  );
  if (MARKDOWN) {
    console.log(
      `Measured ${m.date} at ${m.commit} on ${m.cores} × ${m.cpu} (server and wrk share it), bun ${m.bun}: \`BENCH_SIZES=${SIZES.join(',')} bun bench/run.ts --markdown\`, ${ROUNDS} rounds of ${SECONDS} s.\n`,
    );
    console.log(mdRow(HEAD));
    console.log(mdRow(HEAD.map(() => '---')));
    for (const r of rows) console.log(mdRow(cells(r)));
    console.log(`\n${mdRow(['size', 'scenario', 'target', 'figure', 'verdict'])}`);
    console.log(mdRow(['---', '---', '---', '---', '---']));
    for (const c of checks) console.log(mdRow([c.size, `${c.scenario}: ${c.what}`, c.target, c.value, c.verdict + (c.why ? `: ${c.why}` : '')]));
  } else {
    const widths = HEAD.map((h, i) => Math.max(h.length, ...rows.map((r) => cells(r)[i]!.length)));
    const line = (cs: string[]) => cs.map((c, i) => c.padEnd(Math.min(widths[i]!, 70))).join('  ');
    console.log(
      `\nsvc bench — ${m.date}, ${m.commit}, ${m.cores} × ${m.cpu}, bun ${m.bun}; ${ROUNDS} rounds × ${SECONDS} s after ${WARMUP} s warm-up; wrk -t1 (reads -c${READ_CONNECTIONS}, documents -c${CONNECTIONS}, writes -c${WRITE_CONNECTIONS})\n`,
    );
    console.log(line(HEAD));
    for (const r of rows) console.log(line(cells(r)));
    console.log('');
    for (const c of checks)
      console.log(`${c.size.padEnd(5)} ${`${c.scenario}: ${c.target}`.padEnd(60)} ${c.value.padEnd(24)} ${c.verdict}${c.why ? ` (${c.why})` : ''}`);
    const reads = rows.filter((r) => r.server === 'svc' && r.checks.length === 0 && r.rounds.length && r.p99.median > 0);
    for (const r of reads.filter((x) => x.size === '1m')) {
      const small = rows.find((x) => x.size === '10k' && x.scenario === r.scenario && x.server === 'svc');
      if (small)
        console.log(`1m vs 10k ${r.scenario}: p99 ${fmt(r.p99.median)} / ${fmt(small.p99.median)} ms = ${fmt(r.p99.median / small.p99.median)}× (target ≤ 2×)`);
    }
  }
  process.stderr.write(`· figures saved to ${out}\n`);
}

// ---- main --------------------------------------------------------------------------------------

async function cleanup(): Promise<void> {
  await children.stopAll();
  for (const d of dataDirs) rmSync(d, { recursive: true, force: true });
  rmSync(scriptsDir, { recursive: true, force: true });
}

async function main(): Promise<number> {
  const started = new Date().toISOString().slice(0, 16).replace(':', '');
  const bin = svcBinary();
  for (const size of SIZES) {
    const { file, meta, seeded } = await ensureCorpus(size, bin);
    process.stderr.write(
      `· ${size} corpus ${seeded ? `seeded in ${meta.seed_seconds.total} s` : `cached (seeded ${((Date.now() - meta.seeded_at) / 3_600_000).toFixed(1)} h ago)`}: ${file}\n`,
    );
    const groups: [string, (c: Ctx) => Promise<void>][] = [
      ['read', readScenarios],
      ['cached', cachedScenarios],
      [
        'write',
        async (c) => {
          await writeScenarios(c);
          await submitScenario(c);
          await labPublishScenario(c);
        },
      ],
      ['mcp', mcpScenarios],
    ];
    for (const [group, run] of groups) {
      if (ONLY.length && !ONLY.some((o) => scenarioGroup(o) === group)) continue;
      // Each group on its own fresh copy: the writes of one never reach the reads of another.
      const dataDir = freshDataDir(file, size);
      dataDirs.push(dataDir);
      const svc = await startSvc(bin, dataDir);
      await run({ size, meta, url: svc.url, pid: svc.proc.pid, bin, file, dataDir });
      await stop(svc.proc);
      rmSync(dataDir, { recursive: true, force: true });
    }
    await startScenarios(size, file, bin);
  }
  report(started);
  await cleanup(); // the Lua scripts and bodies in scriptsDir (runBench cleans up only on failure or a signal)
  return 0;
}

const GROUPS: Record<string, string[]> = {
  read: ['pins', 'resume', 'search-common', 'search-rare', 'search-page2', 'feed', 'activity', 'thread', 'inbox', 'me'],
  cached: ['doc-pubs-feed', 'doc-leaderboard', 'doc-activity'],
  write: ['write-posts', 'write-replies', 'write-votes', 'submit', 'lab-publish'],
  mcp: ['mcp-me', 'mcp-thread'],
  start: ['start'],
};
const scenarioGroup = (name: string) => Object.entries(GROUPS).find(([g, names]) => g === name || names.includes(name))?.[0] ?? null;

if (!findWrk()) {
  console.error(WRK_MISSING);
  process.exit(2);
}
for (const o of ONLY)
  if (!scenarioGroup(o))
    throw new Error(`BENCH_ONLY: unknown scenario "${o}": one of ${Object.values(GROUPS).flat().join(', ')} or a group (${Object.keys(GROUPS).join(', ')})`);
runBench(main, cleanup, { limitMs: 4 * 60 * 60_000 });
