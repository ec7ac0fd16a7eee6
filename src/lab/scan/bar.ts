// Whether a selector can reach the credit bar, judged on the bar's real element rather than on
// the selector's text: `[id^=svc-]`, `[class*=credit]`, `:not(p)` or `*` reach it without naming
// it in full, while `#svc-credit-note` does not. The bar is built once per worker, exactly as
// the service injects it (kit.ts), last in a body that also holds ordinary page elements (the
// controls) and an element a script appended after it.
//
// What the page controls is not modelled as fact: the bar's siblings, its ancestors' classes and
// attributes, structural pseudo-classes (:last-child, :nth-child …), user actions (:hover,
// :focus-within), :target, :lang. Before matching, the selector is rewritten so each of those
// constraints holds where it could hold (and fails inside :not(), so the negation holds):
// the answer is "can this rule reach the bar on some page", not "does it on this model page".
import * as csstree from 'css-tree/dist/csstree.esm';
import { Window } from 'happy-dom';
import { creditBar, withCreditBar } from '../pages/kit.ts';
import { CREDIT_CLASS, CREDIT_ID, CREDIT_TAG } from './limits.ts';

interface Reach {
  bar: boolean; // the selector can match the bar element itself
  specific: boolean; // … and no ordinary page element: it singles the bar out (names it)
  inside: boolean; // it singles out an element inside the bar (its links)
  root: boolean; // it can match <html> or <body>, which hold the bar
  pseudoElement: boolean; // its subject is a pseudo-element (::before …), not the element
}

const ALWAYS = ':where(*)';
const NEVER = ':not(*)';
// Pseudo-classes whose truth on the bar (or its controls) is fixed by the markup: evaluated as is.
// Any other (:visited, :hover, :nth-child …) depends on the page or the visitor, so it may hold.
const FIXED = new Set([
  'root',
  'defined',
  'empty',
  'checked',
  'disabled',
  'enabled',
  'placeholder-shown',
  'required',
  'optional',
  'valid',
  'invalid',
  'indeterminate',
  'default',
  'in-range',
  'out-of-range',
]);
const LOGICAL = new Set(['not', 'is', 'where', 'matches', '-webkit-any', '-moz-any']);
// Element names whose place in the tree is fixed whatever the page: kept on ancestors and siblings.
const FIXED_TAGS = new Set(['html', 'head', 'body']);

interface El {
  matches(selector: string): boolean;
}

let model: { window: Window; bar: El; barLink: El; controls: El[]; controlLinks: El[]; roots: El[] } | null = null;

function build() {
  const window = new Window({
    settings: { disableJavaScriptFileLoading: true, disableCSSFileLoading: true, disableIframePageLoading: true, disableComputedStyleRendering: true },
  });
  const control = (tag: string, n: number) =>
    `<${tag} id="page-${n}" class="page-${n}" role="region" title="t" lang="en" data-x="1"><a href="https://example.org/a" rel="noopener">l</a></${tag}>`;
  const page = `<!doctype html><html lang="en"><head><title>t</title></head><body>${control('div', 1)}${control('x-box', 2)}</body></html>`;
  const html = withCreditBar(page, creditBar('https://svc.example', 'agent', 'site')).replace('</body>', `${control('p', 3)}</body>`);
  const doc = new window.DOMParser().parseFromString(html, 'text/html');
  const bar = doc.getElementById(CREDIT_ID)!;
  const controls = [...doc.querySelectorAll('[id^="page-"]')];
  return {
    window,
    bar: bar as unknown as El,
    barLink: bar.querySelector('a') as unknown as El,
    controls: controls as unknown as El[],
    controlLinks: controls.map((c) => c.querySelector('a')) as unknown as El[],
    roots: [doc.documentElement, doc.body] as unknown as El[],
  };
}

type Role = 'subject' | 'ancestor' | 'sibling';
interface Ctx {
  neg: boolean; // inside an odd number of :not()
  inside: boolean; // the subject is an element inside the bar, so one of its ancestors is the bar
  pseudo: { seen: boolean };
}

const lit = (ok: boolean, ctx: Ctx) => (ok !== ctx.neg ? ALWAYS : NEVER);
const ident = (s: string) => csstree.ident.encode(csstree.ident.decode(s).toLowerCase());

