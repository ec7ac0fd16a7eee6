// Replication off the machine with Litestream (issue 26): real `svc serve` processes with
// SVC_REPLICA_URL, a write load through HTTP, a crash in the middle of it, `litestream restore`
// into a fresh folder and a server started on the copy. What is guaranteed is asserted (the restore
// works, the server starts on it, every write the replica was seen to hold survives, and the copy
// is a prefix of each writer's acknowledged writes); the recovery point and the writes lost are
// printed, never asserted: they depend on timing.
import { afterAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { Database } from 'bun:sqlite';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Subprocess } from 'bun';
import { loadConfig } from '../../src/compose.ts';
import { ConfigError } from '../../src/config.ts';
import { alive, findLitestream, forwardedLine, litestreamConfig, loadReplicaSettings, redactUrl, replicaFiles } from '../../src/ops/replica.ts';
import { until } from '../until.ts';

// Cold starts of the whole app, restores and a write load on a shared 2-core machine: the runner's
// timeout only guards against a hang. No assertion here is a duration.
setDefaultTimeout(300_000);

const MAIN = join(import.meta.dir, '../../src/main.ts');
const dirs: string[] = [];
const procs: Subprocess[] = [];
// Every litestream a server here said it runs: one a failed test left behind (its server killed) is killed too.
const litestreams = new Set<number>();
afterAll(() => {
  for (const p of procs) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
  for (const pid of litestreams) if (alive(pid)) process.kill(pid, 'SIGKILL');
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'svc-replica-'));
  dirs.push(d);
  return d;
};

// The replica settings reach the server only once src/compose.ts lists REPLICA among its domains.
const REGISTERED = (loadConfig({}) as { replica?: unknown }).replica !== undefined;
if (!REGISTERED) console.log('replication tests that start servers are skipped: REPLICA (src/ops/replica.ts) is not in DOMAINS of src/compose.ts');

const LITESTREAM = (() => {
  try {
    return findLitestream({ bin: null });
  } catch (e) {
    console.log(`replication drills skipped: ${(e as Error).message}`);
    return null;
  }
})();

