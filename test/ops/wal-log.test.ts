// The served database's log off the request thread (src/ops/wal-log.ts): commits are answered
// only once their log sync is done, a checkpoint holds the writes that come meanwhile and lets
// them go in order, the log stays bounded under sustained writes, a failed sync fails its writes
// and every later one, and acknowledged writes survive a kill -9 of the server.
import { Database } from 'bun:sqlite';
import { afterEach, describe, expect, test } from 'bun:test';
import { copyFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { durable, groupCommit, LogSyncFailed, setLogDurability, writesOutsideGroupCommit } from '../../src/db/group-commit.ts';
import { BUSY_TIMEOUT_MS, openDatabase } from '../../src/db/open.ts';
import { type CheckpointJob, type CheckpointResult, checkpointWal, closeCheckpointConnections, LAY_OUT_STEP } from '../../src/db/checkpoint.ts';
import { logSizeOf } from '../../src/db/wal-index.ts';
import {
  BOUND_FACTOR,
  LAY_OUT_MARGIN,
  READ_AHEAD_BYTES,
  retryWait,
  startReplicatedLog,
  startWalLog,
  type WalLog,
  type WalLogOptions,
} from '../../src/ops/wal-log.ts';
import { until } from '../until.ts';
import { createApp } from '../../src/app.ts';
import { ManualClock } from '../../src/clock.ts';
import { loadConfig, serviceContext } from '../../src/compose.ts';
import { migrate } from '../../src/db/migrate.ts';
import { AGENT_HEADERS } from '../helpers.ts';
import { runAdmin } from '../../src/admin/cli.ts';
import { runJob } from '../../src/scheduler/scheduler.ts';
import { OPTIMIZE_JOB } from '../../src/search/optimize-job.ts';
import { startServer, tempDir } from './cli.ts';

const open: { db: Database; log: WalLog }[] = [];
afterEach(async () => {
  for (const { db, log } of open.splice(0)) {
    await log.stop();
    db.close();
  }
  closeCheckpointConnections();
});

async function served(opts: WalLogOptions = {}) {
  const dir = tempDir();
  const db = openDatabase(dir);
  db.exec('CREATE TABLE notes (n INTEGER NOT NULL, text TEXT NOT NULL)');
  const path = join(dir, 'svc.sqlite');
  const log = await startWalLog(db, path, opts);
  open.push({ db, log });
  const walBytes = () => statSync(`${path}-wal`).size;
  // The log itself: its frames (the -wal file is laid out ahead of it).
  const logBytes = () => logSizeOf(path).bytes;
  const note = (n: number, bytes = 100) => groupCommit(db, () => db.query('INSERT INTO notes (n, text) VALUES (?, ?)').run(n, 'x'.repeat(bytes)).changes);
  return { db, log, path, walBytes, logBytes, note };
}

/** A promise the test opens. */
function gate() {
  let open!: () => void;
  const wait = new Promise<void>((r) => (open = r));
  return { wait, open };
}

/** The synchronous setting a batch commits with (0 OFF: synced after, off the thread; 2 FULL: in the commit). */
const syncLevelInBatch = (db: Database) => groupCommit(db, () => db.query<{ synchronous: number }, []>('PRAGMA synchronous').get()!.synchronous);

/** The same for a batch that writes (a batch that writes nothing never starts the log over). */
const levelOfWrite = (db: Database) =>
  groupCommit(db, () => {
    db.query("INSERT INTO notes (n, text) VALUES (-1, 'level')").run();
    return db.query<{ synchronous: number }, []>('PRAGMA synchronous').get()!.synchronous;
  });

describe('the log off the request thread', () => {
  test('a batch commits without a sync and is answered once the log sync is done; outside batches the connection syncs in its commits', async () => {
    let syncs = 0;
    let release!: () => void;
    const t = await served({ sync: (h) => new Promise<void>((r) => (release = r)).then(() => h.datasync()).then(() => void syncs++) });
    let answered = false;
    const write = t.note(1).then(() => (answered = true));
    await Bun.sleep(20);
    // Committed (another reader sees it) but not answered before its sync.
    expect(t.db.query('SELECT count(*) AS n FROM notes').get()).toEqual({ n: 1 });
    expect(answered).toBe(false);
    release();
    await write;
    expect(syncs).toBe(1);
    expect(await Promise.all([syncLevelInBatch(t.db), new Promise((r) => setTimeout(r, 5)).then(() => release())])).toEqual([0, undefined]);
    expect(t.db.query<{ synchronous: number }, []>('PRAGMA synchronous').get()!.synchronous).toBe(2);
  });

  test('the log stays bounded under sustained writes, through the worker thread', async () => {
    const threshold = 256 * 1024;
    const t = await served({ checkpointBytes: threshold });
    let largest = 0;
    for (let round = 0; round < 60; round++) {
      // 20 writes of ~2 KB share a batch: ~40 KB of rows and their pages.
      await Promise.all(Array.from({ length: 20 }, (_, i) => t.note(round * 20 + i, 2000)));
      largest = Math.max(largest, t.logBytes());
    }
    expect(t.log.checkpoints).toBeGreaterThan(2);
    expect(largest).toBeLessThan(BOUND_FACTOR * threshold + 64 * 1024);
    expect(t.db.query('SELECT count(*) AS n FROM notes').get()).toEqual({ n: 1200 });
  });

  test("the part of the -wal file ahead of the log's end is asked into the page cache: once a half of it is used, and from the start again after a restart", async () => {
    const threshold = 2 * READ_AHEAD_BYTES;
    const asked: { from: number; end: number }[] = [];
    let t!: Awaited<ReturnType<typeof served>>;
    const readAhead = async (job: CheckpointJob) => {
      expect(job.step).toBe('readAhead');
      if (job.step !== 'readAhead') return checkpointWal(job);
      expect(job.bytes).toBe(READ_AHEAD_BYTES);
      asked.push({ from: job.from, end: t.logBytes() });
      return checkpointWal(job);
    };
    t = await served({ checkpointBytes: threshold, readAhead });
    const ends: { end: number; asked: number }[] = [];
    // Batches until a checkpoint has restarted the log and five more after it (the worker's
    // restart ends when it ends: a loaded machine takes more batches to get there).
    let after = 0;
    for (let round = 0; round < 2000 && after < 5; round++) {
      // 10 writes of ~8 KB share a batch: about 100 KB of the log.
      await Promise.all(Array.from({ length: 10 }, (_, i) => t.note(round * 10 + i, 8000)));
      ends.push({ end: t.logBytes(), asked: asked.length });
      if (t.log.checkpoints >= 1) after++;
    }
    expect(after).toBe(5);
    // Nothing is asked before the log has used half a range (an idle server's few writes start no
    // worker); each range starts at the log's end when it was asked (a batch's end), and from the
    // first one on, every end the log reached lay in a range asked for at or before it.
    expect(asked[0]!.from).toBeGreaterThanOrEqual(READ_AHEAD_BYTES / 2);
    expect(ends.filter((e) => e.asked === 0).every((e) => e.end < READ_AHEAD_BYTES / 2)).toBe(true);
    for (const a of asked) expect(a.from).toBe(a.end);
    // An end read right after the worker restarted the log (smaller than the one before, nothing
    // asked since) is the restart's, not a batch's: the next batch asks from the head (below). On
    // a loaded machine the restart can end before the batch's own answer reaches the test.
    const restartedUnder = (e: (typeof ends)[number], i: number) => i > 0 && e.end < ends[i - 1]!.end && e.asked === ends[i - 1]!.asked;
    const after1st = ends.filter((e, i) => e.asked > 0 && !restartedUnder(e, i));
    expect(after1st.filter((e) => asked.slice(0, e.asked).some((a) => a.from <= e.end && e.end < a.from + READ_AHEAD_BYTES)).length).toBe(after1st.length);
    // Not at every batch: about once for every half range of log written, and once after each restart …
    const written = ends.reduce((n, e, i) => n + Math.max(0, e.end - (ends[i - 1]?.end ?? 0)), 0);
    expect(asked.length).toBeLessThanOrEqual(written / (READ_AHEAD_BYTES / 2) + t.log.checkpoints + 1);
    expect(asked.length).toBeLessThan(ends.length / 4);
    // … and from the log's head again once a checkpoint restarted it.
    expect(asked.some((a, i) => i > 0 && a.from < asked[i - 1]!.from)).toBe(true);
  });

  test('while a copy runs the writes go on, until the log reaches its bound: then they wait for the checkpoint, and the log never passes the bound plus one batch', async () => {
    const threshold = 64 * 1024;
    const copy = gate();
    const checkpoint = async (job: CheckpointJob): Promise<CheckpointResult> => {
      if (job.step === 'copy') await copy.wait;
      return checkpointWal(job);
    };
    const t = await served({ checkpointBytes: threshold, checkpoint });
    let answered = 0;
    const writes: Promise<unknown>[] = [];
    let largest = 0;
    const count = () => (t.db.query('SELECT count(*) AS n FROM notes').get() as { n: number }).n;
    // Rounds of 8 writes of ~2 KB, not awaited (held ones are answered only after the gate): the
    // next round is handed in once this one is committed, or once the log is at its bound (then
    // every later round is held), so no batch holds more than one round.
    for (let round = 0; round < 60; round++) {
      writes.push(...Array.from({ length: 8 }, (_, i) => t.note(round * 8 + i, 2000).then(() => answered++)));
      while (count() < (round + 1) * 8 && t.logBytes() < BOUND_FACTOR * threshold) await Bun.sleep(1);
      largest = Math.max(largest, t.logBytes());
    }
    // Past the threshold the copy began (held at its gate); the writes went on to the bound, and stop there.
    while (answered < count()) await Bun.sleep(5); // the syncs of what was committed
    const stored = count();
    expect(stored).toBeGreaterThan(0);
    expect(t.logBytes()).toBeGreaterThanOrEqual(threshold);
    expect(stored).toBeLessThan(480);
    expect(answered).toBe(stored);
    expect(largest).toBeLessThan(BOUND_FACTOR * threshold + 8 * 8 * 1024);
    copy.open();
    await Promise.all(writes);
    expect(t.db.query('SELECT count(*) AS n FROM notes').get()).toEqual({ n: 480 });
    expect(t.log.checkpoints).toBeGreaterThanOrEqual(1);
  });

  test('the first restart lays the -wal file out to the log bound, and a copy of the files taken mid-writes recovers every answered write', async () => {
    const threshold = 1024 * 1024;
    const t = await served({ checkpointBytes: threshold });
    const target = BOUND_FACTOR * threshold + LAY_OUT_MARGIN;
    let written = 0;
    for (let round = 0; round < 400 && t.walBytes() < target; round++) {
      await Promise.all(Array.from({ length: 20 }, (_, i) => t.note(round * 20 + i, 2000)));
      written += 20;
    }
    expect(t.walBytes()).toBeGreaterThanOrEqual(target);
    // The worker lays the file out before its answer reaches this thread: a write handed in now
    // waits for the restart's end if it is still under way (its writes held), so the count is settled.
    await t.note(-1);
    written++;
    expect(t.log.checkpoints).toBe(1);
    expect(target).toBeLessThan(LAY_OUT_STEP);
    // As after a power cut: the database and its log as they are on disk (no -shm), opened afresh.
    const copy = tempDir();
    copyFileSync(t.path, join(copy, 'svc.sqlite'));
    copyFileSync(`${t.path}-wal`, join(copy, 'svc.sqlite-wal'));
    const reopened = new Database(join(copy, 'svc.sqlite'));
    try {
      expect(reopened.query('SELECT count(*) AS n FROM notes').get()).toEqual({ n: written });
      expect(reopened.query('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' });
    } finally {
      reopened.close();
    }
  });

  test("writes handed in during a checkpoint's copy are committed and answered; during its restart they wait for it, then run and are answered in order; reads go on meanwhile", async () => {
    const copy = gate();
    const restart = gate();
    const restartAsked = gate();
    const checkpoint = async (job: CheckpointJob): Promise<CheckpointResult> => {
      if (job.step === 'restart') restartAsked.open();
      await (job.step === 'copy' ? copy : restart).wait;
      return checkpointWal(job);
    };
    // A log of 20 KB starts the checkpoint; the writes below stay far from its bound (4 × 16 KB).
    const t = await served({ checkpointBytes: 16 * 1024, checkpoint });
    await t.note(0, 20_000); // its commit starts the (gated) checkpoint
    // The copy: the writes go on, at OFF.
    expect(await t.note(1)).toBe(1);
    expect(await syncLevelInBatch(t.db)).toBe(0);
    copy.open();
    await restartAsked.wait; // the copy ended; the restart (gated) holds the batches from the moment it is asked for
    const ran: number[] = [];
    const answered: number[] = [];
    const writes = Array.from({ length: 10 }, (_, i) =>
      groupCommit(t.db, () => {
        ran.push(i + 2);
        return t.db.query('INSERT INTO notes (n, text) VALUES (?, ?)').run(i + 2, 'queued').changes;
      }).then(() => answered.push(i + 2)),
    );
    await Bun.sleep(30);
    expect(ran).toEqual([]);
    expect(t.db.query('SELECT count(*) AS n FROM notes').get()).toEqual({ n: 2 });
    restart.open();
    await Promise.all(writes);
    expect(ran).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(answered).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(t.db.query('SELECT n FROM notes ORDER BY rowid').all()).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11].map((n) => ({ n })));
    expect(t.log.checkpoints).toBeGreaterThanOrEqual(1);
  });

  test('a batch that finds the whole log copied before the restart waits for the restart, then commits at OFF: the log never starts over unsynced', async () => {
    const copied = gate();
    let copies = 0;
    const checkpoint = async (job: CheckpointJob): Promise<CheckpointResult> => {
      if (job.step === 'copy') {
        // The copy is done at once (the whole log copied), its answer comes when the test says.
        const r = checkpointWal(job);
        copies++;
        await copied.wait;
        return r;
      }
      return checkpointWal(job);
    };
    const t = await served({ checkpointBytes: 1, checkpoint });
    await t.note(0); // starts the checkpoint: its copy takes the whole log
    await Bun.sleep(10);
    expect(copies).toBe(1);
    const level: { at: number | null } = { at: null };
    const write = syncLevelInBatch(t.db).then((l) => (level.at = l));
    await Bun.sleep(30);
    expect(level.at).toBeNull(); // held: committed now, it would have started the log over
    copied.open();
    await write;
    expect(level.at).toBe(0);
    expect(t.log.checkpoints).toBeGreaterThanOrEqual(1);
  });

  test('a checkpoint that could not restart the log and copied nothing: the batches go on at OFF; it is tried again after 25 ms, then 50, 100…', async () => {
    let restart = false;
    let restarts = 0;
    const tries: number[] = [];
    const checkpoint = async (job: CheckpointJob): Promise<CheckpointResult> => {
      if (job.step === 'restart') tries.push(performance.now());
      if (!restart) return { restarted: false };
      const r = checkpointWal(job);
      if (r.restarted) restarts++;
      return r;
    };
    const t = await served({ checkpointBytes: 1, checkpoint });
    expect(await levelOfWrite(t.db)).toBe(0);
    await until('the first restart tried', () => tries.length === 1);
    await Bun.sleep(5); // which ends without restarting the log, nothing of it copied
    expect(await levelOfWrite(t.db)).toBe(0);
    // Writes go on; each commit asks, and the tries come no sooner than the waits say.
    while (tries.length < 4) {
      expect(await levelOfWrite(t.db)).toBe(0);
      await Bun.sleep(2);
    }
    const gaps = tries.slice(1).map((at, i) => at - tries[i]!);
    for (const [i, gap] of gaps.entries()) expect(gap).toBeGreaterThanOrEqual(retryWait(i + 1) - 1);
    restart = true;
    while (restarts === 0) {
      await levelOfWrite(t.db);
      await Bun.sleep(2);
    }
    expect(await levelOfWrite(t.db)).toBe(0);
  });

  test('a reader kept the log from restarting after the whole of it was copied: the next write commits at FULL (the log may start over in it), the ones after at OFF', async () => {
    const results: boolean[] = [];
    const copied = gate();
    const checkpoint = async (job: CheckpointJob): Promise<CheckpointResult> => {
      if (job.step === 'copy' && results.length === 1) await copied.wait;
      const r = checkpointWal(job);
      if (job.step === 'restart') results.push(r.restarted);
      return r;
    };
    const t = await served({ checkpointBytes: 1, checkpoint });
    await t.note(0);
    await until('the first checkpoint', () => results.length >= 1);
    expect(results).toEqual([true]);
    // A reader on another connection, its snapshot at the log's end (the write that starts the
    // checkpoint included): the copy takes the whole log, and the restart waits for the reader
    // (100 ms) and gives up.
    const reader = new Database(t.path);
    try {
      await t.note(1); // starts the checkpoint, its copy held
      reader.exec('BEGIN');
      reader.query('SELECT count(*) AS n FROM notes').get();
      copied.open();
      await until('the checkpoint that could not restart', () => results.length === 2);
      expect(results).toEqual([true, false]);
      expect(logSizeOf(t.path).uncopied).toBe(0);
      expect(await levelOfWrite(t.db)).toBe(2);
      expect(await levelOfWrite(t.db)).toBe(0);
      expect(await levelOfWrite(t.db)).toBe(0);
    } finally {
      reader.exec('COMMIT');
      reader.close();
    }
  });

  test('the waits after checkpoints that could not restart the log: 25 ms, doubled after each, at most a second', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8].map(retryWait)).toEqual([25, 50, 100, 200, 400, 800, 1_000, 1_000]);
  });

  test('durable() (a replay found before the write pipeline) settles only after a sync that started after it was called', async () => {
    let release = () => {};
    let syncs = 0;
    const t = await served({ sync: (h) => new Promise<void>((r) => (release = r)).then(() => h.datasync()).then(() => void syncs++) });
    const write = t.note(1);
    await Bun.sleep(5); // its commit is written, its sync under way
    let settled = false;
    const waited = durable(t.db).then(() => (settled = true));
    release();
    await write;
    await Bun.sleep(5);
    expect(settled).toBe(false);
    release();
    await waited;
    expect(syncs).toBe(2);
  });

  test('a failed log sync fails its batch and every write after it; nothing is answered as stored', async () => {
    let calls = 0;
    const t = await served({ sync: async (h) => (++calls === 2 ? Promise.reject(new Error('EIO: injected')) : h.datasync()) });
    expect(await t.note(1)).toBe(1);
    const failed = await Promise.allSettled([t.note(2), t.note(3)]);
    expect(failed.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(String((failed[0] as PromiseRejectedResult).reason)).toContain('EIO: injected');
    const later = await Promise.allSettled([t.note(4)]);
    expect((later[0] as PromiseRejectedResult).reason).toBeInstanceOf(LogSyncFailed);
    // The later write never ran.
    expect(t.db.query('SELECT count(*) AS n FROM notes WHERE n = 4').get()).toEqual({ n: 0 });
  });
});

