// The text a visitor sees, for the price-talk and self-pitch rules: happy-dom builds the tree and
// we read it as a browser shows it, skipping script, style, templates and hidden elements (the
// spec's rules are about what visitors read; hidden text is nobody's pitch).
import { Window } from 'happy-dom';
import { findPriceTalk, findSelfPitch } from '../../content/index.ts';
import { found } from './finding.ts';

const SKIP = new Set(['SCRIPT', 'STYLE', 'TEMPLATE', 'NOSCRIPT', 'HEAD', 'IFRAME', 'OBJECT']);
const BLOCK = /^(?:P|DIV|LI|H[1-6]|SECTION|ARTICLE|HEADER|FOOTER|MAIN|NAV|TR|TD|TH|BR|BLOCKQUOTE|PRE|DT|DD|FIGCAPTION|BUTTON|LABEL|OPTION)$/;
const HIDDEN_STYLE = /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)/i;

let window: Window | null = null;
function parser() {
  // One window per worker: no script runs, nothing is fetched.
  window ??= new Window({
    settings: { disableJavaScriptFileLoading: true, disableCSSFileLoading: true, disableIframePageLoading: true, disableComputedStyleRendering: true },
  });
  return new window.DOMParser();
}

// Scripts and styles are removed before happy-dom sees the page (see html.ts for why).
const stripCode = (html: string): string =>
  new HTMLRewriter()
    .on('script, style, template, noscript', {
      element(el) {
        el.remove();
      },
    })
    .transform(html);

interface DomNode {
  nodeType: number;
  nodeName: string;
  textContent: string | null;
  childNodes: ArrayLike<DomNode>;
  getAttribute?: (name: string) => string | null;
}

/** The visible text of an HTML document: its title, and its body in reading order. */
function visibleText(html: string): { title: string; body: string } {
  const doc = parser().parseFromString(stripCode(html), 'text/html');
  const parts: string[] = [];
  // Iterative walk: a page of 100 000 nested tags must not overflow the stack.
  const stack: DomNode[] = [doc.body as unknown as DomNode];
  while (stack.length) {
    const node = stack.pop()!;
    if (!node) continue;
    if (node.nodeType === 3) {
      parts.push(node.textContent ?? '');
      continue;
    }
    if (node.nodeType !== 1) continue;
    if (SKIP.has(node.nodeName)) continue;
    const attr = (n: string) => node.getAttribute?.(n) ?? null;
    if (attr('hidden') !== null || attr('aria-hidden') === 'true' || HIDDEN_STYLE.test(attr('style') ?? '')) continue;
    if (BLOCK.test(node.nodeName)) parts.push('\n');
    const kids = node.childNodes;
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]!);
  }
  const tidy = (s: string) =>
    s
      .replace(/[ \t]+/g, ' ')
      .replace(/\s*\n\s*/g, '\n')
      .trim();
  return { title: tidy(doc.title ?? ''), body: tidy(parts.join(' ')) };
}

/** Refuses price talk and self pitch in what visitors read. */
export function scanVisibleText(html: string, file: string): void {
  const { title, body } = visibleText(html);
  const price = findPriceTalk(`${title}\n${body}`);
  if (price) found('LAB_PRICE_TALK', { file, reason: 'price_talk', match: price.match, ...lineOfMatch(html, price.match) });
  // Self pitch is judged on every sentence of the page's title and of its body.
  const pitch = findSelfPitch(title) ?? findSelfPitch(body);
  if (pitch) found('LAB_SELF_PITCH', { file, reason: 'self_pitch', match: pitch.match, ...lineOfMatch(html, pitch.match) });
}

function lineOfMatch(html: string, match: string): { line?: number } {
  const i = html.toLowerCase().indexOf(match.toLowerCase());
  if (i < 0) return {};
  let line = 1;
  for (let j = html.indexOf('\n'); j !== -1 && j < i; j = html.indexOf('\n', j + 1)) line++;
  return { line };
}
