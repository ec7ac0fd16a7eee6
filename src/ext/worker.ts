// Runs the mirror's processing in the ext-process worker pool, within a time budget. A batch the
// worker cannot finish is refused whole with nothing stored; the fetcher splits it and retries.
import type { AppContext } from '../context.ts';
import { fail } from '../http/errors.ts';
import { backgroundWorkers, WorkerPool, WorkerTimeout, workerLocation } from '../workers/pool.ts';
import type { Processed } from './process/process.ts';
import type { PostInput } from './process/sanitize.ts';

const BUDGET_MS = 10_000;
type Input = { posts: PostInput[]; ownHost: string | null };
type ProcessPool = WorkerPool<Input, Processed[]>;

declare module '../context.ts' {
  interface Workers {
    /** The ext-process workers (workers/ext-process.ts): the mirror's processing of a batch. */
    extProcess: ProcessPool;
  }
}

/** The ext-process pool, built by the composition root (src/ext/domain.ts hands it over). */
export const extProcessPool = (): ProcessPool => new WorkerPool<Input, Processed[]>(workerLocation('ext-process'), backgroundWorkers(), BUDGET_MS);

export async function processInWorker(ctx: AppContext, posts: PostInput[]): Promise<Processed[]> {
  if (posts.length === 0) return [];
  try {
    return await ctx.workers.extProcess.run({ posts, ownHost: new URL(ctx.config.baseUrl).hostname });
  } catch (e) {
    const timeout = e instanceof WorkerTimeout;
    console.error(JSON.stringify({ event: 'ext_process_failed', reason: timeout ? 'timeout' : 'crash', error: String((e as Error)?.message ?? e) }));
    fail(
      'INVALID_REQUEST',
      { field: 'posts', reason: timeout ? 'processing_timeout' : 'processing_failed' },
      'The batch could not be processed; nothing was stored. Send smaller batches.',
    );
  }
}