describe('the write lock held by another connection', () => {
  test('a batch that finds it taken waits from a timer, not on the thread: reads go on, and it commits once the lock is free', async () => {
    const { db, path, note } = await served();
    const other = new Database(path);
    other.exec('BEGIN IMMEDIATE');
    other.exec("INSERT INTO notes (n, text) VALUES (0, 'theirs')");
    let settled = false;
    const pending = note(1).finally(() => (settled = true));
    // With SQLite's busy handler the thread would sleep in BEGIN until the lock came free or the
    // busy timeout (5 s) passed, and this sleep would end only then; here it ends at once (the
    // bound is the busy timeout's half, not a speed), and reads go on.
    const before = performance.now();
    await Bun.sleep(20);
    expect(performance.now() - before).toBeLessThan(BUSY_TIMEOUT_MS / 2);
    expect(settled).toBe(false);
    expect(db.query<{ n: number }, []>('SELECT count(*) AS n FROM notes').get()!.n).toBe(0);
    other.exec('COMMIT');
    other.close();
    expect(await pending).toBe(1);
    expect(db.query<{ n: number }, []>('SELECT count(*) AS n FROM notes').get()!.n).toBe(2);
  });
});

describe('a log another process checkpoints (a replicated server)', () => {
  test('batches commit at OFF while Litestream runs and the log cannot start over; at FULL when it is down or the whole log is checkpointed', async () => {
    const dir = tempDir();
    const db = openDatabase(dir);
    db.exec('CREATE TABLE notes (n INTEGER NOT NULL)');
    const path = join(dir, 'svc.sqlite');
    let up = false;
    const log = await startReplicatedLog(db, path, { litestreamUp: () => up });
    open.push({ db, log });
    const note = (n: number) => groupCommit(db, () => db.query('INSERT INTO notes (n) VALUES (?)').run(n));
    await note(1);
    // Litestream down: svc checkpoints in its commits again, so they sync inside them.
    expect(await syncLevelInBatch(db)).toBe(2);
    up = true;
    await note(2);
    expect(await syncLevelInBatch(db)).toBe(0);
    // Another connection (Litestream) checkpoints the whole log: the next write may start it over.
    const other = new Database(path);
    expect(other.query<{ busy: number; log: number; checkpointed: number }, []>('PRAGMA wal_checkpoint(PASSIVE)').get()).toMatchObject({ busy: 0 });
    expect(await syncLevelInBatch(db)).toBe(2);
    await note(3);
    expect(await syncLevelInBatch(db)).toBe(0);
    other.close();
    expect(db.query<{ n: number }, []>('SELECT count(*) AS n FROM notes').get()!.n).toBe(3);
  });

  test('a checkpoint that ends between the check and the transaction: the batch is rolled back untouched and runs once, at FULL', async () => {
    const dir = tempDir();
    const db = openDatabase(dir);
    db.exec('CREATE TABLE notes (n INTEGER NOT NULL)');
    let asked = 0;
    // Before the batch: the log cannot restart; once its transaction has begun: it can.
    setLogDurability(db, { sync: async () => {}, afterCommit: () => null, fullSyncNext: () => false, mayRestart: () => asked++ % 2 === 1 });
    let runs = 0;
    const level = await groupCommit(db, () => {
      runs++;
      db.query('INSERT INTO notes (n) VALUES (1)').run();
      return db.query<{ synchronous: number }, []>('PRAGMA synchronous').get()!.synchronous;
    });
    setLogDurability(db, null);
    expect([level, runs, asked]).toEqual([2, 1, 2]);
    expect(db.query<{ n: number }, []>('SELECT count(*) AS n FROM notes').get()!.n).toBe(1);
    db.close();
  });
});

