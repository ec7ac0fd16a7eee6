// The full-text index's merges off the request thread (src/search/merges.ts, merge-step.ts,
// schema/0039_posts_fts_merges.sql): the writing connection no longer merges, the worker merges
// what the commits add while the group commit goes on writing, a step never waits long for the
// write lock, and a server stops cleanly with its merge worker.
import { Database } from 'bun:sqlite';
import { afterEach, describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { groupCommit } from '../../src/db/group-commit.ts';
import { closeCheckpointConnections } from '../../src/db/checkpoint.ts';
import { migrate } from '../../src/db/migrate.ts';
import { openDatabase } from '../../src/db/open.ts';
import { BOUND_FACTOR, startWalLog, type WalLog } from '../../src/ops/wal-log.ts';
import { logSizeOf } from '../../src/db/wal-index.ts';
import { mergeStep, structureReader } from '../../src/search/index-store.ts';
import { pagesWritten, segmentsPerLevel, widestLevel } from '../../src/search/segments.ts';
import { mergePostsIndex, type MergeResult, stepPages } from '../../src/search/merge-step.ts';
import { startPostsIndexMerges, type PostsIndexMerges } from '../../src/search/merges.ts';
import { AGENT_HEADERS } from '../helpers.ts';
import { startServer, tempDir } from '../ops/cli.ts';
import { until } from '../until.ts';

const open: { db: Database; log: WalLog | null; merges: PostsIndexMerges | null }[] = [];
afterEach(async () => {
  for (const { db, log, merges } of open.splice(0)) {
    await merges?.stop();
    await log?.stop();
    db.close();
  }
  closeCheckpointConnections();
});

/** A migrated database file served as `svc serve` serves it: its log synced and checkpointed off the request thread. */
async function served(checkpointBytes?: number) {
  const dir = tempDir();
  const db = openDatabase(dir);
  migrate(db);
  const path = join(dir, 'svc.sqlite');
  const log = await startWalLog(db, path, checkpointBytes ? { checkpointBytes } : {});
  const entry: (typeof open)[number] = { db, log, merges: null };
  open.push(entry);
  return { db, path, entry };
}

// Rows of the index itself (posts_fts is an external-content index: what it holds is checked here
// without posts behind it). One commit each, as separate writes of the board land.
const index = (db: Database, from: number, n: number, word = 'plain') =>
  Promise.all(
    Array.from({ length: n }, (_, i) =>
      groupCommit(db, () =>
        db.query('INSERT INTO posts_fts (rowid, title, body) VALUES (?, ?, ?)').run(from + i, `title ${from + i}`, `common ${word} body ${from + i}`),
      ),
    ),
  );

/** Segments the index holds (FTS5 numbers a segment's pages from its id shifted left by 37). */
const segments = (db: Database) => db.query<{ n: number }, []>('SELECT count(DISTINCT id >> 37) AS n FROM posts_fts_data WHERE id >= 137438953472').get()!.n;
const matches = (db: Database, word: string) => db.query<{ n: number }, [string]>('SELECT count(*) AS n FROM posts_fts WHERE posts_fts MATCH ?').get(word)!.n;
const consistent = (db: Database) => db.query("INSERT INTO posts_fts (posts_fts, rank) VALUES ('integrity-check', 0)").run();

describe('the full-text index merged off the request thread', () => {
  test('the schema turns automerge off and the crisis merge up: commits add their segments and merge nothing', async () => {
    const { db } = await served();
    expect(db.query("SELECT v FROM posts_fts_config WHERE k = 'automerge'").get()).toEqual({ v: 0 });
    expect(db.query("SELECT v FROM posts_fts_config WHERE k = 'crisismerge'").get()).toEqual({ v: 200 });
    const before = segments(db); // the rules root's, from the schema
    for (let i = 0; i < 40; i++) await index(db, 100 + i, 1);
    // Forty commits, forty segments more: FTS5's default crisis merge (16) would have merged them in a commit.
    expect(segments(db)).toBe(before + 40);
    expect(segmentsPerLevel(structureReader(db)()).reduce((a, b) => a + b, 0)).toBe(segments(db));
    expect(widestLevel(structureReader(db)())).toBe(before + 40);
  });

  test('a job past its budget goes on while a level holds `behind` segments, and ends at one step otherwise', async () => {
    const { db, path } = await served();
    // Forty segments of 2,000 distinct terms each: merging them takes many steps of 16 pages.
    const words = (from: number) => Array.from({ length: 2000 }, (_, i) => `t${from * 2000 + i}`).join(' ');
    for (let c = 0; c < 40; c++)
      await groupCommit(db, () => db.query('INSERT INTO posts_fts (rowid, title, body) VALUES (?, ?, ?)').run(1000 + c, 't', words(c)));
    const one = mergePostsIndex({ path, pages: 16, stepMs: 0, budgetMs: 0 });
    expect(one.steps).toHaveLength(1);
    expect(one.more).toBe(true);
    expect(one.widest).toBeGreaterThanOrEqual(32);
    const behind = mergePostsIndex({ path, pages: 16, stepMs: 0, budgetMs: 0, behind: 32 });
    expect(behind.steps.length).toBeGreaterThan(1);
    expect(behind.widest).toBeLessThan(32);
    expect(widestLevel(structureReader(db)())).toBe(behind.widest!);
    expect(matches(db, 't79999')).toBe(1);
    consistent(db);
    mergePostsIndex({ path, pages: 0, stepMs: 0, budgetMs: 0, close: true });
  });

  test('while the group commit writes, the worker merges what the commits add, by four a level, and the index stays whole', async () => {
    // A small checkpoint threshold: checkpoints and their held restarts run among the merges.
    const { db, path, entry } = await served(64 * 1024);
    const steps: number[] = [];
    entry.merges = startPostsIndexMerges(db, path, {
      tickMs: 5,
      budgetMs: 20,
      run: (job) =>
        new Promise<MergeResult>((resolve, reject) => {
          // In this thread, as the worker runs it (the worker's own file is driven by the server tests).
          try {
            const r = mergePostsIndex(job, Bun.sleepSync);
            steps.push(...r.steps);
            resolve(r);
          } catch (e) {
            reject(e);
          }
        }),
    });
    let written = 0;
    for (let round = 0; round < 40; round++) {
      await index(db, 1 + written, 5, round % 2 ? 'odd' : 'even');
      written += 5;
      await Bun.sleep(2);
    }
    // The worker ends with nothing left to merge.
    await until('nothing left to merge', () => mergeDone(db));
    expect(steps.length).toBeGreaterThan(0);
    expect(mergeDone(db)).toBe(true);
    expect(matches(db, 'common')).toBe(written);
    expect(matches(db, 'odd')).toBe(written / 2);
    expect(consistent(db).changes).toBeGreaterThanOrEqual(0);
  });

  test('merges alone keep the log bounded: the steps that take it past its threshold start a checkpoint', async () => {
    const threshold = 32 * 1024;
    const { db, path, entry } = await served(threshold);
    // Thirteen segments of 8,000 distinct terms each, merged by the steps alone (the crisis merge is at 200).
    const words = (from: number) => Array.from({ length: 8000 }, (_, i) => `w${from * 8000 + i}`).join(' ');
    for (let c = 0; c < 13; c++)
      await groupCommit(db, () => db.query('INSERT INTO posts_fts (rowid, title, body) VALUES (?, ?, ?)').run(1000 + c, 't', words(c)));
    // The batches' own checkpoint ends (the log restarted, nearly empty) before the merges start.
    await until("the batches' checkpoint to restart the log", () => logSizeOf(path).bytes < threshold);
    expect(logSizeOf(path).bytes).toBeLessThan(threshold);
    const before = entry.log!.checkpoints;
    let largest = 0;
    entry.merges = startPostsIndexMerges(db, path, {
      tickMs: 5,
      pages: 4,
      afterMerge: () => {
        largest = Math.max(largest, logSizeOf(path).bytes);
        return entry.log!.afterOutsideWrite();
      },
    });
    // One more commit, the change that starts the merges; no batch after it: only the merge steps write.
    await index(db, 1, 1);
    await until('nothing left to merge', () => mergeDone(db));
    expect(mergeDone(db)).toBe(true);
    await until('a checkpoint started by the merges', () => entry.log!.checkpoints !== before);
    expect(entry.log!.checkpoints).toBeGreaterThan(before);
    expect(largest).toBeGreaterThan(threshold);
    // The bound, plus what the step that passes it writes (its merged pages, and the pages of the
    // inputs it frees when it ends a merge): 0.3-0.6 MB here, against 3.9 MB when the steps do not
    // take part in the bound.
    const bound = BOUND_FACTOR * threshold + 1024 * 1024;
    expect(largest).toBeLessThanOrEqual(bound);
    expect(logSizeOf(path).bytes).toBeLessThanOrEqual(bound);
    expect(matches(db, 'w5')).toBe(1);
    consistent(db);
  });

  test('a step that finds the write lock taken ends the job with work left, and merges once it is free', async () => {
    const { db, path } = await served();
    for (let i = 0; i < 8; i++) await index(db, 1 + i, 1);
    const other = new Database(path);
    other.exec('BEGIN IMMEDIATE');
    const blocked = mergePostsIndex({ path, pages: 64, stepMs: 8, budgetMs: 50 });
    other.exec('ROLLBACK');
    other.close();
    expect(blocked).toEqual({ steps: [], more: true });
    const free = mergePostsIndex({ path, pages: 64, stepMs: 8, budgetMs: 50 });
    expect(free.steps.length).toBeGreaterThan(0);
    expect(free.more).toBe(false);
    expect(segments(db)).toBeLessThan(8);
    mergePostsIndex({ path, pages: 0, stepMs: 0, budgetMs: 0, close: true });
  });

  test('the merge worker ends once it has waited its idle time for a job, and the next job starts another', async () => {
    const { db, path, entry } = await served();
    // The real worker (workers/posts-fts-merge.ts), ended after 30 ms without a job.
    entry.merges = startPostsIndexMerges(db, path, { tickMs: 5, idleMs: 30 });
    const merges = entry.merges;
    for (let i = 0; i < 6; i++) await index(db, 1 + i, 1);
    await until('the first job done and its worker ended', () => merges.jobs > 0 && merges.idleEnded >= 1, { tries: 5000 });
    const jobs = merges.jobs;
    const ended = merges.idleEnded;
    await index(db, 100, 6);
    await until('a second worker started for the next job, and ended', () => merges.jobs > jobs && merges.idleEnded > ended, { tries: 5000 });
    expect(matches(db, 'common')).toBe(12);
    consistent(db);
  });

  test('the structure looked at, not merged: a server nobody writes to runs no job', async () => {
    const { db, path, entry } = await served();
    let jobs = 0;
    entry.merges = startPostsIndexMerges(db, path, {
      tickMs: 2,
      run: async () => {
        jobs++;
        return { steps: [], more: false };
      },
    });
    await Bun.sleep(30);
    expect(jobs).toBe(0);
    await index(db, 1, 1);
    await until('the first job', () => jobs !== 0);
    expect(jobs).toBe(1);
    await Bun.sleep(20);
    expect(jobs).toBe(1);
  });
});

/** Whether a 'merge' step would find nothing (run in a transaction rolled back). */
function mergeDone(db: Database): boolean {
  const changes = () => db.query<{ n: number }, []>('SELECT total_changes() AS n').get()!.n;
  db.exec('BEGIN IMMEDIATE');
  try {
    const before = changes();
    db.query("INSERT INTO posts_fts (posts_fts, rank) VALUES ('merge', 64)").run();
    return changes() - before <= 1;
  } finally {
    db.exec('ROLLBACK');
  }
}

describe('svc serve', () => {
  test("a server merges the posts' segments in its merge worker, and stops cleanly with it", async () => {
    const dir = tempDir();
    const server = await startServer(dir);
    const agent = await fetch(`${server.url}/v1/agents`, { method: 'POST', headers: AGENT_HEADERS, body: '{"name":"merger"}' });
    expect(agent.status).toBe(200);
    const { api_key } = (await agent.json()) as { api_key: string };
    for (let i = 0; i < 6; i++) {
      const r = await fetch(`${server.url}/v1/posts`, {
        method: 'POST',
        headers: { ...AGENT_HEADERS, authorization: `Bearer ${api_key}`, 'idempotency-key': crypto.randomUUID() },
        body: JSON.stringify({ topic: 'general', title: `Post ${i}`, body: `Body ${i}` }),
      });
      expect([r.status, r.status === 200 ? '' : await r.text()]).toEqual([200, '']);
    }
    // The posts' segments are merged by the worker (its pool's jobs in GET /metrics). A job that
    // found nothing to merge yet ends without a step: wait for one that took a step.
    let metrics = '';
    await until('a merge job and its step in GET /metrics', async () => {
      metrics = await (await fetch(`${server.url}/metrics`)).text();
      return (
        /svc_worker_jobs_total\{pool="posts-fts-merge",outcome="ok"\} [1-9]/.test(metrics) && /svc_posts_index_merge_step_seconds_count [1-9]/.test(metrics)
      );
    });
    expect(metrics).toMatch(/svc_worker_jobs_total\{pool="posts-fts-merge",outcome="ok"\} [1-9]/);
    expect(metrics).toMatch(/svc_posts_index_merge_step_seconds_count [1-9]/);
    expect(await server.stop()).toBe(0);
    expect(server.stderr()).not.toContain('posts_index_merge_failed');
    const db = new Database(join(dir, 'svc.sqlite'), { readonly: true });
    expect(db.query<{ n: number }, []>("SELECT count(*) AS n FROM posts_fts WHERE posts_fts MATCH 'body'").get()!.n).toBe(6);
    db.close();
  });
});

describe('a failed job', () => {
  test('is logged once, and the next job waits for the pause instead of the next tick', async () => {
    const { db, path, entry } = await served();
    let jobs = 0;
    const logged: string[] = [];
    const error = console.error;
    console.error = (line: string) => void logged.push(line);
    try {
      entry.merges = startPostsIndexMerges(db, path, {
        tickMs: 2,
        failedPauseMs: 60_000,
        run: async () => {
          jobs++;
          throw new Error('the worker could not start');
        },
      });
      await index(db, 1, 1);
      await until('the first job', () => jobs !== 0);
      await index(db, 2, 1);
      await Bun.sleep(40);
    } finally {
      console.error = error;
    }
    expect(jobs).toBe(1);
    expect(logged.map((l) => JSON.parse(l).event)).toEqual(['posts_index_merge_failed']);
  });
});

describe('a step sized by time', () => {
  test('the pages fit the step time at the last pace, within 16 and the most asked for; a quarter of the most before any pace', () => {
    expect(stepPages(null, 8, 512)).toBe(128);
    expect(stepPages(0.05, 8, 512)).toBe(160);
    expect(stepPages(0.001, 8, 512)).toBe(512);
    expect(stepPages(2, 8, 512)).toBe(16);
    expect(stepPages(0.1, 8, 8)).toBe(16);
  });

  test("a step's pages are read from the structure: the steps of one merge add up to the segment it made", () => {
    // An index of eight segments of about twenty pages on one level, merged 16 pages at a time.
    const db = new Database(':memory:');
    db.exec('CREATE VIRTUAL TABLE posts_fts USING fts5(title, body, detail = none)');
    db.exec("INSERT INTO posts_fts (posts_fts, rank) VALUES ('automerge', 0)");
    const add = db.query('INSERT INTO posts_fts (rowid, title, body) VALUES (?, ?, ?)');
    let n = 0;
    for (let s = 0; s < 4; s++)
      db.transaction(() => {
        for (let i = 0; i < 3000; i++, n++) add.run(n + 1, `w${n}`, Array.from({ length: 10 }, (_, k) => `t${(n * 7 + k * 13331) % 50000} common`).join(' '));
      })();
    const read = structureReader(db);
    expect(segmentsPerLevel(read()).length).toBe(1);
    const steps: number[] = [];
    for (let step = mergeStep(db, 16); step.merged; step = mergeStep(db, 16)) steps.push(pagesWritten(step.before, step.after));
    const made = segmentsPerLevel(read());
    expect(made).toEqual([0, 1]);
    const leaves = db.query<{ n: number }, []>('SELECT count(*) AS n FROM posts_fts_data WHERE id >= 137438953472').get()!.n;
    expect(steps.length).toBeGreaterThan(3);
    expect(steps.reduce((a, b) => a + b, 0)).toBe(leaves);
    // Each step but the last wrote what it was asked for, and then to the end of a term.
    for (const w of steps.slice(0, -1)) expect(w).toBeGreaterThanOrEqual(16);
    expect(pagesWritten(read(), read())).toBe(0);
    db.close();
  });
});
