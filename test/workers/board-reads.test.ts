// src/workers/reads.ts: where a board read runs. A file database: the board-reads worker; an
// in-memory one: in process; a worker that fails: in process, the same answer.
import { afterEach, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, openMemoryDatabase } from '../../src/db/open.ts';
import { migrate } from '../../src/db/migrate.ts';
import { labSummaryOf } from '../../src/lab/conventions/states.ts';
import { WorkerPool, workerLocation } from '../../src/workers/pool.ts';
import type { BoardReadJob } from '../../src/workers/board-reads.ts';
import { boardRead, boardReadStats, databaseFile, setBoardReadsPool } from '../../src/workers/reads.ts';

const read = { kind: 'lab-summary' as const, baseUrl: 'http://svc.test', sinceMs: 0, max: 50 };

afterEach(() => setBoardReadsPool(null));

describe('board reads off the request thread', () => {
  test('a database in a file is read by the worker; an in-memory one has no file and is read in process', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-board-read-'));
    const pool = new WorkerPool<BoardReadJob, unknown>(workerLocation('board-reads'), 1, 30_000);
    setBoardReadsPool(pool);
    try {
      const file = openDatabase(dir);
      migrate(file);
      expect(databaseFile(file)).toBe(join(dir, 'svc.sqlite'));
      const before = { ...boardReadStats };
      const answer = await boardRead(file, read, async () => {
        throw new Error('the in-process read must not run for a file database');
      });
      expect(answer).toEqual({ since: new Date(0).toISOString(), experiments: [], proposals: [], requests: [] });
      expect(boardReadStats.worker).toBe(before.worker + 1);
      file.close();

      const memory = openMemoryDatabase();
      migrate(memory);
      expect(databaseFile(memory)).toBeNull();
      const inProcess = await boardRead(memory, read, async () => labSummaryOf(memory, read.baseUrl, read.sinceMs, read.max));
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
    const pool = new WorkerPool<BoardReadJob, unknown>(workerLocation('board-reads'), 1, 30_000);
    pool.close(); // every job fails at once
    setBoardReadsPool(pool);
    const errors = console.error;
    const logged: string[] = [];
    console.error = (line: string) => logged.push(line);
    try {
      const file = openDatabase(dir);
      migrate(file);
      const before = { ...boardReadStats };
      const answer = await boardRead(file, read, async () => labSummaryOf(file, read.baseUrl, read.sinceMs, read.max));
      expect(answer.since).toBe(new Date(0).toISOString());
      expect(boardReadStats.fallback).toBe(before.fallback + 1);
      expect(JSON.parse(logged[0]!)).toMatchObject({ event: 'board_read_fallback', read: 'lab-summary' });
      file.close();
    } finally {
      console.error = errors;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