type Line = Record<string, unknown>;
interface Server {
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
async function start(data: string, env: Record<string, string> = {}): Promise<Server> {
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

const HEADERS = { 'x-agent-protocol': 'svc/1', accept: 'application/json', 'content-type': 'application/json' };

async function register(url: string, name: string): Promise<string> {
  const r = await fetch(`${url}/v1/agents`, { method: 'POST', headers: HEADERS, body: JSON.stringify({ name }) });
  if (r.status !== 200) throw new Error(`register: ${r.status} ${await r.text()}`);
  return ((await r.json()) as { api_key: string }).api_key;
}

async function post(url: string, key: string, title: string): Promise<Response> {
  return fetch(`${url}/v1/posts`, {
    method: 'POST',
    headers: { ...HEADERS, authorization: `Bearer ${key}`, 'idempotency-key': crypto.randomUUID() },
    body: JSON.stringify({ topic: 'general', title, body: `Replication drill write: ${title}.` }),
  });
}

/** The pid of the litestream the server runs, once it says it replicates. */
async function replicating(server: Server, after = 0): Promise<number> {
  const found = () => server.events.slice(after).find((e) => e.event === 'replica' && e.state === 'replicating');
  await until('litestream to replicate', () => found() !== undefined, { tries: 3000 });
  const pid = Number(found()!.pid);
  litestreams.add(pid);
  return pid;
}

function litestream(args: string[], env: Record<string, string> = {}) {
  const r = Bun.spawnSync([LITESTREAM!, ...args], { stdin: 'ignore', stdout: 'pipe', stderr: 'pipe', env: { ...process.env, ...env } });
  return { code: r.exitCode, out: r.stdout.toString(), err: r.stderr.toString() };
}

/**
 * `litestream restore -o DIR/svc.sqlite URL` into a new folder. Asynchronous: the writers' answers
 * keep being read (and timed) while it runs.
 */
async function restore(url: string, env: Record<string, string> = {}): Promise<{ dir: string; code: number; err: string }> {
  const dir = tempDir();
  const p = Bun.spawn([LITESTREAM!, 'restore', '-o', join(dir, 'svc.sqlite'), url], {
    stdin: 'ignore',
    stdout: 'ignore',
    stderr: 'pipe',
    env: { ...process.env, ...env },
  });
  const [code, err] = await Promise.all([p.exited, new Response(p.stderr).text()]);
  return { dir, code, err };
}

/** The ids among `ids` that the database file holds. */
function held(file: string, ids: string[]): Set<string> {
  const db = new Database(file, { readonly: true });
  try {
    const q = db.query<{ id: string }, [string]>('SELECT id FROM posts WHERE id = ?');
    return new Set(ids.filter((id) => q.get(id) !== null));
  } finally {
    db.close();
  }
}

const generations = (url: string, env: Record<string, string> = {}) =>
  litestream(['generations', url], env)
    .out.trim()
    .split('\n')
    .slice(1)
    .filter((l) => l.trim()).length;

interface Ack {
  writer: number;
  seq: number;
  id: string;
  at: number; // performance.now() when the answer arrived
}

/**
 * The drill: a server replicating to `replicaUrl`, WRITERS sequential writers posting, a mark once
 * the replica is seen to hold the first MARK acknowledged writes, MORE writes after it, then the
 * server and its litestream are killed together (the machine is lost), the replica is restored into
 * a fresh folder and a server is started on the copy.
 */
async function drill(label: string, replicaUrl: string, env: Record<string, string> = {}) {
  const WRITERS = 4;
  const MARK = 120;
  const MORE = 240;
  const server = await start(tempDir(), { SVC_REPLICA_URL: replicaUrl, ...env });
  const lsPid = await replicating(server);
  const key = await register(server.url, `drill_${label}`);
  const acks: Ack[] = [];
  const refused: string[] = [];
  let killed = false;
  const writer = async (w: number) => {
    for (let seq = 0; !killed; seq++) {
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
  const writers = Array.from({ length: WRITERS }, (_, w) => writer(w));
  const enough = (n: number) => () => {
    if (refused.length) {
      const internal = server.events.filter((e) => e.event === 'internal_error' || e.level === 'error');
      throw new Error(`a write was refused: ${refused[0]}\n${internal.map((e) => JSON.stringify(e)).join('\n')}`);
    }
    return acks.length >= n;
  };
  await until(`${MARK} acknowledged writes`, enough(MARK), { tries: 6000 });
  const marked = acks.slice();
  // The mark: restore while the load goes on, until the replica holds every marked write.
  await until(
    'the replica to hold the marked writes',
    async () => {
      const r = await restore(replicaUrl, env);
      return (
        r.code === 0 &&
        held(
          join(r.dir, 'svc.sqlite'),
          marked.map((a) => a.id),
        ).size === marked.length
      );
    },
    { tries: 400, pauseMs: 50 },
  );
  await until(`${MORE} more acknowledged writes`, enough(marked.length + MORE), { tries: 6000 });
  // The machine is lost: the server and its litestream die at once, mid-load.
  killed = true;
  const killAt = performance.now();
  server.proc.kill('SIGKILL');
  process.kill(lsPid, 'SIGKILL');
  await server.proc.exited;
  await Promise.all(writers);
  expect(refused).toEqual([]);

  const restored = await restore(replicaUrl, env);
  expect(restored.err).not.toContain('ERROR');
  expect(restored.code).toBe(0);
  const file = join(restored.dir, 'svc.sqlite');
  const check = new Database(file, { readonly: true });
  expect(check.query('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' });
  check.close();
  const present = held(
    file,
    acks.map((a) => a.id),
  );
  // Guaranteed: what the replica was seen to hold survives the crash.
  expect(marked.filter((a) => !present.has(a.id))).toEqual([]);
  // Guaranteed: the copy is a consistent prefix of the commits, so each sequential writer's
  // acknowledged writes are present up to a point and missing after it, never with a hole.
  for (let w = 0; w < WRITERS; w++) {
    const mine = acks.filter((a) => a.writer === w).sort((a, b) => a.seq - b.seq);
    const firstMissing = mine.findIndex((a) => !present.has(a.id));
    if (firstMissing >= 0) expect(mine.slice(firstMissing).filter((a) => present.has(a.id))).toEqual([]);
  }

  // A server starts on the restored copy and serves what it holds.
  const copy = await start(restored.dir);
  const me = await fetch(`${copy.url}/v1/me`, { headers: { ...HEADERS, authorization: `Bearer ${key}` } });
  expect(me.status).toBe(200);
  const kept = acks.filter((a) => present.has(a.id));
  const lost = acks.filter((a) => !present.has(a.id));
  const lastKept = kept.reduce((a, b) => (b.at > a.at ? b : a));
  const read = (id: string) => fetch(`${copy.url}/v1/posts/${id}`, { headers: { ...HEADERS, authorization: `Bearer ${key}` } });
  expect((await read(lastKept.id)).status).toBe(200);
  if (lost[0]) expect((await read(lost[0].id)).status).toBe(404);
  copy.proc.kill('SIGTERM');
  expect(await copy.proc.exited).toBe(0);

  const figures = {
    drill: label,
    acknowledged: acks.length,
    present: kept.length,
    lost: lost.length,
    // The recovery point: from the last acknowledged write the copy holds to the crash.
    recovery_point_s: Number(((killAt - lastKept.at) / 1000).toFixed(3)),
    oldest_lost_write_age_s: lost.length ? Number(((killAt - Math.min(...lost.map((a) => a.at))) / 1000).toFixed(3)) : null,
    writes_per_s: Math.round(acks.length / ((killAt - startedAt) / 1000)),
    generations: generations(replicaUrl, env),
  };
  console.log(JSON.stringify(figures));
  return figures;
}

describe.skipIf(!LITESTREAM || !REGISTERED)('replication drills (litestream)', () => {
  test('file replica: killed mid-load with its litestream, restored into a fresh folder; the copy is a prefix of the acknowledged writes and a server starts on it', async () => {
    await drill('file', `file://${join(tempDir(), 'replica')}`);
  });

  // An S3-compatible server on loopback: moto's (Python, on this machine's image). s3rver 3.7.1
  // (npm) does not list nested common prefixes, so `litestream restore` finds no generation on it.
  const moto = Bun.spawnSync(['python3', '-c', 'import moto.server'], { stdout: 'ignore', stderr: 'ignore' }).exitCode === 0;
  if (!moto) console.log('the S3 drill is skipped: python3 with moto (moto.server) is not installed');
  test.skipIf(!moto)('S3 replica (moto on loopback): the same drill', async () => {
    const probe = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } });
    const port = probe.port;
    probe.stop(true);
    const s3 = Bun.spawn(['python3', '-m', 'moto.server', '-H', '127.0.0.1', '-p', String(port)], { stdout: 'ignore', stderr: 'ignore' });
    procs.push(s3);
    try {
      await until(
        'the S3 server to answer',
        () =>
          fetch(`http://127.0.0.1:${port}/`).then(
            (r) => r.ok,
            () => false,
          ),
        { tries: 3000 },
      );
      expect((await fetch(`http://127.0.0.1:${port}/drill`, { method: 'PUT' })).status).toBe(200);
      await drill('s3', `s3://drill.localhost:${port}/svc`, { AWS_ACCESS_KEY_ID: 'drill', AWS_SECRET_ACCESS_KEY: 'drill' });
    } finally {
      s3.kill();
      await s3.exited;
    }
  });

  test('a clean stop ships every write; a restart continues the same generation (svc leaves checkpoints to litestream)', async () => {
    const data = tempDir();
    const replicaUrl = `file://${join(tempDir(), 'replica')}`;
    const ids: string[] = [];
    let key = '';
    for (const round of [1, 2]) {
      const server = await start(data, { SVC_REPLICA_URL: replicaUrl });
      const pid = await replicating(server);
      key ||= await register(server.url, 'clean_stop');
      for (let i = 0; i < 25; i++) {
        const r = await post(server.url, key, `clean stop round ${round} #${i}`);
        expect(r.status).toBe(200);
        ids.push(((await r.json()) as { post: { id: string } }).post.id);
      }
      server.proc.kill('SIGTERM');
      expect(await server.proc.exited).toBe(0);
      expect(alive(pid)).toBe(false);
      // litestream's own lines, forwarded as svc JSON lines, and svc's account of the stop.
      expect(server.events).toContainEqual(expect.objectContaining({ event: 'litestream', level: 'info', msg: 'initialized db' }));
      // (0.3.13 may exit 1 here, "error closing db … context canceled", after shipping the last segment: the restore below is what counts.)
      expect(server.events).toContainEqual(expect.objectContaining({ event: 'replica', state: 'stopped', pid }));
      expect(existsSync(replicaFiles(data).pid)).toBe(false);
    }
    const restored = await restore(replicaUrl);
    expect(restored.code).toBe(0);
    expect(held(join(restored.dir, 'svc.sqlite'), ids).size).toBe(ids.length);
    // A checkpoint behind litestream's back (a TRUNCATE once it stopped) would start a new generation: a full snapshot per restart.
    expect(generations(replicaUrl)).toBe(1);
  });

  test('a server killed alone: the next start runs one litestream, never two, and the replica ends with every acknowledged write', async () => {
    const data = tempDir();
    const replicaUrl = `file://${join(tempDir(), 'replica')}`;
    const first = await start(data, { SVC_REPLICA_URL: replicaUrl });
    const orphan = await replicating(first);
    const key = await register(first.url, 'orphaned');
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) ids.push(((await (await post(first.url, key, `before the crash #${i}`)).json()) as { post: { id: string } }).post.id);
    first.proc.kill('SIGKILL');
    await first.proc.exited;

    // The orphan either ends on its own (SIGPIPE at its next log line) or the next start stops it.
    const second = await start(data, { SVC_REPLICA_URL: replicaUrl });
    const pid = await replicating(second);
    expect(pid).not.toBe(orphan);
    expect(alive(orphan)).toBe(false);
    for (let i = 0; i < 10; i++) ids.push(((await (await post(second.url, key, `after the restart #${i}`)).json()) as { post: { id: string } }).post.id);
    second.proc.kill('SIGTERM');
    expect(await second.proc.exited).toBe(0);

    const restored = await restore(replicaUrl);
    expect(restored.code).toBe(0);
    const present = held(join(restored.dir, 'svc.sqlite'), ids);
    const stopped = second.events.some((e) => e.state === 'stopping_leftover');
    console.log(
      JSON.stringify({
        drill: 'process crash, machine kept',
        acknowledged: ids.length,
        present: present.size,
        orphan: stopped ? 'stopped by the next start' : 'had ended by itself',
        generations: generations(replicaUrl),
      }),
    );
    expect(present.size).toBe(ids.length);
  });

  test('a litestream left running on the data folder is stopped before a new one starts; one whose svc still runs refuses the start', async () => {
    const data = tempDir();
    const replicaUrl = `file://${join(tempDir(), 'replica')}`;
    const files = replicaFiles(data);
    // A first run writes the database and the config, and stops cleanly.
    const first = await start(data, { SVC_REPLICA_URL: replicaUrl });
    await replicating(first);
    first.proc.kill('SIGTERM');
    expect(await first.proc.exited).toBe(0);
    // A litestream on that config whose svc is gone (its output goes nowhere, so nothing ends it).
    const leftover = () => {
      const p = Bun.spawn([LITESTREAM!, 'replicate', '-config', files.config, '-no-expand-env'], { stdin: 'ignore', stdout: 'ignore', stderr: 'ignore' });
      procs.push(p);
      return p;
    };
    const gone = Bun.spawn(['true']);
    await gone.exited;
    const left = leftover();
    writeFileSync(files.pid, JSON.stringify({ litestream: left.pid, svc: gone.pid }));
    const second = await start(data, { SVC_REPLICA_URL: replicaUrl });
    const pid = await replicating(second);
    expect(second.events).toContainEqual(expect.objectContaining({ event: 'replica', state: 'stopping_leftover', pid: left.pid }));
    expect(await left.exited).toBe(0); // SIGTERM: it shipped what it had and exited cleanly
    expect(pid).not.toBe(left.pid);
    second.proc.kill('SIGTERM');
    expect(await second.proc.exited).toBe(0);

    // The pid file names a live svc (this test process): another server replicates this folder.
    const other = leftover();
    writeFileSync(files.pid, JSON.stringify({ litestream: other.pid, svc: process.pid }));
    const refused = Bun.spawnSync([process.execPath, MAIN, 'serve', '--port', '0', '--data', data], {
      stdin: 'ignore',
      stdout: 'pipe',
      stderr: 'pipe',
      env: { ...process.env, SVC_REPLICA_URL: replicaUrl },
    });
    expect(refused.exitCode).toBe(2);
    expect(JSON.parse(refused.stderr.toString().trim().split('\n').at(-1)!).error).toMatchObject({
      code: 'CONFIG',
      message: expect.stringContaining('another svc'),
    });
    expect(alive(other.pid)).toBe(true);
    other.kill('SIGTERM');
    await other.exited;
  });

  test('a litestream that dies is started again, and the server goes on replicating', async () => {
    const data = tempDir();
    const replicaUrl = `file://${join(tempDir(), 'replica')}`;
    const server = await start(data, { SVC_REPLICA_URL: replicaUrl });
    const first = await replicating(server);
    const key = await register(server.url, 'restarted');
    const seen = server.events.length;
    process.kill(first, 'SIGKILL');
    const second = await replicating(server, seen);
    expect(second).not.toBe(first);
    expect(server.events).toContainEqual(expect.objectContaining({ event: 'replica', level: 'error', state: 'exited', pid: first }));
    const r = await post(server.url, key, 'after litestream came back');
    expect(r.status).toBe(200);
    const id = ((await r.json()) as { post: { id: string } }).post.id;
    server.proc.kill('SIGTERM');
    expect(await server.proc.exited).toBe(0);
    const restored = await restore(replicaUrl);
    expect(restored.code).toBe(0);
    const found = held(join(restored.dir, 'svc.sqlite'), [id]).size;
    // Seen once in ~40 runs of this file, not reproduced since: say everything if it happens again.
    if (found !== 1) console.log(JSON.stringify({ events: server.events, restore: restored.err, generations: litestream(['generations', replicaUrl]).out }));
    expect(found).toBe(1);
  });
});

