// The HTML scanner. Elements, attributes and the code inside <script>/<style> are read with Bun's
// HTMLRewriter (lol-html, a spec tokenizer): happy-dom 21 drops everything after an <svg><script>
// pair, so a scan built on it alone could be blinded by one crafted tag. happy-dom renders the
// visible text (text.ts) once scripts and styles are removed. HTMLRewriter hands attribute values
// over as written, so each is decoded as the browser decodes it (`&#106;avascript&colon;`) before
// any rule reads it.
import { Window } from 'happy-dom';
import { scanCss, scanStyleAttribute } from './css.ts';
import { at, type Finding, FindingError, found, lineCol, type Origin } from './finding.ts';
import { leavesSite, scanJs } from './js.ts';
import { CREDIT_CLASS, CREDIT_ID, CREDIT_TAG } from './limits.ts';

// Attributes a browser reads as a URL; a script URL in any of them is refused.
const URL_ATTRS = new Set([
  'href',
  'src',
  'action',
  'formaction',
  'xlink:href',
  'data',
  'poster',
  'background',
  'cite',
  'longdesc',
  'ping',
  'manifest',
  'codebase',
  'archive',
  'icon',
  'lowsrc',
  'dynsrc',
]);
// Attributes that load or navigate to a document, where a data: document is a page from nowhere.
const NAVIGABLE = new Set(['href', 'action', 'formaction', 'xlink:href', 'data']);
const FRAMES = new Set(['iframe', 'frame', 'embed', 'object']);
// SVG animation values that become an attribute (href) when the animation runs.
const ANIMATES = new Set(['set', 'animate']);
const ANIMATED_VALUES = ['to', 'from', 'values', 'by'];
const SCRIPT_SCHEMES = new Set(['javascript', 'vbscript', 'livescript']);
const DATA_DOCUMENT = /^data:(?:text\/html|application\/xhtml\+xml|image\/svg\+xml|text\/xml|application\/xml)\b/;
const JS_TYPES = /^(?:|module|text\/javascript|application\/javascript|text\/ecmascript|application\/ecmascript|application\/x-javascript|text\/jscript)$/;
const PRELOADS = /(?:^|\s)(?:modulepreload|preload|prefetch|import)(?:\s|$)/;
const MAX_SRCDOC_DEPTH = 3;

/** Strips control characters and blanks that browsers ignore inside a URL (`java\tscript:`). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what a browser drops inside a URL
const squash = (url: string) => url.replace(/[\u0000-\u0020]/g, '').toLowerCase();

let decoder: { createElement(tag: string): { innerHTML: string; content: { firstElementChild: { getAttribute(n: string): string | null } | null } } } | null =
  null;
/** An attribute value as the browser decodes it (character references, named and numeric). */
function decodeAttribute(raw: string): string {
  if (!raw.includes('&')) return raw;
  decoder ??= new Window({
    settings: { disableJavaScriptFileLoading: true, disableCSSFileLoading: true, disableIframePageLoading: true, disableComputedStyleRendering: true },
  }).document as unknown as typeof decoder;
  const template = decoder!.createElement('template');
  template.innerHTML = `<a x="${raw.replace(/"/g, '&quot;')}"></a>`;
  return template.content.firstElementChild?.getAttribute('x') ?? raw;
}

const percentDecode = (s: string) => s.replace(/%([0-9a-f]{2})/gi, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)));

/** Refuses script URLs anywhere, and data: documents where a browser would load or open them. */
function checkUrl(tag: string, name: string, value: string, origin: Origin, where: object): void {
  const url = squash(value);
  const scheme = /^([a-z][a-z0-9+.-]*):/.exec(url)?.[1] ?? '';
  if (SCRIPT_SCHEMES.has(scheme)) {
    if (scheme === 'javascript') {
      // Its code first, so a wallet call or a redirect is answered as such.
      try {
        scanJs(percentDecode(value.slice(value.indexOf(':') + 1)), origin);
      } catch (e) {
        // Code that does not parse is no rule of its own here: the URL is refused below anyway.
        if (!(e instanceof FindingError) || e.finding.code !== 'LAB_BAD_TYPE') throw e;
      }
    }
    found('LAB_EXTERNAL_SCRIPT', {
      ...where,
      reason: 'script_url',
      attribute: name,
      scheme,
      fix: 'move the code into a script file and bind it with addEventListener',
    });
  }
  if (scheme === 'data' && (NAVIGABLE.has(name) || (name === 'src' && FRAMES.has(tag))) && DATA_DOCUMENT.test(url)) {
    found('LAB_EXTERNAL_REDIRECT', { ...where, reason: 'data_document_url', attribute: name });
  }
}

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
          for (const [rawName, raw] of el.attributes) {
            const name = rawName.toLowerCase();
            const value = decodeAttribute(raw);
            // Only the bar's own names make an imitation (ids and classes match case-insensitively
            // in quirks mode); `svc-credit-note` is another element.
            if (name === 'id' && value.trim().toLowerCase() === CREDIT_ID) found('LAB_CREDIT_TAMPER', { ...where, reason: 'page_imitates_credit_bar' });
            if (
              name === 'class' &&
              value
                .toLowerCase()
                .split(/[\t\n\f\r ]+/)
                .includes(CREDIT_CLASS)
            ) {
              found('LAB_CREDIT_TAMPER', { ...where, reason: 'page_imitates_credit_bar' });
            }
            if (name.startsWith('on')) scanJs(value, origin);
            else if (name === 'style') scanStyleAttribute(value, origin);
            else if (URL_ATTRS.has(name) || (ANIMATES.has(tag) && ANIMATED_VALUES.includes(name))) {
              for (const part of name === 'values' ? value.split(';') : [value]) checkUrl(tag, name, part, origin, where);
            }
          }
          const attr = (n: string) => {
            const raw = el.getAttribute(n);
            return raw === null ? null : decodeAttribute(raw);
          };
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
          } else if (tag === 'base') {
            // A base address elsewhere makes every relative script and link of the page load from there.
            const href = attr('href');
            if (href !== null && leavesSite(href)) found('LAB_EXTERNAL_SCRIPT', { ...where, reason: 'external_base' });
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