/** The app over a served database whose log sync can be held (`hold`), to see what waits for it. */
async function servedApp() {
  const dir = tempDir();
  const db = openDatabase(dir);
  migrate(db);
  let gated = false;
  let release = () => {};
  const log = await startWalLog(db, join(dir, 'svc.sqlite'), {
    sync: (h) => (gated ? new Promise<void>((r) => (release = r)).then(() => h.datasync()) : h.datasync()),
  });
  open.push({ db, log });
  const config = loadConfig({ SVC_BASE_URL: 'http://svc.test', SVC_LOG_REQUESTS: 'off', SVC_DATA_DIR: dir });
  const ctx = serviceContext(config, db, new ManualClock(Date.parse('2026-11-23T12:00:00Z')));
  const app = createApp(ctx);
  const send = (method: string, path: string, init: { body?: string; headers?: Record<string, string> } = {}) =>
    app.handle(new Request(`http://svc.test${path}`, { method, body: init.body, headers: init.headers ?? AGENT_HEADERS }));
  const count = (sql: string) => db.query<{ n: number }, []>(sql).get()!.n;
  /**
   * Runs `work` with the log sync held: what it wrote is committed (`committed` sees it) but not
   * answered; released, it settles.
   */
  const held = async <T>(what: string, work: () => Promise<T>, committed: () => boolean): Promise<T> => {
    gated = true;
    let settled = false;
    const pending = work().finally(() => (settled = true));
    await Bun.sleep(30);
    expect([what, committed()]).toEqual([what, true]);
    expect([what, settled]).toEqual([what, false]);
    gated = false;
    release();
    return pending;
  };
  return { db, ctx, send, count, held };
}

