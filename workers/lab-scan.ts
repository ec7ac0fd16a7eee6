// The lab safety scan, off the request path: a site's files in, the first finding (or null) out.
// The pool gives it a time budget; a scan that overruns is terminated and the publish refused.
import { scanLabSite, type SiteFile } from '../src/lab/scan/site.ts';
import { serveWorker } from '../src/workers/serve.ts';

serveWorker((files: SiteFile[]) => scanLabSite(files));