function attribute(n: csstree.AttributeSelector): string {
  const name = csstree.generate(n.name).toLowerCase();
  if (!n.matcher || !n.value) return `[${name}]`;
  // The bar's values are lower case, so a case-insensitive match is a match on the lowered value.
  const raw = n.value.type === 'String' ? n.value.value : csstree.ident.decode(n.value.name);
  const value = n.flags?.toLowerCase() === 'i' ? raw.toLowerCase() : raw;
  return `[${name}${n.matcher}${csstree.string.encode(value)}]`;
}

function list(node: csstree.CssNode | null | undefined, ctx: Ctx, role: Role): string | null {
  if (node?.type !== 'SelectorList') return null;
  return node.children
    .toArray()
    .map((s) => complex(s, ctx, role))
    .join(',');
}

function pseudoClass(n: csstree.PseudoClassSelector, ctx: Ctx): string {
  const name = n.name.toLowerCase();
  const arg = n.children?.first ?? null;
  if (LOGICAL.has(name)) {
    // happy-dom does not run combinators inside :is()/:not(). :is(A > B) is read as :is(B), which
    // matches at least as much; a negation of such a selector may hold.
    const sels = arg?.type === 'SelectorList' ? arg.children.toArray() : [];
    if (sels.some((s) => s.type === 'Selector' && s.children.some((c) => c.type === 'Combinator'))) {
      if (name === 'not' || ctx.neg) return lit(true, ctx);
      return `:is(${sels.map((s) => compound(s.type === 'Selector' ? trailing(s) : [], ctx, 'subject')).join(',')})`;
    }
    const inner = list(arg, name === 'not' ? { ...ctx, neg: !ctx.neg } : ctx, 'subject');
    return inner === null ? lit(true, ctx) : `:${name === 'not' ? 'not' : 'is'}(${inner})`;
  }
  if (name === 'has') {
    // :has(+ x) and :has(~ x) look at the bar's siblings (the page's); anything else looks inside
    // the bar, which is fixed.
    const sels = arg?.type === 'SelectorList' ? arg.children.toArray() : [];
    const leads = sels.map((s) => (s.type === 'Selector' ? s.children.first : null));
    if (!sels.length || leads.some((c) => c?.type === 'Combinator' && (c.name === '+' || c.name === '~'))) return lit(true, ctx);
    return `:has(${list(arg, ctx, 'subject')})`;
  }
  if (FIXED.has(name) && !n.children) return `:${name}`;
  return lit(true, ctx);
}

function compound(parts: csstree.CssNode[], ctx: Ctx, role: Role): string {
  let out = '';
  let type = '*';
  for (const p of parts) {
    switch (p.type) {
      case 'TypeSelector': {
        const name = p.name.toLowerCase();
        if (role !== 'sibling' || FIXED_TAGS.has(name) || name.includes('|')) type = name.replace(/^\*\|/, '');
        break;
      }
      case 'PseudoElementSelector':
        if (role === 'subject') ctx.pseudo.seen = true;
        break;
      case 'NestingSelector':
        // Resolved by the CSS scanner before this point; left alone it could be anything.
        out += lit(true, ctx);
        break;
      default:
        if (role !== 'subject') {
          // The page's own elements: their ids, classes and states are whatever the page makes them.
          if (p.type === 'PseudoClassSelector' && p.name.toLowerCase() === 'root') out += ':root';
          else if (ctx.neg) out += NEVER;
        } else if (p.type === 'IdSelector') out += `#${ident(p.name)}`;
        else if (p.type === 'ClassSelector') out += `.${ident(p.name)}`;
        else if (p.type === 'AttributeSelector') out += attribute(p);
        else if (p.type === 'PseudoClassSelector') out += pseudoClass(p, ctx);
        else out += lit(true, ctx);
    }
  }
  return type + out;
}

/** The last compound of a complex selector (its subject). */
function trailing(sel: csstree.Selector): csstree.CssNode[] {
  const parts = sel.children.toArray();
  let i = parts.length;
  while (i > 0 && parts[i - 1]!.type !== 'Combinator') i--;
  return parts.slice(i);
}