describe('writes outside the board pipeline, over HTTP', () => {
  test('a guest session, an upload and an OAuth revocation are answered only once the log sync that holds them is done', async () => {
    const { db, send, count, held } = await servedApp();
    const registered = await send('POST', '/v1/agents', { body: JSON.stringify({ name: 'uploader' }) });
    expect(registered.status).toBe(200);
    const key = ((await registered.json()) as { api_key: string }).api_key;
    const bytes = Buffer.from('{}');
    const cases: [string, () => Promise<Response>, string][] = [
      ['guest session', () => send('GET', '/api/pubs/human-session', { headers: {} }), 'SELECT count(*) AS n FROM guest_sessions'],
      [
        'upload',
        () =>
          send('POST', '/v1/pubs/uploads', {
            headers: { ...AGENT_HEADERS, authorization: `Bearer ${key}` },
            body: JSON.stringify({
              expected_hash: new Bun.CryptoHasher('sha256').update(bytes).digest('hex'),
              expected_bytes: bytes.byteLength,
              metadata: { kind: 'post' },
            }),
          }),
        'SELECT count(*) AS n FROM upload_sessions',
      ],
      [
        'revocation',
        () => send('POST', '/revoke', { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'token=mcpa_unknown' }),
        'SELECT 1 AS n',
      ],
    ];
    for (const [what, request, sql] of cases) {
      const r = await held(what, request, () => count(sql) === 1);
      expect([what, r.status]).toEqual([what, what === 'upload' ? 201 : 200]);
    }
    expect(writesOutsideGroupCommit(db)).toBe(0);
  });

  test('a registration, a console sign-in, action and page, a scheduled run, a resume and a key revocation wait for the log sync; nothing commits outside the group commit', async () => {
    const { db, ctx, send, count, held } = await servedApp();
    const form = (path: string, fields: Record<string, string>, cookie = '') =>
      send('POST', path, {
        headers: { accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) },
        body: new URLSearchParams(fields).toString(),
      });
    const registered = await held(
      'registration',
      () => send('POST', '/v1/agents', { body: JSON.stringify({ name: 'boss' }) }),
      () => count("SELECT count(*) AS n FROM accounts WHERE name = 'boss'") === 1,
    );
    expect(registered.status).toBe(200);
    const key = ((await registered.json()) as { api_key: string }).api_key;
    // `svc admin` in the server's own process: the action joins the group commit too.
    await held(
      'svc admin role grant',
      async () => runAdmin(ctx, ['role', 'grant', 'boss', 'owner']),
      () => count('SELECT count(*) AS n FROM account_roles') === 1,
    );
    const signedIn = await held(
      'console sign-in',
      () => form('/console/sign-in', { key }),
      () => count('SELECT count(*) AS n FROM console_sessions') === 1,
    );
    expect(signedIn.status).toBe(303);
    const cookie = signedIn.headers.get('set-cookie')!.split(';')[0]!;
    const page = await send('GET', '/console/queue', { headers: { accept: 'text/html', cookie } });
    expect(page.status).toBe(200);
    const csrf = /name="csrf" value="([^"]+)"/.exec(await page.text())![1]!;
    await send('POST', '/v1/agents', { body: JSON.stringify({ name: 'ann' }) });
    const acted = await held(
      'console action',
      () => form('/console/act/lab-allow', { csrf, back: 'log', name: 'ann' }, cookie),
      () => count("SELECT count(*) AS n FROM audit_log WHERE action = 'lab allow'") === 1,
    );
    expect(acted.status).toBe(303); // Post/Redirect/Get: the result is shown on the page it names
    const ran = await held(
      'scheduled run',
      () => runJob(ctx, OPTIMIZE_JOB, 'schedule'),
      () => count('SELECT count(*) AS n FROM job_runs') === 1,
    );
    expect(ran).toMatchObject({ ran: true, status: 'done' });
    const resumed = await held(
      'resume',
      () => send('GET', '/v1/continuity', { headers: { ...AGENT_HEADERS, authorization: `Bearer ${key}` } }),
      () => count('SELECT count(*) AS n FROM continuity_state WHERE last_visit_at IS NOT NULL') === 1,
    );
    expect(resumed.status).toBe(200);
    const revoked = await held(
      'key revocation',
      () => send('POST', '/v1/me/revoke', { headers: { ...AGENT_HEADERS, authorization: `Bearer ${key}` } }),
      () => count("SELECT count(*) AS n FROM accounts WHERE name = 'boss' AND revoked_at IS NOT NULL") === 1,
    );
    expect(revoked.status).toBe(200);
    // The console's page views touched the session later, in a batch; nothing committed on its own.
    expect(writesOutsideGroupCommit(db)).toBe(0);
    db.query("UPDATE accounts SET description = 'x' WHERE name = 'ann'").run();
    expect(writesOutsideGroupCommit(db)).toBe(1);
  });
});

