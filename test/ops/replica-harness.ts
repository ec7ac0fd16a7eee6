// The replication drill's pieces, shared by test/ops/replication-drill.test.ts (which asserts what
// is guaranteed) and bench/replica-drill.ts (which repeats the drill and prints the recovery
// points): real `svc serve` processes with SVC_REPLICA_URL, writers posting through HTTP, the
// server and its Litestream killed at the same instant, and `litestream restore` into a fresh
// folder. Nothing here asserts; a caller judges the result.
import { Database } from 'bun:sqlite';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Subprocess } from 'bun';
import { alive } from '../../src/ops/replica.ts';
import { until } from '../until.ts';

export const MAIN = join(import.meta.dir, '../../src/main.ts');

const dirs: string[] = [];
const procs: Subprocess[] = [];
// Every litestream a server here said it runs: one a failed run left behind (its server killed) is killed too.
const litestreams = new Set<number>();

/** Kills what is still running and removes the folders made here. */
export function cleanUp(): void {
  for (const p of procs) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
  for (const pid of litestreams) if (alive(pid)) process.kill(pid, 'SIGKILL');
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  procs.length = 0;
  dirs.length = 0;
  litestreams.clear();
}

/** Remembers a process started by the caller, killed by cleanUp if still running. */
export const track = (p: Subprocess): void => void procs.push(p);

export const tempDir = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'svc-replica-'));
  dirs.push(d);
  return d;
};

export type Line = Record<string, unknown>;
export interface Server {
  proc: Subprocess<'ignore', 'pipe', 'pipe'>;
  url: string;
  /** Every JSON line the server printed on stderr (replica events, forwarded litestream lines). */
  events: Line[];
}

async function readLines(stream: ReadableStream<Uint8Array>, onLine: (line: string) => void) {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffered += decoder.decode(value, { stream: true });
    for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
      onLine(buffered.slice(0, nl));
      buffered = buffered.slice(nl + 1);
    }
  }
  if (buffered) onLine(buffered);
}

/** `svc serve` on `data` with `env`; resolves with its URL once it prints its listening line. */
export async function start(data: string, env: Record<string, string> = {}): Promise<Server> {
  const proc = Bun.spawn([process.execPath, MAIN, 'serve', '--port', '0', '--data', data], {
    stdin: 'ignore',
    stdout: 'pipe',
    stderr: 'pipe',
    env: { ...process.env, SVC_POSTING_PER_DAY: '1000000', SVC_LOG_REQUESTS: 'off', ...env },
  });
  procs.push(proc);
  const events: Line[] = [];
  const stderr: string[] = [];
  void readLines(proc.stderr, (line) => {
    stderr.push(line);
    try {
      events.push(JSON.parse(line));
    } catch {}
  });
  const listening = new Promise<string>((resolve) => {
    let url = '';
    void readLines(proc.stdout, (line) => {
      if (url) return;
      try {
        const parsed = JSON.parse(line) as Line;
        if (parsed.event === 'listening') {
          url = String(parsed.url);
          resolve(url);
        }
      } catch {}
    }).then(() => resolve(''));
  });
  const url = await listening;
  if (!url) {
    await proc.exited;
    throw new Error(`svc serve exited ${proc.exitCode} before listening: ${stderr.join('\n')}`);
  }
  // svc installs its SIGTERM handler just after printing the listening line: one answered request
  // later it is there (a SIGTERM sent at once can still meet Bun's default action, exit 143).
  await fetch(`${url}/healthz`);
  return { proc, url, events };
}

export const HEADERS = { 'x-agent-protocol': 'svc/1', accept: 'application/json', 'content-type': 'application/json' };

export async function register(url: string, name: string): Promise<string> {
  const r = await fetch(`${url}/v1/agents`, { method: 'POST', headers: HEADERS, body: JSON.stringify({ name }) });
  if (r.status !== 200) throw new Error(`register: ${r.status} ${await r.text()}`);
  return ((await r.json()) as { api_key: string }).api_key;
}

export async function post(url: string, key: string, title: string): Promise<Response> {
  return fetch(`${url}/v1/posts`, {
    method: 'POST',
    headers: { ...HEADERS, authorization: `Bearer ${key}`, 'idempotency-key': crypto.randomUUID() },
    body: JSON.stringify({ topic: 'general', title, body: `Replication drill write: ${title}.` }),
  });
}

