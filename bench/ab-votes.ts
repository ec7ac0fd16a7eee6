// Two builds side by side on votes: `node_modules/.bin/bun bench/ab-votes.ts BIN_A BIN_B`
// (AB_SIZE=1m|10k, AB_WHO=old|heavy, AB_SECONDS=5). Both servers run at once, each on a fresh copy
// of the cached corpus, and their 5 s rounds alternate A B B A A B … (12 rounds after a 2 s warm-up
// each), so the machine's drift (a fifth within an hour here) falls on both alike; each round
// continues its server's walk of the targets, so every vote is new (as bench/run/writes.ts
// voteRounds). Prints each round (votes a second, CPU a vote on the request thread and in all, KB
// the server wrote to the disk and read from it a vote from /proc/<pid>/io — a read from the device
// is a page the kernel's page cache no longer held — and why a round would be refused) and the
// medians. `old`: the writers on 4,000 posts spread over the board (write-votes-old); `heavy`: the
// heavy voters on the newest posts (write-votes). BIN_A and BIN_B may be scripts that exec a build
// with settings in its environment.
import { readFileSync, rmSync } from 'node:fs';
import { cachedCorpus, freshDataDir } from './corpus.ts';
import { children, okOf, round, scriptsDir, startSvc, stop, voteTargets } from './run/context.ts';
import { VOTE_SLACK, voterKeys, voteScript, writerKeys } from './run/writes.ts';

/** Bytes the process has caused to be written to storage, and read from it (not from the page cache), so far. */
const ioOf = (pid: number, field: 'write_bytes' | 'read_bytes') => Number(new RegExp(`${field}: (\\d+)`).exec(readFileSync(`/proc/${pid}/io`, 'utf8'))![1]);
const wrote = (pid: number) => ioOf(pid, 'write_bytes');
const readFromDevice = (pid: number) => ioOf(pid, 'read_bytes');

const [binA, binB] = [process.argv[2], process.argv[3]];
if (!binA || !binB) throw new Error('usage: bun bench/ab-votes.ts BIN_A BIN_B');
const size = process.env.AB_SIZE ?? '1m';
const which = process.env.AB_WHO === 'heavy' ? 'heavy' : 'old';
const corpus = cachedCorpus(size);
if (!corpus) throw new Error(`no cached ${size} corpus: run \`node_modules/.bin/bun bench/corpus.ts ${size}\` first`);
const m = corpus.meta;
const servers = [] as { name: string; url: string; pid: number; dir: string; offset: number; proc: Awaited<ReturnType<typeof startSvc>>['proc'] }[];
for (const [name, bin] of [
  ['A', binA],
  ['B', binB],
] as const) {
  const dir = freshDataDir(corpus.file, size);
  const s = await startSvc(bin, dir);
  servers.push({ name, url: s.url, pid: s.proc.pid, dir, offset: 0, proc: s.proc });
}
const keys = which === 'old' ? writerKeys(m) : voterKeys(m);
const [f, t] = which === 'old' ? m.roles.writers : m.roles.voters;
const targets = voteTargets({ dataDir: servers[0]!.dir, meta: m }, f, t, 4000, which === 'old' ? 'spread' : 'recent');
const order = [0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0];
const res: Record<string, { rps: number[]; thr: number[]; cpu: number[]; kb: number[]; readKb: number[] }> = {
  A: { rps: [], thr: [], cpu: [], kb: [], readKb: [] },
  B: { rps: [], thr: [], cpu: [], kb: [], readKb: [] },
};
for (const s of servers) {
  const w = await round({ url: s.url, pid: s.pid, connections: 64, script: voteScript(s.offset, targets, keys) }, 2);
  s.offset += w.completed + VOTE_SLACK;
}
for (const i of order) {
  const s = servers[i]!;
  const w0 = wrote(s.pid);
  const r0 = readFromDevice(s.pid);
  const r = await round({ url: s.url, pid: s.pid, connections: 64, script: voteScript(s.offset, targets, keys) }, Number(process.env.AB_SECONDS ?? 5));
  const kb = Math.round((wrote(s.pid) - w0) / 1024 / r.completed);
  const readKb = Math.round(((readFromDevice(s.pid) - r0) / 1024 / r.completed) * 10) / 10;
  s.offset += r.completed + VOTE_SLACK;
  const x = res[s.name]!;
  x.rps.push(Math.round(okOf(r) / r.window_s));
  x.thr.push(Math.round(r.request_thread_cpu_us! / r.completed));
  x.cpu.push(Math.round(r.server_cpu_us_per_req));
  x.kb.push(kb);
  x.readKb.push(readKb);
  process.stderr.write(
    `${s.name} ${Math.round(okOf(r) / r.window_s)}/s thread ${Math.round(r.request_thread_cpu_us! / r.completed)} µs all ${Math.round(r.server_cpu_us_per_req)} µs ${kb} KB written and ${readKb} KB read from the device a vote ${r.refused ?? ''}\n`,
  );
}
const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
for (const n of ['A', 'B'])
  console.log(
    n,
    'median/s',
    med(res[n]!.rps),
    'thread µs',
    med(res[n]!.thr),
    'all µs',
    med(res[n]!.cpu),
    'KB/vote',
    med(res[n]!.kb),
    'read KB/vote',
    med(res[n]!.readKb),
    JSON.stringify(res[n]),
  );
for (const s of servers) {
  await stop(s.proc);
  rmSync(s.dir, { recursive: true, force: true });
}
await children.stopAll();
rmSync(scriptsDir, { recursive: true, force: true }); // its Lua scripts
process.exit(0);
