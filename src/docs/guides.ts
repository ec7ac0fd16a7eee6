// The guides of /docs: every docs/*.md (./guide-files.ts reads them when the code is built), each
// rendered as its own page, /docs/{name}. Headings get the anchors GitHub gives them, so that a
// link written for the repository (operations.md#backup-and-restore) lands on the same heading
// here; a link to another guide (lab-pages.md, pages.md#x) becomes its page (/docs/lab-pages,
// /docs/pages#x). Loaded with the renderer (./render.ts), never at start-up.
import { Marked, type Tokens } from 'marked';
import { esc } from '../pages/html.ts';
import { guideFiles } from './guide-files.ts' with { type: 'macro' };
import { RESERVED_SECTIONS } from './links.ts';

/** A part of a page the search can point at: its anchor, its heading and its words. */
export interface Section {
  anchor: string;
  heading: string;
  text: string;
}

export interface Guide {
  name: string;
  title: string;
  /** The page's body (HTML, without the site's layout). */
  html: string;
  /** The first heading's section has the anchor '' (the top of the page). */
  sections: Section[];
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };

/** The text a reader sees in a piece of HTML (tags dropped, the five entities decoded). */
export const plainText = (html: string): string =>
  html
    .replace(/<[^>]*>/g, '')
    .replace(/&(?:amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e] ?? e)
    .replace(/\s+/g, ' ')
    .trim();

/** GitHub's heading anchor: lower case, punctuation dropped, each space a hyphen. */
export const headingSlug = (text: string): string =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

/** A relative link of a guide as served: another guide's page, or null for a file of the repository (shown as text). */
function servedHref(href: string): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('/') || href.startsWith('#')) return href;
  const guide = /^(?:\.\/)?([\w-]+)\.md(#.*)?$/.exec(href);
  return guide ? `/docs/${guide[1]}${guide[2] ?? ''}` : null;
}

/** Markdown source as words for the search: code fences, link targets and emphasis marks dropped. */
const markdownWords = (raw: string): string =>
  raw
    .replace(/^```.*$/gm, ' ')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*]/g, '')
    .replace(/[|>#]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

export function renderGuide(name: string, markdown: string): Guide {
  const sections: Section[] = [];
  const ids = new Map<Tokens.Heading, string>();
  const used = new Map<string, number>();
  const marked = new Marked({
    gfm: true,
    renderer: {
      // Our own files, but shown as text like the reference's descriptions: no raw HTML.
      html: ({ text }) => esc(text),
      heading(token) {
        const inner = this.parser.parseInline(token.tokens);
        const id = ids.get(token);
        return `<h${token.depth}${id ? ` id="${esc(id)}"` : ''}>${inner}</h${token.depth}>\n`;
      },
      // A code block wider than the column scrolls: focusable, so a keyboard can scroll it too.
      code({ text, lang }) {
        const language = (lang ?? '').match(/^\S*/)?.[0];
        return `<pre tabindex="0"><code${language ? ` class="language-${esc(language)}"` : ''}>${esc(text.replace(/\n$/, ''))}\n</code></pre>\n`;
      },
      link(token) {
        const href = servedHref(token.href);
        const inner = this.parser.parseInline(token.tokens);
        if (href === null) return inner;
        return `<a href="${esc(href)}"${token.title ? ` title="${esc(token.title)}"` : ''}>${inner}</a>`;
      },
    },
  });
  const tokens = marked.lexer(markdown);
  let title = name;
  let current: Section = { anchor: '', heading: name, text: '' };
  sections.push(current);
  for (const token of tokens) {
    if (token.type !== 'heading') {
      current.text += ` ${markdownWords(token.raw)}`;
      continue;
    }
    const heading = token as Tokens.Heading;
    const text = plainText(marked.parseInline(heading.text, { async: false }));
    if (heading.depth === 1 && title === name) {
      title = text;
      current.heading = text;
      continue;
    }
    // The same heading twice gets -1, -2 … as on GitHub.
    const base = headingSlug(text);
    const seen = used.get(base) ?? 0;
    used.set(base, seen + 1);
    const id = seen === 0 ? base : `${base}-${seen}`;
    ids.set(heading, id);
    current = { anchor: id, heading: text, text: '' };
    sections.push(current);
  }
  for (const s of sections) s.text = s.text.trim();
  return { name, title, html: marked.parser(tokens), sections };
}

let all: Guide[] | null = null;

/** Every guide, rendered once; a file whose name is a page of its own (errors, api, search) is refused. */
export function guides(): Guide[] {
  if (all) return all;
  const files = guideFiles();
  for (const f of files) if (RESERVED_SECTIONS.has(f.name)) throw new Error(`docs/${f.name}.md: /docs/${f.name} is another page; rename the file`);
  all = files.map((f) => renderGuide(f.name, f.markdown));
  return all;
}
