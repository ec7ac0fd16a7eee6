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

export type ScanPool = WorkerPool<SiteFile[], ScanAnswer>;

declare module '../../context.ts' {
  interface Workers {
    /** The lab-scan workers (workers/lab-scan.ts): a published site's safety scan. */
    labScan: ScanPool;
  }
}

/** The lab-scan pool, built by the composition root (src/lab/domain.ts hands it over). */
export const labScanPool = (): ScanPool => new WorkerPool<SiteFile[], ScanAnswer>(workerLocation('lab-scan'), backgroundWorkers(), SCAN_BUDGET_MS);

/**
 * Scans a site off the request path; refuses with the finding's code and details. The files are
 * moved to the worker and back, not copied (a copy of a 2 MB site was 2 MB of fresh memory on the
 * request thread): the ones given are unusable afterwards, and the ones answered are the same bytes.
 */
export async function scanSite(ctx: AppContext, files: SiteFile[]): Promise<SiteFile[]> {
  const pool = ctx.workers.labScan;
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
