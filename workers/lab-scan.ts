// The lab safety scan, off the request path: a site's files in, the first finding (or null) out,
// with the files.
// The pool gives it a time budget; a scan that overruns is terminated and the publish refused.
import { type ScanAnswer, transferList } from '../src/lab/scan/answer.ts';
import { type SiteFile, scanLabSite } from '../src/lab/scan/site.ts';
import { serveWorker } from '../src/workers/serve.ts';

// The files go back with the verdict, moved rather than copied: the request thread stores them next,
// and a 2 MB copy made for the scan cost it milliseconds of fresh memory.
serveWorker(
  (files: SiteFile[]): ScanAnswer => ({ finding: scanLabSite(files), files }),
  undefined,
  (answer) => transferList(answer.files),
);
