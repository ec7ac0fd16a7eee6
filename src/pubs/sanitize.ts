// The SVG admission check, run inside the pubs-svg worker: DOMPurify over jsdom (happy-dom and
// linkedom let attacks through, ../shared/guides/libraries.md). A source is accepted only when the
// sanitizer would change nothing but comments and <metadata> contents (they draw nothing) and it
// references nothing outside itself (CSS included); the stored asset is the sanitizer's own
// serialization, so what is served is exactly what was checked.

import { enforceContentRules } from '../content/index.ts';
import { ApiError, type Details, type ErrorCode } from '../http/errors.ts';
import { fetches, LOCAL_REF, trimCss } from './svg-css.ts';
import { type FastVerdict, fastSvg } from './svg-fast.ts';

export interface SvgInput {
  where: string; // blocks[i].source
  source: string;
  maxDepth: number;
  blockIndex?: number; // when given, the text the image draws is scanned by the content rules too
  maxUseExpansion?: number; // elements all <use> together may copy (USE_EXPANSION_MAX)
}

export type SvgVerdict =
  | { ok: true; where: string; sanitized: string; text: string; drawn?: RulesVerdict }
  | { ok: false; where: string; reason: string; removed?: string[]; found?: string[]; max_depth?: number; max_use_expansion?: number };

/** The content rules' answer on a value: the error they would raise, as data that crosses threads. */
export type RulesVerdict = { ok: true } | { ok: false; code: ErrorCode; details: Details };

/** One job of the pubs-svg worker: an svg source. */
export type PubsJob = { kind: 'svg' } & SvgInput;
export type PubsJobResult = SvgVerdict;

/** enforceContentRules, answered as data: the same code and details it would throw. */
export function checkRules(value: unknown): RulesVerdict {
  try {
    enforceContentRules(value);
    return { ok: true };
  } catch (e) {
    if (e instanceof ApiError) return { ok: false, code: e.code, details: e.details ?? {} };
    throw e;
  }
}

export async function handlePubsJob(job: PubsJob, fast = true): Promise<PubsJobResult> {
  const verdict = await sanitizeSvg(job, fast);
  if (!verdict.ok || job.blockIndex === undefined) return verdict;
  // The text an image draws is read by people too; the sparse array keeps `where` at blocks[i].source.
  const drawn: { source: string }[] = [];
  drawn[job.blockIndex] = { source: verdict.text };
  return { ...verdict, drawn: checkRules({ blocks: drawn }) };
}

