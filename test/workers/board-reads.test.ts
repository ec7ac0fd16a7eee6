// src/workers/reads.ts: where a board read runs. A file database: the board-reads worker; an
// in-memory one: in process; a worker that fails: in process, the same answer. And the worker's
// handler (src/workers/db-reads.ts) answers only the reads it was given.
import { describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, openMemoryDatabase } from '../../src/db/open.ts';
import { migrate } from '../../src/db/migrate.ts';
import { LAB_SUMMARY_READ, labSummaryOf } from '../../src/lab/conventions/states.ts';
import { WorkerPool, workerLocation } from '../../src/workers/pool.ts';
import { type DbReadJob, dbReadsHandler } from '../../src/workers/db-reads.ts';
import { boardRead, boardReadStats, databaseFile } from '../../src/workers/reads.ts';

const read = { baseUrl: 'http://svc.test', sinceMs: 0, max: 50 };

describe('board reads off the request thread', () => {
  test('a database in a file is read by the worker; an in-memory one has no file and is read in process', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-board-read-'));
    const pool = new WorkerPool<DbReadJob, unknown>(workerLocation('board-reads'), 1, 30_000);
    try {
      const file = openDatabase(dir);
      migrate(file);
      expect(databaseFile(file)).toBe(join(dir, 'svc.sqlite'));
      const before = { ...boardReadStats };
      const answer = await boardRead(pool, file, LAB_SUMMARY_READ, read, async () => {
        throw new Error('the in-process read must not run for a file database');
      });
      expect(answer).toEqual({ since: new Date(0).toISOString(), experiments: [], proposals: [], requests: [] });
      expect(boardReadStats.worker).toBe(before.worker + 1);
      file.close();

      const memory = openMemoryDatabase();
      migrate(memory);
      expect(databaseFile(memory)).toBeNull();
      const inProcess = await boardRead(pool, memory, LAB_SUMMARY_READ, read, async () => labSummaryOf(memory, read.baseUrl, read.sinceMs, read.max));
      expect(inProcess).toEqual(answer);
      expect(boardReadStats.inProcess).toBe(before.inProcess + 1);
      expect(boardReadStats.worker).toBe(before.worker + 1);
    } finally {
      pool.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a worker that fails costs speed, not the document: the read runs in process', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-board-read-'));
    const pool = new WorkerPool<DbReadJob, unknown>(workerLocation('board-reads'), 1, 30_000);
    pool.close(); // every job fails at once
    const errors = console.error;
    const logged: string[] = [];
    console.error = (line: string) => logged.push(line);
    try {
      const file = openDatabase(dir);
      migrate(file);
      const before = { ...boardReadStats };
      const answer = await boardRead(pool, file, LAB_SUMMARY_READ, read, async () => labSummaryOf(file, read.baseUrl, read.sinceMs, read.max));
      expect(answer.since).toBe(new Date(0).toISOString());
      expect(boardReadStats.fallback).toBe(before.fallback + 1);
      expect(JSON.parse(logged[0]!)).toMatchObject({ event: 'board_read_fallback', read: 'lab-summary' });
      file.close();
    } finally {
      console.error = errors;
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a worker answers only the reads it serves', () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-board-read-'));
    try {
      const file = openDatabase(dir);
      migrate(file);
      const handle = dbReadsHandler([LAB_SUMMARY_READ]);
      expect(handle({ path: databaseFile(file)!, kind: LAB_SUMMARY_READ.kind, params: read })).toEqual(
        labSummaryOf(file, read.baseUrl, read.sinceMs, read.max),
      );
      expect(() => handle({ path: databaseFile(file)!, kind: 'listed-standings', params: {} })).toThrow('this worker serves no read of kind listed-standings');
      file.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