function complex(sel: csstree.CssNode, ctx: Ctx, role: Role): string {
  if (sel.type !== 'Selector') return lit(true, ctx);
  // Compounds from the subject leftwards; each one's role follows the combinator on its right.
  const groups: { parts: csstree.CssNode[]; comb: string | null }[] = [{ parts: [], comb: null }];
  for (const c of sel.children.toArray()) {
    if (c.type === 'Combinator') groups.push({ parts: [], comb: c.name });
    else groups.at(-1)!.parts.push(c);
  }
  let out = '';
  groups.forEach((g, i) => {
    const next = groups[i + 1]?.comb ?? null; // combinator between this compound and the next one
    // Inside the bar, an ancestor may be the bar itself, whose names are fixed: judged as such.
    const r: Role = next === null ? role : next === '+' || next === '~' ? 'sibling' : ctx.inside ? 'subject' : 'ancestor';
    if (g.comb) out += g.comb === ' ' ? ' ' : ` ${g.comb} `;
    if (g.parts.length || i > 0) out += compound(g.parts, ctx, r);
  });
  return out.trim() || '*';
}

/** The selector rewritten so that what the page controls can hold; null when it cannot be read. */
function rewrite(selector: csstree.CssNode, inside = false): { text: string; pseudoElement: boolean } {
  const ctx: Ctx = { neg: false, inside, pseudo: { seen: false } };
  const text = selector.type === 'SelectorList' ? list(selector, ctx, 'subject')! : complex(selector, ctx, 'subject');
  return { text, pseudoElement: ctx.pseudo.seen };
}

// Selectors get a parser of their own: css-tree's parser clears a buffer as long as the longest
// source it has read, so once a 500 KB stylesheet went through the shared one, every selector
// parsed after it would cost as much as that sheet.
export const selectorSyntax = csstree.fork({});

const cache = new Map<string, Reach>();
const MAX_CACHE = 4096;

/** Whether `selector` (one complex selector or a list, as text) can reach the credit bar. */
export function reachOf(selector: string): Reach {
  const hit = cache.get(selector);
  if (hit) return hit;
  let reach: Reach;
  try {
    let ok = true;
    const ast = selectorSyntax.parse(selector, { context: 'selectorList', onParseError: () => (ok = false) });
    if (!ok) throw new Error('selector syntax');
    reach = judge(ast);
  } catch {
    // A selector we cannot read (or happy-dom cannot run) may reach anything: treat it as broad.
    reach = { bar: true, specific: false, inside: false, root: true, pseudoElement: false };
  }
  if (cache.size >= MAX_CACHE) cache.clear();
  cache.set(selector, reach);
  return reach;
}

// Names the bar, its links, <html> and <body> can answer to in a subject compound.
const MODEL_TAGS = new Set(['*', CREDIT_TAG, 'a', 'html', 'body']);
const MODEL_ATTRS = new Set(['id', 'class', 'role', 'href', 'rel', 'lang']);

/**
 * A subject compound with another element name, or an id, class or attribute the bar does not have, matches
 * none of the elements judged (the bar, its links, html, body): no DOM needed. Most selectors of a
 * real stylesheet end here, which keeps a sheet of thousands of rules cheap.
 */
function cannotReach(sel: csstree.CssNode): boolean {
  if (sel.type !== 'Selector') return false;
  return trailing(sel).some(
    (p) =>
      (p.type === 'TypeSelector' && !MODEL_TAGS.has(p.name.toLowerCase())) ||
      ((p.type === 'IdSelector' || p.type === 'ClassSelector') &&
        csstree.ident.decode(p.name).toLowerCase() !== (p.type === 'IdSelector' ? CREDIT_ID : CREDIT_CLASS)) ||
      (p.type === 'AttributeSelector' && !MODEL_ATTRS.has(csstree.ident.decode(p.name.name).toLowerCase())),
  );
}

function judge(ast: csstree.CssNode): Reach {
  model ??= build();
  const m = model;
  const out: Reach = { bar: false, specific: false, inside: false, root: false, pseudoElement: false };
  const sels = ast.type === 'SelectorList' ? ast.children.toArray() : [ast];
  for (const sel of sels) {
    if (cannotReach(sel)) continue;
    const { text, pseudoElement } = rewrite(sel);
    const test = (el: El) => el.matches(text);
    const bar = test(m.bar);
    const broad = m.controls.some(test);
    if (bar) {
      out.bar = true;
      out.specific ||= !broad;
      out.pseudoElement ||= pseudoElement;
    }
    const within = rewrite(sel, true).text;
    const testWithin = (el: El) => el.matches(within);
    if (testWithin(m.barLink) && !m.controlLinks.some(testWithin)) out.inside = true;
    if (m.roots.some(test)) out.root = true;
  }
  return out;
}