// Opt-in, a measurement rather than a check: SVC_REPLICA_STRESS_SECONDS=30 bun test test/ops/replication-drill.test.ts -t sustained
// Eight writers post flat out for that long while Litestream replicates; it prints the writes
// refused, the slowest answer and the WAL's size (Litestream's RESTART checkpoints, left on, stall
// writers past busy_timeout here: see docs/operations.md). Asserted: a clean stop ships every write.
const STRESS_SECONDS = Number(process.env.SVC_REPLICA_STRESS_SECONDS ?? 0);
describe.skipIf(!LITESTREAM || !REGISTERED || !STRESS_SECONDS)('replication under a sustained write load (opt-in)', () => {
  test('sustained: eight writers, refused writes and the slowest answer printed', async () => {
    const data = tempDir();
    const replicaUrl = `file://${join(tempDir(), 'replica')}`;
    const server = await start(data, { SVC_REPLICA_URL: replicaUrl });
    await replicating(server);
    const key = await register(server.url, 'sustained');
    const ids: string[] = [];
    let refused = 0;
    let slowestMs = 0;
    const end = performance.now() + STRESS_SECONDS * 1000;
    await Promise.all(
      Array.from({ length: 8 }, async (_, w) => {
        for (let i = 0; performance.now() < end; i++) {
          const t = performance.now();
          const r = await post(server.url, key, `sustained w${w} #${i}`);
          slowestMs = Math.max(slowestMs, performance.now() - t);
          if (r.status === 200) ids.push(((await r.json()) as { post: { id: string } }).post.id);
          else {
            refused++;
            await r.text();
          }
        }
      }),
    );
    const walBytes = Bun.file(join(data, 'svc.sqlite-wal')).size;
    server.proc.kill('SIGTERM');
    expect(await server.proc.exited).toBe(0);
    const busy = server.events.filter((e) => e.event === 'internal_error').length;
    const restored = await restore(replicaUrl);
    expect(restored.code).toBe(0);
    const present = held(join(restored.dir, 'svc.sqlite'), ids).size;
    console.log(
      JSON.stringify({
        sustained_s: STRESS_SECONDS,
        acknowledged: ids.length,
        writes_per_s: Math.round(ids.length / STRESS_SECONDS),
        refused,
        internal_errors: busy,
        slowest_answer_ms: Math.round(slowestMs),
        wal_bytes_at_end: walBytes,
        in_replica_after_clean_stop: present,
      }),
    );
    expect(present).toBe(ids.length);
  });
});

