// The search of /docs (GET /docs/search?q=…): a plain GET form and a page rendered here, so it works
// without JavaScript. It reads the words of every page: each guide's sections (by heading), each
// operation of the reference (summary, description, parameters) and each error code (message and
// fix). A result is a section holding every word of the query (case ignored), the ones naming it
// in their heading or path first, and links to the section's anchor on its page.
import type { CodeTable } from '../http/errors.ts';
import { esc } from '../pages/html.ts';
import { docsHeader } from './header.ts';
import { guides, plainText } from './guides.ts';
import { API_PREFIX, ERRORS_PATH } from './links.ts';
import type { buildOpenApi } from './openapi.ts';
import { mdInline, operations } from './render.ts';

type Doc = ReturnType<typeof buildOpenApi>;

/** The longest query read (a longer one is cut, and the page says so). */
export const SEARCH_MAX_CHARS = 200;
/** The most results one page lists. */
export const SEARCH_MAX_RESULTS = 50;

export interface Entry {
  /** Where it is: the page's address and the section's anchor. */
  href: string;
  /** The page's title and the section's heading, as the result shows them. */
  page: string;
  heading: string;
  /** Lower-cased, for matching. */
  headingKey: string;
  text: string;
  textKey: string;
}

const entry = (href: string, page: string, heading: string, text: string): Entry => ({
  href,
  page,
  heading,
  headingKey: heading.toLowerCase(),
  text,
  textKey: text.toLowerCase(),
});

/** Every searchable section of /docs, in the contents page's order. */
export function searchIndex(doc: Doc, codes: CodeTable): Entry[] {
  const out: Entry[] = [];
  for (const g of guides()) for (const s of g.sections) out.push(entry(`/docs/${g.name}${s.anchor ? `#${s.anchor}` : ''}`, g.title, s.heading, s.text));
  out.push(
    entry(
      ERRORS_PATH,
      'Error codes',
      'Error codes',
      'Every failure is {"error":{"code","message","details"},"docs"}: read code and details, apply the fix, resend.',
    ),
  );
  for (const [code, c] of Object.entries(codes))
    out.push(entry(`${ERRORS_PATH}#${code}`, 'Error codes', code, `${c.status} ${c.message} ${plainText(mdInline(c.fix))}`));
  for (const o of operations(doc)) {
    const params = (o.op.parameters ?? []).map((p) => `${p.name} ${p.description ?? ''}`).join(' ');
    const text = plainText(mdInline(`${o.op.summary ?? ''} ${o.op.description ?? ''} ${params} ${(o.op['x-svc-errors'] ?? []).join(' ')}`));
    out.push(entry(`${API_PREFIX}${o.slug}`, `API: ${o.tag}`, `${o.method.toUpperCase()} ${o.path}`, text));
  }
  return out;
}

const count = (haystack: string, needle: string): number => {
  let n = 0;
  for (let i = haystack.indexOf(needle); i >= 0; i = haystack.indexOf(needle, i + needle.length)) n++;
  return n;
};

/** The sections holding every term, best first: a term in the heading weighs as ten in the text. */
export function search(index: Entry[], terms: string[]): Entry[] {
  if (terms.length === 0) return [];
  const scored: { e: Entry; score: number; at: number }[] = [];
  index.forEach((e, at) => {
    let score = 0;
    for (const t of terms) {
      const inHeading = count(e.headingKey, t);
      const inText = count(e.textKey, t);
      if (inHeading + inText === 0) return;
      score += 10 * inHeading + Math.min(inText, 10);
    }
    scored.push({ e, score, at });
  });
  return scored.sort((a, b) => b.score - a.score || a.at - b.at).map((s) => s.e);
}

/** A piece of the text around the first term, escaped, each term marked. */
function snippet(text: string, terms: string[]): string {
  const key = text.toLowerCase();
  const first = Math.min(...terms.map((t) => key.indexOf(t)).filter((i) => i >= 0), key.length);
  const start = Math.max(0, first - 80);
  const piece = `${start > 0 ? '…' : ''}${text.slice(start, start + 240)}${start + 240 < text.length ? '…' : ''}`;
  const pattern = new RegExp(`(${terms.map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})`, 'gi');
  return piece
    .split(pattern)
    .map((part, i) => (i % 2 === 1 ? `<mark>${esc(part)}</mark>` : esc(part)))
    .join('');
}

/** The search page for a query (the query as sent: any value, cut to SEARCH_MAX_CHARS). */
export function renderSearch(index: Entry[], raw: string): { title: string; html: string } {
  const cut = raw.length > SEARCH_MAX_CHARS;
  const q = [...raw].slice(0, SEARCH_MAX_CHARS).join('').trim();
  const terms = [...new Set(q.toLowerCase().split(/\s+/).filter(Boolean))];
  const found = search(index, terms);
  const shown = found.slice(0, SEARCH_MAX_RESULTS);
  const summary =
    terms.length === 0
      ? '<p>Type words to find in the guides, the error codes and the API reference.</p>'
      : `<p>${found.length === 0 ? 'No section holds' : `${found.length} section${found.length === 1 ? '' : 's'} hold`} every word of <strong>${esc(q)}</strong>${
          found.length > shown.length ? `; the first ${shown.length} are shown` : ''
        }.${cut ? ` Only the first ${SEARCH_MAX_CHARS} characters of the query were read.` : ''}</p>`;
  const results = shown
    .map(
      (e) => `<li><a href="${esc(e.href)}">${esc(e.heading)}</a> <small>${esc(e.page)}</small><br><small>${snippet(e.text || e.heading, terms)}</small></li>`,
    )
    .join('');
  return {
    title: q ? `${q}: search` : 'Search',
    html: `${docsHeader([{ label: 'Search' }], q)}<h1>${q ? `Search: ${esc(q)}` : 'Search'}</h1>${summary}${results ? `<ol class="items">${results}</ol>` : ''}`,
  };
}
