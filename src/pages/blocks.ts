// An article's blocks as HTML for people (the article page and the author preview). Every text is
// escaped; an svg block is an <img> pointing at an asset route, never inlined, so nothing an
// author drew can run in the page; an unknown block type is skipped, never guessed at.
import { esc } from './html.ts';

type Block = Record<string, unknown>;

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/**
 * The heading element of each heading block, so the page outline skips no level: the article
 * title is the page's h1, the shallowest level the article uses is h2, and a heading is never more
 * than one level deeper than the heading before it (an author's 1 → 3 jump becomes h2 → h3).
 */
function headingTags(blocks: readonly Block[]): Map<Block, string> {
  const levelOf = (b: Block) => (typeof b.level === 'number' ? Math.min(6, Math.max(1, Math.trunc(b.level))) : 1);
  const headings = blocks.filter((b) => b.type === 'heading');
  const top = Math.min(...headings.map(levelOf));
  const tags = new Map<Block, string>();
  let prev = 1;
  for (const h of headings) {
    const n = Math.min(6, prev + 1, Math.max(2, levelOf(h) - top + 2));
    tags.set(h, `h${n}`);
    prev = n;
  }
  return tags;
}

function renderBlock(b: Block, assetUrl: (assetId: string) => string, tags: Map<Block, string>): string {
  switch (b.type) {
    case 'paragraph':
      return `<p class="text">${esc(str(b.text))}</p>`;
    case 'quote':
      return `<blockquote><p class="text">${esc(str(b.text))}</p></blockquote>`;
    case 'heading': {
      const tag = tags.get(b) ?? 'h2';
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
  const list = blocks.filter((b): b is Block => typeof b === 'object' && b !== null);
  const tags = headingTags(list);
  return list.map((b) => renderBlock(b, assetUrl, tags)).join('\n');
}