describe.skipIf(!REGISTERED)('svc serve refuses a replica it cannot run', () => {
  // A server that listens instead of refusing is killed at once: whichever comes first, exit or listening line.
  const serve = async (env: Record<string, string>) => {
    const p = Bun.spawn([process.execPath, MAIN, 'serve', '--port', '0', '--data', tempDir()], {
      stdin: 'ignore',
      stdout: 'pipe',
      stderr: 'pipe',
      env: { ...process.env, ...env },
    });
    procs.push(p);
    const printed = p.stdout.getReader().read();
    const listened = printed.then(async (r): Promise<number | 'listening'> => (r.done ? await p.exited : 'listening'));
    const code = await Promise.race([p.exited, listened]);
    if (code === 'listening') p.kill('SIGKILL');
    const lines = (await new Response(p.stderr).text()).trim().split('\n');
    let error: { code: string; message: string } = { code: 'NONE', message: lines.join('\n') };
    try {
      error = JSON.parse(lines.at(-1)!).error ?? error;
    } catch {}
    return { code, error };
  };

  test.each([
    ['a scheme Litestream does not take', { SVC_REPLICA_URL: 'ftp://backup.example/svc' }, 'the scheme ftp: is not one of them'],
    ['a relative file path', { SVC_REPLICA_URL: 'file://replica/svc' }, 'file:// needs an absolute folder path'],
    [
      'a binary that is not there',
      { SVC_REPLICA_URL: 'file:///tmp/svc-replica-never', SVC_LITESTREAM_BIN: '/nonexistent/litestream' },
      'SVC_LITESTREAM_BIN names /nonexistent/litestream',
    ],
  ])('%s: exit 2 with a CONFIG error, before listening', async (_, env, message) => {
    const r = await serve(env);
    expect(r.code).toBe(2);
    expect(r.error.code).toBe('CONFIG');
    expect(r.error.message).toContain(message);
  });

  test('a litestream that exits at start: exit 2 with a CONFIG error carrying its last error line', async () => {
    const dir = tempDir();
    const fake = join(dir, 'litestream');
    writeFileSync(fake, '#!/bin/sh\nif [ "$1" = version ]; then echo v0.3.13; exit 0; fi\necho "ERROR cannot reach the replica: access denied" >&2\nexit 1\n');
    chmodSync(fake, 0o755);
    const r = await serve({ SVC_REPLICA_URL: `file://${join(dir, 'replica')}`, SVC_LITESTREAM_BIN: fake });
    expect(r.code).toBe(2);
    expect(r.error.code).toBe('CONFIG');
    expect(r.error.message).toContain('litestream exited with code 1 before replicating');
    expect(r.error.message).toContain('access denied');
  });
});

