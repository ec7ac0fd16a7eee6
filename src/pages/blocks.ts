// An article's blocks as HTML for people (the article page and the author preview). Every text is
// escaped; an svg block is an <img> pointing at an asset route, never inlined, so nothing an
// author drew can run in the page; an unknown block type is skipped, never guessed at. Agent text
// may be in any script: each text element has dir="auto", so a right-to-left paragraph reads from
// the right and its punctuation stays on its side (the page itself is lang="en", left to right).
import type { AppContext } from '../context.ts';
import { revisionAssets } from '../pubs/lookups.ts';
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

function renderBlock(b: Block, assetUrl: (assetId: string) => string, tags: Map<Block, string>, sizeOf: (assetId: string) => ImageSize | null): string {
  switch (b.type) {
    case 'paragraph':
      return `<p class="text" dir="auto">${esc(str(b.text))}</p>`;
    case 'quote':
      return `<blockquote><p class="text" dir="auto">${esc(str(b.text))}</p></blockquote>`;
    case 'heading': {
      const tag = tags.get(b) ?? 'h2';
      return `<${tag} dir="auto">${esc(str(b.text))}</${tag}>`;
    }
    case 'code': {
      // A long line scrolls inside the block: focusable and named, so a keyboard can scroll it too
      // (WCAG 2.1.1; axe scrollable-region-focusable), as the /docs pages do.
      const lang = str(b.language);
      const label = lang ? `Code block (${lang})` : 'Code block';
      return `<pre tabindex="0" role="region" aria-label="${esc(label)}"><code${lang ? ` data-language="${esc(lang)}"` : ''}>${esc(str(b.text))}</code></pre>`;
    }
    case 'list': {
      const tag = b.ordered === true ? 'ol' : 'ul';
      const items = Array.isArray(b.items) ? b.items : [];
      return `<${tag}>${items.map((i) => `<li class="text" dir="auto">${esc(str(i))}</li>`).join('')}</${tag}>`;
    }
    case 'svg': {
      const caption = str(b.caption);
      const size = sizeOf(str(b.asset_id));
      const box = size ? ` width="${size.width}" height="${size.height}"${size.fill ? ' class="fill"' : ''}` : '';
      return `<figure><img src="${esc(assetUrl(str(b.asset_id)))}" alt="${esc(str(b.description))}"${box} loading="lazy">${caption ? `<figcaption>${esc(caption)}</figcaption>` : ''}</figure>`;
    }
    default:
      return '';
  }
}

/** An image's box: `fill` when the drawing gave only a viewBox (it spans the column, at that ratio). */
export interface ImageSize {
  width: number;
  height: number;
  fill: boolean;
}

const attr = (tag: string, name: string) => new RegExp(`\\s${name}\\s*=\\s*["']([^"']*)["']`, 'i').exec(tag)?.[1];
const positive = (n: number) => Number.isFinite(n) && n > 0 && n < 1e6;

/**
 * The size of a stored (sanitized) SVG from its root tag: its width and height when both are plain
 * numbers or px, else its viewBox's. Given to the <img> so the page keeps the chart's place before
 * it loads (no layout shift); null when neither is known.
 */
export function svgSize(source: string): ImageSize | null {
  const root = /<svg\b[^>]*>/i.exec(source)?.[0];
  if (!root) return null;
  const px = (v: string | undefined) => (v !== undefined && /^\s*[\d.]+(px)?\s*$/.test(v) ? Number.parseFloat(v) : Number.NaN);
  const [w, h] = [px(attr(root, 'width')), px(attr(root, 'height'))];
  if (positive(w) && positive(h)) return { width: Math.round(w), height: Math.round(h), fill: false };
  const box = (attr(root, 'viewBox') ?? '')
    .trim()
    .split(/[\s,]+/)
    .map(Number);
  if (box.length !== 4 || !positive(box[2]!) || !positive(box[3]!)) return null;
  // Integers at the viewBox's ratio, the longer side 640 px (a column's width): the page draws it
  // column-wide (class fill), a feed reader without the site's stylesheet at that size.
  const scale = 640 / Math.max(box[2]!, box[3]!);
  return { width: Math.max(1, Math.round(box[2]! * scale)), height: Math.max(1, Math.round(box[3]! * scale)), fill: true };
}

/** The boxes of a revision's charts, by asset id, from their stored sources (the article page and its feed entry). */
export function chartSizes(ctx: AppContext, revisionId: string): (assetId: string) => ImageSize | null {
  const sizes = new Map(revisionAssets(ctx, revisionId).map((a) => [a.asset_id, svgSize(a.body)] as const));
  return (assetId) => sizes.get(assetId) ?? null;
}

/**
 * The blocks of a revision, in order; `assetUrl` names where an svg block's image is served and
 * `sizeOf` (when the caller has the assets at hand) its box.
 */
export function renderBlocks(
  blocks: readonly unknown[],
  assetUrl: (assetId: string) => string,
  sizeOf: (assetId: string) => ImageSize | null = () => null,
): string {
  const list = blocks.filter((b): b is Block => typeof b === 'object' && b !== null);
  const tags = headingTags(list);
  return list.map((b) => renderBlock(b, assetUrl, tags, sizeOf)).join('\n');
}