/** The pid of the litestream the server runs, once it says it replicates. */
export async function replicating(server: Server, after = 0): Promise<number> {
  const found = () => server.events.slice(after).find((e) => e.event === 'replica' && e.state === 'replicating');
  await until('litestream to replicate', () => found() !== undefined, { tries: 3000 });
  const pid = Number(found()!.pid);
  litestreams.add(pid);
  return pid;
}

export function litestream(bin: string, args: string[], env: Record<string, string> = {}) {
  const r = Bun.spawnSync([bin, ...args], { stdin: 'ignore', stdout: 'pipe', stderr: 'pipe', env: { ...process.env, ...env } });
  return { code: r.exitCode, out: r.stdout.toString(), err: r.stderr.toString() };
}

/**
 * `litestream restore -o DIR/svc.sqlite URL` into a new folder. Asynchronous: the writers' answers
 * keep being read (and timed) while it runs.
 */
export async function restore(bin: string, url: string, env: Record<string, string> = {}): Promise<{ dir: string; code: number; err: string }> {
  const dir = tempDir();
  const p = Bun.spawn([bin, 'restore', '-o', join(dir, 'svc.sqlite'), url], {
    stdin: 'ignore',
    stdout: 'ignore',
    stderr: 'pipe',
    env: { ...process.env, ...env },
  });
  const [code, err] = await Promise.all([p.exited, new Response(p.stderr).text()]);
  return { dir, code, err };
}

/** The ids among `ids` that the database file holds. */
export function held(file: string, ids: string[]): Set<string> {
  const db = new Database(file, { readonly: true });
  try {
    const q = db.query<{ id: string }, [string]>('SELECT id FROM posts WHERE id = ?');
    return new Set(ids.filter((id) => q.get(id) !== null));
  } finally {
    db.close();
  }
}

export const generations = (bin: string, url: string, env: Record<string, string> = {}) =>
  litestream(bin, ['generations', url], env)
    .out.trim()
    .split('\n')
    .slice(1)
    .filter((l) => l.trim()).length;

/** The files a write cut short left in a file:// replica (Litestream writes NAME.tmp, then renames it). */
export function leftoverTmp(replicaUrl: string): string[] {
  if (!replicaUrl.startsWith('file://')) return [];
  const root = replicaUrl.slice('file://'.length);
  try {
    return (readdirSync(root, { recursive: true }) as string[]).filter((f) => f.endsWith('.tmp')).sort();
  } catch {
    return [];
  }
}

export interface Ack {
  writer: number;
  seq: number;
  id: string;
  at: number; // performance.now() when the answer arrived
}

export interface DrillResult {
  label: string;
  replicaUrl: string;
  key: string;
  acks: Ack[];
  /** The writes the replica was seen to hold before the crash. */
  marked: Ack[];
  refused: string[];
  killAt: number;
  startedAt: number;
  restored: { dir: string; code: number; err: string };
  /** The acknowledged writes the restored copy holds (empty when the restore failed). */
  present: Set<string>;
  integrity: unknown;
  tmp: string[];
  /** The server's JSON lines (its own replica events and Litestream's, forwarded). */
  events: Line[];
}

export interface DrillOptions {
  bin: string;
  env?: Record<string, string>;
  writers?: number;
  /** Acknowledged writes before the mark (the replica is then seen to hold them all). */
  mark?: number;
  /** Acknowledged writes after the mark, before the crash. */
  more?: number;
  /** Then this long more of the load before the crash (default 0): a recovery point is only seen past the mark. */
  loadMs?: number;
  /** At most this many writes per second over all writers (default: flat out). */
  rate?: number;
}

/**
 * The drill: a server replicating to `replicaUrl`, sequential writers posting, a mark once the
 * replica is seen to hold the first `mark` acknowledged writes, `more` writes after it, then the
 * server and its litestream are killed at the same instant (the machine is lost) and the replica is
 * restored into a fresh folder.
 */