describe('the served log across a kill -9', () => {
  test('every acknowledged post is in the database after the server is killed mid-writes', async () => {
    const data = tempDir();
    const server = await startServer(data, { SVC_POSTING_PER_DAY: '100000' });
    const headers = { 'x-agent-protocol': 'svc/1', accept: 'application/json', 'content-type': 'application/json' };
    const reg = await fetch(`${server.url}/v1/agents`, { method: 'POST', headers, body: JSON.stringify({ name: 'durable-writer' }) });
    const { api_key } = (await reg.json()) as { api_key: string };
    const acked: string[] = [];
    let stop = false;
    const writer = async () => {
      for (let i = 0; !stop; i++) {
        const r = await fetch(`${server.url}/v1/posts`, {
          method: 'POST',
          headers: { ...headers, authorization: `Bearer ${api_key}`, 'idempotency-key': crypto.randomUUID() },
          body: JSON.stringify({ topic: 'general', title: `kill ${i}`, body: 'A write the kill must not lose once answered.' }),
        }).catch(() => null);
        if (r?.status === 200) acked.push(((await r.json()) as { id: string }).id);
      }
    };
    const writers = Array.from({ length: 8 }, writer);
    while (acked.length < 400) await Bun.sleep(5);
    server.proc.kill('SIGKILL');
    stop = true;
    await Promise.all(writers);
    await server.proc.exited;
    const db = new Database(join(data, 'svc.sqlite'), { readonly: true });
    try {
      const stored = new Set(
        db
          .query<{ id: string }, []>('SELECT id FROM posts')
          .all()
          .map((r) => r.id),
      );
      expect(acked.filter((id) => !stored.has(id))).toEqual([]);
      expect(db.query<{ integrity_check: string }, []>('PRAGMA integrity_check').get()!.integrity_check).toBe('ok');
    } finally {
      db.close();
    }
  });
});
