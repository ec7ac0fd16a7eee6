// The HTML scanner. Elements, attributes and the code inside <script>/<style> are read with Bun's
// HTMLRewriter (lol-html, a spec tokenizer): happy-dom 21 drops everything after an <svg><script>
// pair, so a scan built on it alone could be blinded by one crafted tag. happy-dom renders the
// visible text (text.ts) once scripts and styles are removed.
import { at, type Finding, FindingError, found, lineCol, type Origin } from './finding.ts';
import { scanCss, scanStyleAttribute } from './css.ts';
import { leavesSite, scanJs } from './js.ts';
import { CREDIT_ID, CREDIT_TAG } from './limits.ts';

const URL_ATTRS = new Set(['href', 'src', 'action', 'formaction', 'xlink:href', 'data', 'poster', 'background']);
const JS_TYPES = /^(?:|module|text\/javascript|application\/javascript|text\/ecmascript|application\/ecmascript|application\/x-javascript|text\/jscript)$/;
const PRELOADS = /(?:^|\s)(?:modulepreload|preload|prefetch|import)(?:\s|$)/;
const MAX_SRCDOC_DEPTH = 3;

/** Strips control characters and blanks that browsers ignore inside a URL (`java\tscript:`). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what a browser drops inside a URL
const squash = (url: string) => url.replace(/[\u0000-\u0020]/g, '').toLowerCase();

/** Scans one HTML document (a file, or an iframe's srcdoc). */
export function scanHtml(source: string, file: string, depth = 0, base: Origin = { file, line: 1, column: 1 }): void {
  const lower = source.toLowerCase();
  let cursor = 0;
  let finding = null as Finding | null;
  // Runs a check, keeping the first finding: HTMLRewriter handlers must not throw.
  const guard = (fn: () => void) => {
    if (finding) return;
    try {
      fn();
    } catch (e) {
      if (e instanceof FindingError) finding = e.finding;
      else throw e;
    }
  };
  const originAt = (offset: number): Origin => {
    const { line, column } = lineCol(source, offset);
    return at(base, line, column);
  };
  let script = null as { origin: Origin; module: boolean; text: string; scan: 'js' | 'importmap' | 'none' } | null;
  let style = null as { origin: Origin; text: string } | null;

  const rewriter = new HTMLRewriter()
    .on('*', {
      element(el) {
        guard(() => {
          const tag = el.tagName.toLowerCase();
          const pos = lower.indexOf(`<${tag}`, cursor);
          if (pos >= 0) cursor = pos + 1;
          const origin = originAt(Math.max(0, pos));
          const where = { file: origin.file, line: origin.line, column: origin.column };
          if (tag === CREDIT_TAG) found('LAB_CREDIT_TAMPER', { ...where, reason: 'page_imitates_credit_bar' });
          for (const [rawName, value] of el.attributes) {
            const name = rawName.toLowerCase();
            if ((name === 'id' || name === 'class') && value.toLowerCase().includes(CREDIT_ID)) {
              found('LAB_CREDIT_TAMPER', { ...where, reason: 'page_imitates_credit_bar' });
            }
            if (name.startsWith('on')) scanJs(value, origin);
            else if (name === 'style') scanStyleAttribute(value, origin);
            else if (URL_ATTRS.has(name) && squash(value).startsWith('javascript:')) scanJs(value.slice(value.indexOf(':') + 1), origin);
          }
          const attr = (n: string) => el.getAttribute(n);
          if (tag === 'script') {
            const src = attr('src');
            const type = (attr('type') ?? '').trim().toLowerCase();
            if (src !== null && JS_TYPES.test(type) && leavesSite(src))
              found('LAB_EXTERNAL_SCRIPT', { ...where, reason: 'external_script_src', src: src.slice(0, 200) });
            script = { origin, module: type === 'module', text: '', scan: type === 'importmap' ? 'importmap' : JS_TYPES.test(type) ? 'js' : 'none' };
          } else if (tag === 'style') {
            style = { origin, text: '' };
          } else if (tag === 'link') {
            const rel = (attr('rel') ?? '').toLowerCase();
            if (PRELOADS.test(rel) && leavesSite(attr('href'))) found('LAB_EXTERNAL_SCRIPT', { ...where, reason: 'external_preload', rel });
          } else if (tag === 'meta') {
            if ((attr('http-equiv') ?? '').trim().toLowerCase() === 'refresh') {
              const m = /url\s*=\s*['"]?([^'"]*)/i.exec(attr('content') ?? '');
              if (m && leavesSite(m[1]!)) found('LAB_EXTERNAL_REDIRECT', { ...where, reason: 'meta_refresh' });
            }
          } else if (tag === 'iframe' || tag === 'frame') {
            const srcdoc = attr('srcdoc');
            if (srcdoc !== null) {
              if (depth >= MAX_SRCDOC_DEPTH) found('LAB_INVALID', { ...where, field: 'files', reason: 'too_complex_to_scan' });
              scanHtml(srcdoc, file, depth + 1, origin);
            }
          }
        });
      },
    })
    .on('script', {
      text(chunk) {
        guard(() => {
          if (!script) return;
          script.text += chunk.text;
          if (!chunk.lastInTextNode) return;
          const s = script;
          script = null;
          const offset = lower.indexOf(s.text.slice(0, 200).toLowerCase(), 0);
          const origin = s.text && offset >= 0 ? originAt(offset) : s.origin;
          if (s.scan === 'js') scanJs(s.text, origin, { module: s.module });
          if (s.scan === 'importmap' && /["']\s*(?:[a-z][a-z0-9+.-]*:|\/\/)/i.test(s.text))
            found('LAB_EXTERNAL_SCRIPT', { ...origin, reason: 'external_importmap' });
        });
      },
    })
    .on('style', {
      text(chunk) {
        guard(() => {
          if (!style) return;
          style.text += chunk.text;
          if (!chunk.lastInTextNode) return;
          const s = style;
          style = null;
          const offset = s.text ? lower.indexOf(s.text.slice(0, 200).toLowerCase()) : -1;
          scanCss(s.text, offset >= 0 ? originAt(offset) : s.origin);
        });
      },
    });
  rewriter.transform(source);
  if (finding) throw new FindingError(finding);
}
