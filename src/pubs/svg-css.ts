// How the svg check reads CSS (every attribute value and style sheet of an image): whether it
// could fetch anything from outside the image. Shared by the full check (sanitize.ts) and its fast
// path (svg-fast.ts).
export const LOCAL_REF = /^#[A-Za-z_][\w.-]*$/;
// CSS whitespace is ASCII only: a no-break space before "#id" makes another (same-origin) URL.
export const trimCss = (s: string): string => s.replace(/^[\t\n\f\r ]+|[\t\n\f\r ]+$/g, '');
const CSS_BLANK = /[\t\n\f\r ]/;
// The other ways CSS can fetch: an import, and the image functions that take a bare string (a
// function's name is followed by its parenthesis with nothing between), looked for in the raw text
// of every attribute (presentation attributes and animation values are CSS values too) and style
// sheet, whatever surrounds them; and every "url(", wherever it stands.
const FETCH_ANYWHERE = /@import|(?:image-set|image|cross-fade|element|src|paint)\(/i;
const URL_ANYWHERE = /url[\t\n\f\r ]*\(/gi;
const IDENT_CHAR = /[A-Za-z0-9_-]/;

/**
 * The url() arguments of CSS read the way a browser tokenizes it (CSS Syntax §4; a backslash is
 * refused before this, so there are no escapes): comments are skipped, strings stay whole (a "/*"
 * inside one is text, not a comment), and each url( gives its argument: a quoted string, or an
 * unquoted url token that runs to the next ")" with comments and quotes in it as plain characters.
 * `bad` for what a browser would read differently or recover from: an unclosed string or url, or a
 * quoted url( not closed right after its string.
 */
function cssUrls(t: string): { urls: string[]; bad: boolean } {
  const urls: string[] = [];
  const n = t.length;
  let i = 0;
  while (i < n) {
    if (t.startsWith('/*', i)) {
      const end = t.indexOf('*/', i + 2);
      i = end < 0 ? n : end + 2;
      continue;
    }
    const c = t[i]!;
    if (c === '"' || c === "'") {
      const end = t.indexOf(c, i + 1);
      if (end < 0 || /[\n\r\f]/.test(t.slice(i + 1, end))) return { urls, bad: true };
      i = end + 1;
      continue;
    }
    const url = /^url[\t\n\f\r ]*\(/i.exec(t.slice(i, i + 40));
    if (url && (i === 0 || !IDENT_CHAR.test(t[i - 1]!))) {
      let j = i + url[0].length;
      while (j < n && CSS_BLANK.test(t[j]!)) j++;
      const q = t[j];
      if (q === '"' || q === "'") {
        const end = t.indexOf(q, j + 1);
        if (end < 0 || /[\n\r\f]/.test(t.slice(j + 1, end))) return { urls, bad: true };
        urls.push(t.slice(j + 1, end));
        let k = end + 1;
        while (k < n && CSS_BLANK.test(t[k]!)) k++;
        if (t[k] !== ')') return { urls, bad: true };
        i = k + 1;
      } else {
        const end = t.indexOf(')', j);
        if (end < 0) return { urls, bad: true };
        urls.push(t.slice(j, end).replace(/[\t\n\f\r ]+$/, ''));
        i = end + 1;
      }
      continue;
    }
    i++;
  }
  return { urls, bad: false };
}

/** Whether a value could fetch: an import, an image function, or a url() naming anything but a local #id. */
export function fetches(raw: string): boolean {
  if (!raw.includes('(') && !raw.includes('@')) return false; // no function, no at-rule: the common case, kept cheap
  // "<!--" and "-->" are tokens of their own to CSS (CDO, CDC): after "<!--" a browser reads "url("
  // as a url where a simple reading sees an identifier going on. An image needs neither: refused.
  if (raw.includes('<!--') || raw.includes('-->')) return true;
  // Belt and braces: whatever a tokenizer makes of the context (a string, a comment, a token run
  // on), nothing that looks like a fetch may appear at all: no fetching at-rule or function name
  // anywhere, and every "url(" anywhere names exactly a local #id.
  if (FETCH_ANYWHERE.test(raw)) return true;
  for (const m of raw.matchAll(URL_ANYWHERE)) {
    const start = (m.index ?? 0) + m[0].length;
    const end = raw.indexOf(')', start);
    if (end < 0) return true;
    const arg = trimCss(raw.slice(start, end));
    if (!LOCAL_REF.test(/^(['"])([\s\S]*)\1$/.exec(arg)?.[2] ?? arg)) return true;
  }
  const css = cssUrls(raw);
  return css.bad || css.urls.some((u) => !LOCAL_REF.test(u));
}
