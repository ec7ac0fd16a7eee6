// Replication off the machine with Litestream (issue 26): real `svc serve` processes with
// SVC_REPLICA_URL, a write load through HTTP, a crash in the middle of it, `litestream restore`
// into a fresh folder and a server started on the copy. What is guaranteed is asserted (the restore
// works, the server starts on it, every write the replica was seen to hold survives, and the copy
// is a prefix of each writer's acknowledged writes); the recovery point and the writes lost are
// printed, never asserted: they depend on timing.
import { afterAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { chmodSync, existsSync, mkdirSync, readdirSync, readlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../../src/compose.ts';
import { ConfigError } from '../../src/config.ts';
import {
  alive,
  findLitestream,
  forwardedLine,
  LITESTREAM_MIN_CHECKPOINT_PAGES,
  LITESTREAM_MONITOR_INTERVAL,
  LITESTREAM_SYNC_INTERVAL,
  litestreamConfig,
  loadReplicaSettings,
  redactUrl,
  replicaFiles,
} from '../../src/ops/replica.ts';
import * as h from './replica-harness.ts';
import { until } from '../until.ts';
import { HEADERS, held, MAIN, post, register, replicating, start, tempDir, track } from './replica-harness.ts';

// Cold starts of the whole app, restores and a write load on a shared 2-core machine: the runner's
// timeout only guards against a hang. No assertion here is a duration.
setDefaultTimeout(300_000);

afterAll(h.cleanUp);

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

const litestream = (args: string[], env: Record<string, string> = {}) => h.litestream(LITESTREAM!, args, env);
const restore = (url: string, env: Record<string, string> = {}) => h.restore(LITESTREAM!, url, env);
const generations = (url: string, env: Record<string, string> = {}) => h.generations(LITESTREAM!, url, env);

/**
 * The drill (test/ops/replica-harness.ts), then what is guaranteed whatever the timing: the
 * restore works and passes integrity_check, every write the replica was seen to hold before the
 * crash survives, the copy is a prefix of each sequential writer's acknowledged writes, and a
 * server starts on it. The recovery point is printed, never asserted.
 */
async function drill(label: string, replicaUrl: string, env: Record<string, string> = {}) {
  const r = await h.runDrill(label, replicaUrl, { bin: LITESTREAM!, env });
  expect(r.refused).toEqual([]);
  expect(r.restored.err).not.toContain('ERROR');
  expect(r.restored.code).toBe(0);
  expect(r.integrity).toEqual({ integrity_check: 'ok' });
  // Guaranteed: what the replica was seen to hold survives the crash.
  expect(r.marked.filter((a) => !r.present.has(a.id))).toEqual([]);
  // Guaranteed: the copy is a consistent prefix of the commits, so each sequential writer's
  // acknowledged writes are present up to a point and missing after it, never with a hole.
  for (const w of new Set(r.acks.map((a) => a.writer))) {
    const mine = r.acks.filter((a) => a.writer === w).sort((a, b) => a.seq - b.seq);
    const firstMissing = mine.findIndex((a) => !r.present.has(a.id));
    if (firstMissing >= 0) expect(mine.slice(firstMissing).filter((a) => r.present.has(a.id))).toEqual([]);
  }

  // A server starts on the restored copy and serves what it holds.
  const copy = await start(r.restored.dir);
  const me = await fetch(`${copy.url}/v1/me`, { headers: { ...HEADERS, authorization: `Bearer ${r.key}` } });
  expect(me.status).toBe(200);
  const kept = r.acks.filter((a) => r.present.has(a.id));
  const lost = r.acks.filter((a) => !r.present.has(a.id));
  const lastKept = kept.reduce((a, b) => (b.at > a.at ? b : a));
  const read = (id: string) => fetch(`${copy.url}/v1/posts/${id}`, { headers: { ...HEADERS, authorization: `Bearer ${r.key}` } });
  expect((await read(lastKept.id)).status).toBe(200);
  if (lost[0]) expect((await read(lost[0].id)).status).toBe(404);
  copy.proc.kill('SIGTERM');
  expect(await copy.proc.exited).toBe(0);

  const figures = h.drillFigures(r, LITESTREAM!, env);
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
    track(s3);
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
      // Litestream took the sync interval svc wrote (it logs it in nanoseconds).
      expect(server.events).toContainEqual(expect.objectContaining({ event: 'litestream', msg: 'replicating to', 'sync-interval': 100_000_000 }));
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
    // A litestream on that config whose svc is gone (its log is read here and by nobody else, so nothing ends it).
    const leftover = () => {
      const p = Bun.spawn([LITESTREAM!, 'replicate', '-config', files.config, '-no-expand-env'], { stdin: 'ignore', stdout: 'pipe', stderr: 'ignore' });
      track(p);
      let synced = false;
      let text = '';
      void (async () => {
        const reader = p.stdout.getReader();
        const decoder = new TextDecoder();
        for (let r = await reader.read(); !r.done; r = await reader.read()) {
          text += decoder.decode(r.value, { stream: true });
          const lines = text.split('\n');
          text = lines.pop()!;
          if (lines.some((l) => forwardedLine(l, 'stdout').msg === 'sync: ok')) synced = true;
        }
      })();
      return Object.assign(p, { synced: () => synced });
    };
    const gone = Bun.spawn(['true']);
    await gone.exited;
    const left = leftover();
    // Left running means replicating: its first sync, as svc waits for its own (src/ops/replica.ts).
    // A Litestream stopped while it still starts up exits 1 (once in 12 runs after it had only opened
    // the database; once more in a year-ahead run), which says nothing of how svc stops it.
    await until('the leftover litestream to open the database', () => opened(left.pid, join(data, 'svc.sqlite')));
    await until("the leftover litestream's first sync", () => left.synced(), { tries: 3000 });
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
    track(p);
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

/** Whether process `pid` holds `file` open (its descriptors in /proc). */
function opened(pid: number, file: string): boolean {
  try {
    return readdirSync(`/proc/${pid}/fd`).some((fd) => {
      try {
        return readlinkSync(`/proc/${pid}/fd/${fd}`) === file;
      } catch {
        return false;
      }
    });
  } catch {
    return false;
  }
}

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
    // The recovery point: new WAL frames are read and shipped every 100 ms, not every second.
    expect([LITESTREAM_MONITOR_INTERVAL, LITESTREAM_SYNC_INTERVAL, LITESTREAM_MIN_CHECKPOINT_PAGES]).toEqual(['100ms', '100ms', 10_000]);
    expect(yaml).toContain('    monitor-interval: 100ms\n');
    // Fewer checkpoints: each one after which the WAL starts over holds svc's writers back.
    expect(yaml).toContain('    min-checkpoint-page-count: 10000\n');
    expect(yaml).toContain('      - url: "s3://bkt/svc"\n        sync-interval: 100ms\n        endpoint: "http://127.0.0.1:9000"\n        skip-verify: true\n');
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
