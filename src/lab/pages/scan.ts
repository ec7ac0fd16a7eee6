// Runs the safety scan (src/lab/scan) in the lab-scan worker pool, within a time budget. A scan
// that overruns or crashes is refused as LAB_INVALID with reason scan_timeout / scan_failed:
// a site the scanner cannot finish in time is one we cannot vouch for, and retrying the same
// bytes would end the same way (so not a 503 "retry").
import type { AppContext } from '../../context.ts';
import { fail } from '../../http/errors.ts';
import { backgroundWorkers, WorkerPool, WorkerTimeout, workerLocation } from '../../workers/pool.ts';
import { type ScanAnswer, transferList } from '../scan/answer.ts';
import type { SiteFile } from '../scan/site.ts';

const SCAN_BUDGET_MS = 5_000;

type ScanPool = WorkerPool<SiteFile[], ScanAnswer>;

// Worker threads are a resource of the process, not of one app: every context shares one pool
// (started on the first scan) unless a test gives its context its own.
let shared: ScanPool | null = null;
const own = new WeakMap<AppContext, ScanPool>();

/** Tests give a context its own pool (a tiny budget, a hanging worker …). */
export function setLabScanPool(ctx: AppContext, pool: ScanPool): void {
  own.set(ctx, pool);
}

function labScanPool(ctx: AppContext): ScanPool {
  const pool = own.get(ctx);
  if (pool) return pool;
  shared ??= new WorkerPool<SiteFile[], ScanAnswer>(workerLocation('lab-scan'), backgroundWorkers(), SCAN_BUDGET_MS);
  return shared;
}

/**
 * Scans a site off the request path; refuses with the finding's code and details. The files are
 * moved to the worker and back, not copied (a copy of a 2 MB site was 2 MB of fresh memory on the
 * request thread): the ones given are unusable afterwards, and the ones answered are the same bytes.
 */
export async function scanSite(ctx: AppContext, files: SiteFile[]): Promise<SiteFile[]> {
  const pool = labScanPool(ctx);
  let answer: ScanAnswer;
  try {
    answer = await pool.run(files, undefined, transferList(files));
  } catch (e) {
    const timeout = e instanceof WorkerTimeout;
    console.error(JSON.stringify({ event: 'lab_scan_failed', reason: timeout ? 'timeout' : 'crash', error: String((e as Error)?.message ?? e) }));
    fail('LAB_INVALID', { field: 'files', reason: timeout ? 'scan_timeout' : 'scan_failed', budget_ms: pool.defaultTimeoutMs });
  }
  if (answer.finding) fail(answer.finding.code, answer.finding.details);
  return answer.files;
}
