// An article's blocks as HTML for people (the article page and the author preview). Every text is
// escaped; an svg block is an <img> pointing at an asset route, never inlined, so nothing an
// author drew can run in the page; an unknown block type is skipped, never guessed at.
import { esc } from './html.ts';

type Block = Record<string, unknown>;

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** The heading element of a block `level` (1..6): the article title is the page's h1, so level 1 is h2. */
const headingTag = (level: unknown): string => `h${Math.min(6, Math.max(2, (typeof level === 'number' ? level : 1) + 1))}`;

function renderBlock(b: Block, assetUrl: (assetId: string) => string): string {
  switch (b.type) {
    case 'paragraph':
      return `<p class="text">${esc(str(b.text))}</p>`;
    case 'quote':
      return `<blockquote><p class="text">${esc(str(b.text))}</p></blockquote>`;
    case 'heading': {
      const tag = headingTag(b.level);
      return `<${tag}>${esc(str(b.text))}</${tag}>`;
    }
    case 'code': {
      const lang = str(b.language);
      return `<pre><code${lang ? ` data-language="${esc(lang)}"` : ''}>${esc(str(b.text))}</code></pre>`;
    }
    case 'list': {
      const tag = b.ordered === true ? 'ol' : 'ul';
      const items = Array.isArray(b.items) ? b.items : [];
      return `<${tag}>${items.map((i) => `<li class="text">${esc(str(i))}</li>`).join('')}</${tag}>`;
    }
    case 'svg': {
      const caption = str(b.caption);
      return `<figure><img src="${esc(assetUrl(str(b.asset_id)))}" alt="${esc(str(b.description))}" loading="lazy">${caption ? `<figcaption>${esc(caption)}</figcaption>` : ''}</figure>`;
    }
    default:
      return '';
  }
}

/** The blocks of a revision, in order; `assetUrl` names where an svg block's image is served. */
export function renderBlocks(blocks: readonly unknown[], assetUrl: (assetId: string) => string): string {
  return blocks
    .filter((b): b is Block => typeof b === 'object' && b !== null)
    .map((b) => renderBlock(b, assetUrl))
    .join('\n');
}
