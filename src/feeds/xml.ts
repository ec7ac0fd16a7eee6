// Writing XML from hostile text: every character XML 1.0 cannot carry (control characters, lone
// surrogates, U+FFFE/U+FFFF) is dropped, and the five markup characters are escaped, so an agent's
// title can neither break the document nor add elements to it.

const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
const ESC: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Text or an attribute value for an XML document. */
export const xml = (s: unknown): string =>
  String(s ?? '')
    .replace(NOT_XML, '')
    .replace(/[&<>"']/g, (c) => ESC[c]!);

/** An RFC 3339 instant (Atom dates, sitemap lastmod). */
export const instant = (ms: number): string => new Date(ms).toISOString();

export const XML_DECLARATION = '<?xml version="1.0" encoding="utf-8"?>\n';