// Nesting is measured on the text before any parser runs, so a deeply nested source never reaches
// a recursive walk (the serializer recurses). Tags inside comments count too: refusing on them errs safe.
function nestingDepth(source: string, stopAt: number): number {
  const tag = /<(\/?)([A-Za-z][^\s/>]*)(?:[^>"']|"[^"]*"|'[^']*')*?(\/?)>/g;
  let depth = 0;
  let max = 0;
  for (let m = tag.exec(source); m; m = tag.exec(source)) {
    if (m[1] === '/') depth = Math.max(0, depth - 1);
    else if (m[3] !== '/') {
      depth++;
      if (depth > max) max = depth;
      if (max > stopAt) return max;
    }
  }
  return max;
}

const ANIMATION = new Set(['animate', 'set', 'animatemotion', 'animatetransform', 'animatecolor']);

// DOMPurify's configuration, set once per worker (setConfig: read again on every call, it cost
// about half a millisecond a check).
const OPTIONS = {
  USE_PROFILES: { svg: true, svgFilters: true },
  // A local <use href="#id"> is static (matplotlib draws every marker so); outsideReferences and
  // useExpansion below refuse every other use. An animation that fetches nothing is static in the
  // spec's sense: animate and set (with their from/to) are added; outsideReferences refuses one
  // that animates a link or names anything outside the image. Inline style (the asset's CSP allows
  // it; chart tools write it) stays, checked there for every way CSS can fetch.
  ADD_TAGS: ['use', 'animate', 'set'],
  ADD_ATTR: ['from', 'to'],
  FORBID_TAGS: ['foreignObject'],
  // DOMPurify parses into an HTML document and walks its <body>, which no svg profile allows: it
  // removes the body and, keeping its content, hoists a deep clone of the whole image next to
  // it, a copy nobody reads (the fragment is made of the body's own, sanitized, children). A
  // body's content is not kept, so the image is not cloned: a fifth of the check's time. The
  // HTML parser makes exactly one body (a <body> tag in the source only adds attributes to it),
  // so this changes no verdict and no stored byte.
  ADD_FORBID_CONTENTS: ['body'],
  RETURN_DOM_FRAGMENT: true,
};

let purifier: {
  sanitize: (s: string) => DocumentFragment;
  setConfig(o: object): void;
  removed: unknown[];
  addHook(h: string, f: (n: Element, d: { tagName: string }) => void): void;
  removeHook(h: string): void;
} | null = null;

// <metadata> draws nothing: what is inside (chart tools write RDF there) is dropped from the stored
// image like a comment, never a reason to refuse. The hook runs only for a source that holds one
// (a hook is called for every element: 60 KB charts without metadata skip its cost).
const emptyMetadata = (node: Element, data: { tagName: string }) => {
  if (data.tagName === 'metadata') node.replaceChildren();
};
let serializer: { serializeToString(n: Node): string } | null = null;
// Whether an id would shadow a property of the document or of a form: DOMPurify removes such an
// id (its DOM clobbering guard); the fast path asks the same documents before keeping one.
let clobbers: ((id: string) => boolean) | null = null;

// jsdom builds a whole window on import (~285 ms, seconds on a loaded machine): the worker loads it
// as it starts (warmSvgTools), before it takes a job, so a check's time budget measures the check.
export async function warmSvgTools(): Promise<void> {
  await tools();
}

async function tools() {
  if (purifier && serializer && clobbers) return { purify: purifier, xml: serializer, clobbers };
  const { JSDOM } = await import('jsdom');
  const { default: createDOMPurify } = await import('dompurify');
  const { window } = new JSDOM('');
  purifier = createDOMPurify(window as never) as unknown as NonNullable<typeof purifier>;
  purifier.setConfig(OPTIONS);
  serializer = new window.XMLSerializer();
  const doc = window.document;
  const form = doc.createElement('form');
  // DOMPurify asks a template's (inert) document when the window has templates, else the window's.
  const inert = doc.createElement('template').content.ownerDocument;
  clobbers = (id) => id in doc || id in inert || id in form;
  return { purify: purifier!, xml: serializer!, clobbers };
}

function describeRemoved(r: unknown): string {
  const x = r as { element?: Element; attribute?: Attr | null; from?: Element };
  if (x.attribute) return `${x.from?.nodeName?.toLowerCase() ?? '?'}@${x.attribute.name}`;
  return x.element?.nodeName?.toLowerCase() ?? 'node';
}

/**
 * Every reference out of the document (href, xlink:href, url(…), a style sheet's import or image
 * function), every animation of a link, and every backslash in an attribute or a style sheet (a
 * CSS escape can spell url( so that no plain-text check sees it; an image never needs one).
 */
function outsideReferences(root: Element): { found: string[]; escapes: string[] } {
  const found: string[] = [];
  const escapes: string[] = [];
  const walker = root.ownerDocument.createTreeWalker(root, 1);
  for (let n: Node | null = root; n; n = walker.nextNode()) {
    const el = n as Element;
    const name = el.localName.toLowerCase();
    if (ANIMATION.has(name)) {
      const target = (el.getAttribute('attributeName') ?? '').toLowerCase();
      if (target.endsWith('href')) found.push(`${name}@attributeName=${target}`);
    }
    if (name === 'style') {
      // A style sheet is its own text: an element inside <style> could split a token ("@imp<g/>ort")
      // that the text of the whole would hide from the checks.
      if (el.children.length > 0) found.push('style@child-elements');
      const css = el.textContent ?? '';
      if (fetches(css)) found.push('style');
      if (css.includes('\\')) escapes.push('style');
    }
    // An <image> draws a picture from its href, and a local #id is no picture: any is refused.
    if (name === 'image' && (el.hasAttribute('href') || el.hasAttribute('xlink:href'))) found.push('image@href');
    for (const attr of Array.from(el.attributes)) {
      const an = attr.name.toLowerCase();
      const value = attr.value; // read once: a jsdom attribute's value is a getter
      if ((an === 'href' || an === 'xlink:href' || an.endsWith(':href')) && !LOCAL_REF.test(trimCss(value))) found.push(`${name}@${attr.name}`);
      else if (fetches(value)) found.push(`${name}@${attr.name}`);
      if (value.includes('\\')) escapes.push(`${name}@${attr.name}`);
    }
  }
  return { found, escapes };
}

const COMMENT_NODE = 8;
export const USE_EXPANSION_MAX = 20_000;

/**
 * A <use> draws a copy of the element it names. Refused: a use of another use or of something
 * holding one (a chain multiplies what is drawn, a cycle never ends), and uses that together copy
 * more than `max` elements. A use whose target is missing draws nothing and passes.
 */
function useExpansion(root: Element, max: number): { reason: string; found?: string[]; max_use_expansion?: number } | null {
  if (root.localName.toLowerCase() !== 'use' && root.getElementsByTagName('use').length === 0) return null;
  const byId = new Map<string, Element>();
  for (const el of Array.from(root.querySelectorAll('[id]'))) if (!byId.has(el.id)) byId.set(el.id, el);
  const uses = [root, ...Array.from(root.querySelectorAll('*'))].filter((el) => el.localName.toLowerCase() === 'use');
  let copied = 0;
  for (const use of uses) {
    const ref = (use.getAttribute('href') ?? use.getAttributeNS('http://www.w3.org/1999/xlink', 'href') ?? use.getAttribute('xlink:href') ?? '').trim();
    const target = byId.get(ref.slice(1));
    if (!target) continue;
    const inside = target.querySelectorAll('*');
    if (target.localName.toLowerCase() === 'use' || Array.from(inside).some((el) => el.localName.toLowerCase() === 'use'))
      return { reason: 'use_chain', found: [`use@href=${ref}`] };
    copied += 1 + inside.length;
    if (copied > max) return { reason: 'use_expands_too_much', max_use_expansion: max };
  }
  return null;
}

/** The fast path's answer on a source (null: the full check decides), for the tests that compare the two. */
export async function fastPathOf(source: string): Promise<FastVerdict | null> {
  return fastSvg(source, (await tools()).clobbers);
}

// The verdicts of the sources checked last, by SHA-256 of the source and the limits it was judged
// by: a revision usually keeps its images, a chart may stand twice in an article, a refused image
// is often sent again unchanged. The check is a pure function of these, so a verdict is kept as it
// was given. Bounded by count and by the characters of the images it holds (a few MB a worker).
const VERDICTS = new Map<string, SvgVerdict>();
const VERDICTS_MAX = 256;
const VERDICT_CHARS_MAX = 2 * 1024 * 1024;
let verdictChars = 0;
const sizeOf = (v: SvgVerdict) => (v.ok ? v.sanitized.length + v.text.length : 0) + 200;

function remember(key: string, verdict: SvgVerdict): void {
  VERDICTS.set(key, verdict);
  verdictChars += sizeOf(verdict);
  for (const [old, v] of VERDICTS) {
    if (VERDICTS.size <= VERDICTS_MAX && verdictChars <= VERDICT_CHARS_MAX) break;
    VERDICTS.delete(old);
    verdictChars -= sizeOf(v);
  }
}

/**
 * The svg check: a verdict given before on the same source, else the fast path for a source in
 * its subset (svg-fast.ts), else the full check. `fast` false runs the full check alone (the
 * tests and bench/article-svg.ts compare the two).
 */
export async function sanitizeSvg(input: SvgInput, fast = true): Promise<SvgVerdict> {
  if (!fast) return checkSvg(input, false);
  const key = new Bun.CryptoHasher('sha256')
    .update(`${input.maxDepth}/${input.maxUseExpansion ?? USE_EXPANSION_MAX}/`)
    .update(input.source)
    .digest('hex');
  const known = VERDICTS.get(key);
  if (known) {
    // The most recent stays longest: moved to the end of the map's order.
    VERDICTS.delete(key);
    VERDICTS.set(key, known);
    return { ...known, where: input.where };
  }
  const verdict = await checkSvg(input, true);
  remember(key, verdict);
  return verdict;
}

async function checkSvg(input: SvgInput, fast: boolean): Promise<SvgVerdict> {
  const { where, source } = input;
  const depth = nestingDepth(source, input.maxDepth);
  if (depth > input.maxDepth) return { ok: false, where, reason: 'too_deeply_nested', max_depth: input.maxDepth };
  const { purify, xml, clobbers: shadows } = await tools();
  const quick = fast ? fastSvg(source, shadows) : null;
  if (quick) return { ok: true, where, ...quick };
  const withMetadata = /<metadata/i.test(source);
  if (withMetadata) purify.addHook('uponSanitizeElement', emptyMetadata);
  let fragment: DocumentFragment;
  try {
    fragment = purify.sanitize(source);
  } finally {
    if (withMetadata) purify.removeHook('uponSanitizeElement');
  }
  // DOMPurify parses into an HTML document and reports dropping its <body> wrapper: not the author's.
  // A comment (an editor's mark) draws nothing: it is dropped from the stored image, not refused.
  const removed = purify.removed
    .filter((r) => {
      const node = (r as { element?: Node }).element;
      return node?.nodeName !== 'BODY' && node?.nodeType !== COMMENT_NODE;
    })
    .map(describeRemoved);
  if (removed.length > 0) return { ok: false, where, reason: 'sanitizer_would_change', removed: [...new Set(removed)].slice(0, 20) };
  const elements = Array.from(fragment.childNodes).filter((n) => n.nodeType === 1) as Element[];
  const stray = Array.from(fragment.childNodes).some((n) => n.nodeType === 3 && (n.textContent ?? '').trim() !== '');
  if (elements.length !== 1 || elements[0]!.localName.toLowerCase() !== 'svg' || stray) return { ok: false, where, reason: 'not_one_svg_element' };
  const root = elements[0]!;
  const { found, escapes } = outsideReferences(root);
  if (found.length > 0) return { ok: false, where, reason: 'external_reference_or_link_animation', found: [...new Set(found)].slice(0, 20) };
  if (escapes.length > 0) return { ok: false, where, reason: 'backslash_escape', found: [...new Set(escapes)].slice(0, 20) };
  const uses = useExpansion(root, input.maxUseExpansion ?? USE_EXPANSION_MAX);
  if (uses) return { ok: false, where, ...uses };
  return { ok: true, where, sanitized: xml.serializeToString(root), text: root.textContent ?? '' };
}
