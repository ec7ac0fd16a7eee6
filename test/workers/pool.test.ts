import { afterEach, describe, expect, test } from 'bun:test';
import { rmSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { until } from '../until.ts';
import { holdFile } from './fixtures/hold.ts';
import { backgroundWorkers, WorkerCrash, WorkerPool, WorkerTimeout, workerLocation } from '../../src/workers/pool.ts';

type In = { op: 'echo' | 'throw' | 'hang' | 'crash'; value?: string };
const pools: WorkerPool<In, { echoed?: string }>[] = [];
const pool = (size = 2, timeout = 2_000) => {
  const p = new WorkerPool<In, { echoed?: string }>(new URL('./fixtures/test-worker.ts', import.meta.url), size, timeout);
  pools.push(p);
  return p;
};
afterEach(() => {
  for (const p of pools.splice(0)) p.close();
});

describe('WorkerPool', () => {
  test('buffers in the transfer list are moved to the worker, not copied; others are copied', async () => {
    // workers/ping.ts answers its input: the bytes come back as the worker received them.
    const p = new WorkerPool<{ bytes: Uint8Array }, { bytes: Uint8Array }>(workerLocation('ping'), 1, 10_000);
    try {
      const moved = new Uint8Array([1, 2, 3]);
      const back = await p.run({ bytes: moved }, undefined, [moved.buffer]);
      expect(moved.byteLength).toBe(0); // detached here: the worker owns it now
      expect([...back.bytes]).toEqual([1, 2, 3]);
      const copied = new Uint8Array([4, 5]);
      expect([...(await p.run({ bytes: copied })).bytes]).toEqual([4, 5]);
      expect(copied.byteLength).toBe(2);
    } finally {
      p.close();
    }
  });

  test('a worker can move buffers of its answer back (transferOf): its own reference is detached', async () => {
    type In = { op: 'give'; bytes: Uint8Array } | { op: 'kept' };
    const p = new WorkerPool<In, { bytes?: Uint8Array; keptBytes?: number }>(new URL('./fixtures/return-worker.ts', import.meta.url), 1, 10_000);
    try {
      const back = await p.run({ op: 'give', bytes: new Uint8Array([7, 8, 9]) });
      expect([...back.bytes!]).toEqual([7, 8, 9]);
      expect((await p.run({ op: 'kept' })).keptBytes).toBe(0); // moved out, not copied
    } finally {
      p.close();
    }
  });

  test('runs jobs and returns their results, more jobs than workers included', async () => {
    const p = pool(2);
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => p.run({ op: 'echo', value: `v${i}` })));
    expect(results.map((r) => r.echoed)).toEqual(Array.from({ length: 10 }, (_, i) => `v${i}`));
  });

  test('an error thrown in the worker fails that job only', async () => {
    const p = pool(1);
    await expect(p.run({ op: 'throw' })).rejects.toThrow('refused input');
    expect((await p.run({ op: 'echo', value: 'after' })).echoed).toBe('after');
  });

  test('a hung worker is terminated at its budget and replaced', async () => {
    const p = pool(1, 300);
    await expect(p.run({ op: 'hang' })).rejects.toBeInstanceOf(WorkerTimeout);
    expect(p.replaced).toBe(1);
    expect((await p.run({ op: 'echo', value: 'alive' })).echoed).toBe('alive');
  });

  test('a job’s budget counts from the started worker: a start slower than the budget is not a timeout', async () => {
    const hold = holdFile();
    rmSync(hold, { force: true });
    try {
      const p = new WorkerPool<{ value: string }, { echoed?: string }>(new URL('./fixtures/slow-start-worker.ts', import.meta.url), 1, 500);
      pools.push(p as never);
      const answer = p.run({ value: 'late' });
      // The worker stays in its start for five budgets, then loads; only then does the job's time run.
      await Bun.sleep(2_500);
      writeFileSync(hold, '');
      expect((await answer).echoed).toBe('late');
      expect(p.replaced).toBe(0);
    } finally {
      rmSync(hold, { force: true });
    }
  });

  test('a crashed worker is replaced and the queue goes on', async () => {
    const p = pool(1, 2_000);
    const crash = p.run({ op: 'crash' });
    const next = p.run({ op: 'echo', value: 'next' });
    await expect(crash).rejects.toBeInstanceOf(Error);
    expect((await next).echoed).toBe('next');
  });

  test('a worker that asks to be retired answers its job, then its thread ends and the next job gets a new one', async () => {
    const p = new WorkerPool<{ retire: boolean }, { thread: number }>(new URL('./fixtures/retire-worker.ts', import.meta.url), 1, 10_000);
    try {
      const a = (await p.run({ retire: false })).thread;
      expect((await p.run({ retire: false })).thread).toBe(a);
      expect((await p.run({ retire: true })).thread).toBe(a); // answered before it ends
      expect(p.retired).toBe(1);
      const b = (await p.run({ retire: false })).thread;
      expect(b).not.toBe(a);
      expect(p.replaced).toBe(0); // not a crash
    } finally {
      p.close();
    }
  });

  test('a pool with idleMs ends a worker that has waited that long for a job; the next job starts another', async () => {
    const p = new WorkerPool<{ retire: boolean }, { thread: number }>(new URL('./fixtures/retire-worker.ts', import.meta.url), 1, 10_000, { idleMs: 50 });
    try {
      const [a, b] = await Promise.all([p.run({ retire: false }), p.run({ retire: false })]);
      expect(b.thread).toBe(a.thread); // one after the other: no idle time in between
      await until('the idle worker to end', () => p.retired === 1);
      expect((await p.run({ retire: false })).thread).not.toBe(a.thread);
      expect(p.replaced).toBe(0);
    } finally {
      p.close();
    }
  });

  test('closing fails pending work', async () => {
    const p = pool(1, 5_000);
    const hung = p.run({ op: 'hang' });
    const queued = p.run({ op: 'echo' });
    p.close();
    await expect(hung).rejects.toBeInstanceOf(WorkerCrash);
    await expect(queued).rejects.toBeInstanceOf(WorkerCrash);
  });
});

describe('backgroundWorkers: every core but one stays free for requests', () => {
  test.each([
    [1, 1],
    [2, 1],
    [3, 2],
    [4, 3],
    [16, 15],
    [0, 1],
  ])('%p cores: %p workers', (cores, workers) => {
    expect(backgroundWorkers(cores)).toBe(workers);
  });

  test('a pool sized by default leaves a core to the request thread', () => {
    const p = new WorkerPool(new URL('./fixtures/test-worker.ts', import.meta.url));
    expect(p.size).toBe(backgroundWorkers());
    expect(p.size).toBeLessThan(Math.max(2, availableParallelism()));
    p.close();
  });
});
