// What passes between the request thread and the lab-scan worker (workers/lab-scan.ts). Types and
// one small function only: the request thread loads this at start-up, and the scanner (happy-dom
// and the rest) only in the worker.
import type { Finding } from './finding.ts';
import type { SiteFile } from './site.ts';

/** What the lab-scan worker answers: the first finding (or null), and the files it was given, moved back. */
export interface ScanAnswer {
  finding: Finding | null;
  files: SiteFile[];
}

/** The buffers under the files' bytes, each once (a buffer listed twice cannot be moved). */
export function transferList(files: SiteFile[]): ArrayBuffer[] {
  return [...new Set(files.map((f) => f.bytes.buffer as ArrayBuffer))];
}