describe('the replica settings and the litestream config', () => {
  test('SVC_REPLICA_URL takes what Litestream 0.3.13 takes, and the root loads it into the config', () => {
    expect(loadReplicaSettings({}).url).toBeNull();
    expect(loadReplicaSettings({ SVC_REPLICA_URL: 'file:///srv/replica/' }).url).toBe('file:///srv/replica');
    expect(loadReplicaSettings({ SVC_REPLICA_URL: 's3://bkt/svc' })).toMatchObject({ url: 's3://bkt/svc', s3: {} });
    expect(loadReplicaSettings({ SVC_REPLICA_URL: 'sftp://me:pw@host:22/backups/svc' }).url).toBe('sftp://me:pw@host:22/backups/svc');
    expect(loadReplicaSettings({ SVC_REPLICA_URL: 's3://bkt/svc?endpoint=https://minio.internal:9000&force-path-style=true&region=eu-1' })).toMatchObject({
      url: 's3://bkt/svc',
      s3: { endpoint: 'https://minio.internal:9000', 'force-path-style': true, region: 'eu-1' },
    });
    expect(loadConfig({ SVC_REPLICA_URL: 'file:///srv/replica' }).replica.url).toBe('file:///srv/replica');
  });

  test.each([
    ['ftp://x/y', 'scheme ftp:'],
    ['not a url', 'must be a Litestream replica URL'],
    ['file:///', 'absolute folder path'],
    ['s3:///svc', 'needs a bucket'],
    ['s3://bkt/svc?acl=public', 'unknown option "acl"'],
    ['sftp://host/svc?x=1', 'only s3:// takes options'],
    ['s3://bkt/svc?skip-verify=yes', 'must be true or false'],
    ['s3://bkt/svc?endpoint=minio:9000', 'endpoint must be an http(s) URL'],
  ])('%s is refused (%s)', (raw, message) => {
    expect(() => loadReplicaSettings({ SVC_REPLICA_URL: raw })).toThrow(ConfigError);
    expect(() => loadReplicaSettings({ SVC_REPLICA_URL: raw })).toThrow(message);
  });

  test('a refusal never prints the password of the URL', () => {
    for (const raw of ['sftp://me:hunter2@/x', 'ftp://me:hunter2@host/x']) {
      expect(() => loadReplicaSettings({ SVC_REPLICA_URL: raw })).toThrow(ConfigError);
      expect(() => loadReplicaSettings({ SVC_REPLICA_URL: raw })).toThrow(/^(?!.*hunter2).*me:\*\*\*@/);
    }
    expect(redactUrl('sftp://me:hunter2@host/x')).toBe('sftp://me:***@host/x');
  });

  test('the config names the database and the replica, quoted, with JSON logs; s3 options become fields', () => {
    const yaml = litestreamConfig(
      '/data/dir "x"/svc.sqlite',
      loadReplicaSettings({ SVC_REPLICA_URL: 's3://bkt/svc?endpoint=http://127.0.0.1:9000&skip-verify=true' }),
    );
    expect(yaml).toContain('  type: json\n');
    expect(yaml).toContain('  - path: "/data/dir \\"x\\"/svc.sqlite"\n');
    // No RESTART checkpoints (they stalled svc's writes past busy_timeout under load); PASSIVE ones stay.
    expect(yaml).toContain('    max-checkpoint-page-count: 0\n');
    expect(yaml).toContain('      - url: "s3://bkt/svc"\n        endpoint: "http://127.0.0.1:9000"\n        skip-verify: true\n');
  });

  test('the config is one litestream reads back as written', () => {
    if (!LITESTREAM) return void console.log('skipped: no litestream binary');
    const dir = tempDir();
    mkdirSync(join(dir, 'my data'));
    const config = join(dir, 'litestream.yml');
    writeFileSync(
      config,
      litestreamConfig(join(dir, 'my data', 'svc.sqlite'), loadReplicaSettings({ SVC_REPLICA_URL: `file://${join(dir, 'replica $HOME')}` })),
    );
    const r = litestream(['databases', '-config', config, '-no-expand-env']);
    expect(r.code).toBe(0);
    expect(r.out).toContain(join(dir, 'my data', 'svc.sqlite'));
  });

  test('litestream output lines become svc JSON lines', () => {
    expect(forwardedLine('{"time":"2026-01-01T00:00:00Z","level":"INFO","msg":"replicating to","path":"/r"}', 'stdout')).toEqual({
      event: 'litestream',
      level: 'info',
      msg: 'replicating to',
      path: '/r',
    });
    expect(forwardedLine('2026/01/01 00:00:00 ERROR failed to run error="x"', 'stderr')).toEqual({
      event: 'litestream',
      level: 'error',
      msg: '2026/01/01 00:00:00 ERROR failed to run error="x"',
    });
  });

  test('the binary: SVC_LITESTREAM_BIN when given, else next to the executable, the npm package, PATH', () => {
    const dir = tempDir();
    const beside = join(dir, 'litestream');
    writeFileSync(beside, '#!/bin/sh\n');
    chmodSync(beside, 0o755);
    expect(findLitestream({ bin: beside })).toBe(beside);
    expect(() => findLitestream({ bin: join(dir, 'missing') })).toThrow('SVC_LITESTREAM_BIN names');
    expect(findLitestream({ bin: null }, join(dir, 'svc'), '/nowhere/src/ops')).toBe(beside);
    const lone = tempDir();
    const found = (() => {
      try {
        return findLitestream({ bin: null }, join(lone, 'svc'), '/nowhere/src/ops');
      } catch (e) {
        return e as Error;
      }
    })();
    // Only PATH is left to look at: either litestream is on it, or the error says where to get it.
    if (found instanceof Error) expect(found.message).toContain('@flydotio/litestream-linux-x64@1.0.1');
    else expect(found).toBe(Bun.which('litestream')!);
  });
});