export async function runDrill(label: string, replicaUrl: string, o: DrillOptions): Promise<DrillResult> {
  const { bin, env = {}, writers: WRITERS = 4, mark: MARK = 120, more: MORE = 240, loadMs = 0, rate = 0 } = o;
  const server = await start(tempDir(), { SVC_REPLICA_URL: replicaUrl, ...env });
  const lsPid = await replicating(server);
  const key = await register(server.url, `drill_${label}`);
  const acks: Ack[] = [];
  const refused: string[] = [];
  let killed = false;
  const writer = async (w: number) => {
    for (let seq = 0; !killed; seq++) {
      // A paced writer: its seq-th write is not sent before seq × WRITERS / rate seconds.
      if (rate > 0) {
        const due = startedAt + (seq * WRITERS * 1000) / rate;
        if (due > performance.now()) await Bun.sleep(due - performance.now());
      }
      try {
        const r = await post(server.url, key, `drill ${label} w${w} #${seq}`);
        if (r.status !== 200) {
          if (!killed) refused.push(`${r.status} ${await r.text()}`);
          return;
        }
        const { post: p } = (await r.json()) as { post: { id: string } };
        acks.push({ writer: w, seq, id: p.id, at: performance.now() });
      } catch {
        return; // the server is gone
      }
    }
  };
  const startedAt = performance.now();
  const running = Array.from({ length: WRITERS }, (_, w) => writer(w));
  const enough = (n: number) => () => {
    if (refused.length) {
      const internal = server.events.filter((e) => e.event === 'internal_error' || e.level === 'error');
      throw new Error(`a write was refused: ${refused[0]}\n${internal.map((e) => JSON.stringify(e)).join('\n')}`);
    }
    return acks.length >= n;
  };
  let marked: Ack[] = [];
  try {
    await load();
  } catch (e) {
    // A refused write or a replica that never caught up: the writers stop and the server goes.
    killed = true;
    server.proc.kill('SIGKILL');
    if (alive(lsPid)) process.kill(lsPid, 'SIGKILL');
    await Promise.all(running);
    throw e;
  }
  async function load() {
    await until(`${MARK} acknowledged writes`, enough(MARK), { tries: 6000 });
    marked = acks.slice();
    // The mark: restore while the load goes on, until the replica holds every marked write.
    await until(
      'the replica to hold the marked writes',
      async () => {
        const r = await restore(bin, replicaUrl, env);
        const ok =
          r.code === 0 &&
          held(
            join(r.dir, 'svc.sqlite'),
            marked.map((a) => a.id),
          ).size === marked.length;
        rmSync(r.dir, { recursive: true, force: true });
        return ok;
      },
      { tries: 400, pauseMs: 50 },
    );
    await until(`${MORE} more acknowledged writes`, enough(marked.length + MORE), { tries: 6000 });
    if (loadMs > 0) {
      await Bun.sleep(loadMs);
      enough(0)();
    }
  }
  // The machine is lost: the server and its litestream die at the same instant, mid-load.
  killed = true;
  const killAt = performance.now();
  server.proc.kill('SIGKILL');
  process.kill(lsPid, 'SIGKILL');
  await server.proc.exited;
  await Promise.all(running);

  const tmp = leftoverTmp(replicaUrl);
  const restored = await restore(bin, replicaUrl, env);
  let present = new Set<string>();
  let integrity: unknown = null;
  if (restored.code === 0) {
    const file = join(restored.dir, 'svc.sqlite');
    const check = new Database(file, { readonly: true });
    integrity = check.query('PRAGMA integrity_check').get();
    check.close();
    present = held(
      file,
      acks.map((a) => a.id),
    );
  }
  return { label, replicaUrl, key, acks, marked, refused, killAt, startedAt, restored, present, integrity, tmp, events: server.events };
}

/** What a drill printed: the recovery point and the acknowledged writes lost. */
export function drillFigures(r: DrillResult, bin: string, env: Record<string, string> = {}) {
  const kept = r.acks.filter((a) => r.present.has(a.id));
  const lost = r.acks.filter((a) => !r.present.has(a.id));
  const lastKept = kept.reduce<Ack | null>((a, b) => (a === null || b.at > a.at ? b : a), null);
  return {
    drill: r.label,
    acknowledged: r.acks.length,
    present: kept.length,
    lost: lost.length,
    // The recovery point: from the last acknowledged write the copy holds to the crash.
    recovery_point_s: lastKept ? Number(((r.killAt - lastKept.at) / 1000).toFixed(3)) : null,
    oldest_lost_write_age_s: lost.length ? Number(((r.killAt - Math.min(...lost.map((a) => a.at))) / 1000).toFixed(3)) : null,
    writes_per_s: Math.round(r.acks.length / ((r.killAt - r.startedAt) / 1000)),
    generations: generations(bin, r.replicaUrl, env),
    tmp_left: r.tmp,
  };
}
