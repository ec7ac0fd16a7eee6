// scanLabSite: the whole safety scan of a site, as one pure function the worker runs. The first
// rule a site breaks is answered as the code and details the publish route refuses with; null
// means the site may be published. Key material is looked for first (secrets.ts): a leaked key is
// the most urgent thing to tell the author, whatever else the site breaks. The lab's own checks
// then run cheapest first: paths and types of every file before any parser sees content.
import { scanCss } from './css.ts';
import { type Finding, FindingError } from './finding.ts';
import { scanHtml } from './html.ts';
import { scanJs } from './js.ts';
import { checkPaths, extOf, SERVED_EXTENSIONS, typeOf } from './paths.ts';
import { findSiteSecret } from './secrets.ts';
import { scanVisibleText } from './text.ts';
import { checkType } from './types.ts';

export interface SiteFile {
  path: string;
  bytes: Uint8Array;
}

// Netlify-style rule files would redirect or set headers on a host that honours them.
const RULE_FILES = new Set(['_redirects', '_headers']);

export function scanLabSite(files: readonly SiteFile[]): Finding | null {
  try {
    const secret = findSiteSecret(files);
    if (secret) return secret;
    const bad = checkPaths(files.map((f) => f.path));
    if (bad) return bad;
    const texts: (string | null)[] = [];
    for (const f of files) {
      const name = f.path.slice(f.path.lastIndexOf('/') + 1);
      if (RULE_FILES.has(name)) return { code: 'LAB_EXTERNAL_REDIRECT', details: { file: f.path, reason: 'redirect_rules_file' } };
      const type = typeOf(f.path);
      if (!type) return { code: 'LAB_BAD_TYPE', details: { file: f.path, reason: 'unserved_type', extension: extOf(f.path), allowed: SERVED_EXTENSIONS } };
      texts.push(checkType(f.path, type, f.bytes));
    }
    files.forEach((f, i) => {
      const text = texts[i];
      if (text == null) return;
      const origin = { file: f.path, line: 1, column: 1 };
      const ext = extOf(f.path);
      if (ext === 'html') {
        scanHtml(text, f.path);
        scanVisibleText(text, f.path);
      } else if (ext === 'css') scanCss(text, origin);
      else if (ext === 'js') scanJs(text, origin);
    });
    return null;
  } catch (e) {
    if (e instanceof FindingError) return e.finding;
    // A parser blowing its stack on hostile nesting is a refusal, not a crash of the worker.
    if (e instanceof RangeError) return { code: 'LAB_INVALID', details: { field: 'files', reason: 'too_complex_to_scan' } };
    throw e;
  }
}
