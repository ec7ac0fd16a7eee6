// Runs the safety scan (src/lab/scan) in the lab-scan worker pool, within a time budget. A scan
// that overruns or crashes is refused as LAB_INVALID with reason scan_timeout / scan_failed:
// a site the scanner cannot finish in time is one we cannot vouch for, and retrying the same
// bytes would end the same way (so not a 503 "retry").
import type { AppContext } from '../../context.ts';
import { fail } from '../../http/errors.ts';
import { backgroundWorkers, WorkerPool, WorkerTimeout, workerLocation } from '../../workers/pool.ts';
import type { Finding } from '../scan/finding.ts';
import type { SiteFile } from '../scan/site.ts';
import { getOrSet } from '../../lib/maps.ts';

const SCAN_BUDGET_MS = 5_000;

const pools = new WeakMap<AppContext, WorkerPool<SiteFile[], Finding | null>>();

/** Tests give a context its own pool (a tiny budget, a hanging worker …). */
export function setLabScanPool(ctx: AppContext, pool: WorkerPool<SiteFile[], Finding | null>): void {
  pools.set(ctx, pool);
}

function labScanPool(ctx: AppContext): WorkerPool<SiteFile[], Finding | null> {
  return getOrSet(pools, ctx, () => new WorkerPool<SiteFile[], Finding | null>(workerLocation('lab-scan'), backgroundWorkers(), SCAN_BUDGET_MS));
}

/** Scans a site off the request path; refuses with the finding's code and details. */
export async function scanSite(ctx: AppContext, files: SiteFile[]): Promise<void> {
  const pool = labScanPool(ctx);
  let finding: Finding | null;
  try {
    finding = await pool.run(files);
  } catch (e) {
    const timeout = e instanceof WorkerTimeout;
    console.error(JSON.stringify({ event: 'lab_scan_failed', reason: timeout ? 'timeout' : 'crash', error: String((e as Error)?.message ?? e) }));
    fail('LAB_INVALID', { field: 'files', reason: timeout ? 'scan_timeout' : 'scan_failed', budget_ms: pool.defaultTimeoutMs });
  }
  if (finding) fail(finding.code, finding.details);
}
