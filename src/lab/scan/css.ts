// The CSS scanner. The credit bar's own stylesheet wins every ordinary contest (an id selector and
// !important on every property), so the attacks left are rules that single the bar out (any
// declaration restyles it), rules broad enough to reach it that hide, shrink or move it, rules on
// <html>/<body> that take the bar down with them, and full-viewport overlays stacked above
// everything. Whether a selector reaches the bar is decided on the bar's real element (bar.ts),
// not on the selector's text.
import * as csstree from 'css-tree/dist/csstree.esm';
import { reachOf, selectorSyntax } from './bar.ts';
import { at, found, type Origin } from './finding.ts';

// Properties that hide, move or cover an element when a broad rule reaches the bar.
const TAMPER_PROPS = new Set([
  'display',
  'visibility',
  'opacity',
  'content-visibility',
  'clip',
  'clip-path',
  'mask',
  'transform',
  'translate',
  'scale',
  'rotate',
  'position',
  'all',
  'filter',
  'zoom',
]);
// Properties that hide the bar only with some values (a size of zero, transparent text …).
const SIZE_PROPS = new Set(['height', 'max-height', 'width', 'max-width', 'font-size', 'line-height']);
// On <html> or <body> (which hold the bar), what takes the bar down with them: hiding the whole
// page, or a transform, which makes the body the box a fixed bar is placed in.
const ROOT_PROPS = new Set(['display', 'opacity', 'content-visibility', 'clip-path', 'mask', 'transform', 'translate', 'scale', 'rotate', 'zoom']);
const OVERLAY_Z = 1000;
const MAX_Z = 2147483647;

interface Decl {
  property: string;
  value: string; // lower case, !important stripped
  node: csstree.CssNode;
}

function declsOf(block: csstree.CssNode): Decl[] {
  const out: Decl[] = [];
  const own = block.type === 'Block' ? block.children.toArray() : block.type === 'DeclarationList' ? block.children.toArray() : [];
  for (const d of own) {
    if (d.type !== 'Declaration') continue;
    out.push({
      property: d.property.toLowerCase(),
      value: csstree
        .generate(d.value)
        .toLowerCase()
        .replace(/\s*!\s*important$/, '')
        .trim(),
      node: d,
    });
  }
  return out;
}

const FULL = /^(?:100(?:\.0+)?(?:%|vw|vh|dvh|svh|lvh|dvw|svw|lvw)|[1-9]\d{3,}px)$/;
const ZERO = /^[+-]?0*(?:\.0+)?(?:px|%|vh|vw|em|rem|pt)?$/;
const NONE = /^(?:none|initial|unset|revert|revert-layer|normal|auto)$/;
const SMALL = (v: string) => {
  const n = Number.parseFloat(v);
  return Number.isFinite(n) && (v.endsWith('%') ? n <= 10 : n <= 0.1);
};

/** A fixed (or absolute) full-viewport box stacked high covers the credit bar. */
function checkOverlay(decls: Decl[], where: (n: csstree.CssNode) => object): void {
  const get = (p: string) => decls.filter((d) => d.property === p).at(-1)?.value;
  for (const d of decls) {
    if (d.property !== 'z-index') continue;
    const z = Number(d.value);
    if (Number.isFinite(z) && z >= MAX_Z) found('LAB_CREDIT_TAMPER', { ...where(d.node), reason: 'stacks_above_credit_bar' });
  }
  const position = get('position');
  if (position !== 'fixed' && position !== 'absolute' && position !== 'sticky') return;
  const z = Number(get('z-index'));
  if (!Number.isFinite(z) || z < OVERLAY_Z) return;
  const inset = get('inset');
  const covers =
    inset?.split(/\s+/).every((p) => ZERO.test(p)) ||
    FULL.test(get('width') ?? '') ||
    FULL.test(get('height') ?? '') ||
    FULL.test(get('min-height') ?? '') ||
    FULL.test(get('min-width') ?? '') ||
    (ZERO.test(get('bottom') ?? 'x') && ZERO.test(get('left') ?? 'x') && ZERO.test(get('right') ?? 'x'));
  if (covers) found('LAB_CREDIT_TAMPER', { ...where(decls[0]!.node), reason: 'full_viewport_overlay', z_index: z });
}

/** Whether a declaration in a broad rule that reaches the bar hides, shrinks or moves it. */
function hidesBar(d: Decl): boolean {
  if (TAMPER_PROPS.has(d.property)) {
    if (d.property === 'display') return /^none\b/.test(d.value);
    if (d.property === 'visibility') return /^(?:hidden|collapse)\b/.test(d.value);
    if (d.property === 'position') return !/^(?:static|relative)\b/.test(d.value);
    return true;
  }
  if (SIZE_PROPS.has(d.property)) return ZERO.test(d.value);
  if (d.property === 'color' || d.property === '-webkit-text-fill-color')
    return /^(?:transparent|rgba?\(.*[,/ ]\s*0(?:\.0*)?%?\s*\)|#[0-9a-f]{6}00|#[0-9a-f]{3}0)$/.test(d.value);
  if (d.property === 'z-index') return d.value.startsWith('-');
  if (d.property === 'animation' || d.property === 'animation-name') return !NONE.test(d.value);
  if (d.property === 'content') return !NONE.test(d.value) && d.value !== '""' && d.value !== "''";
  return false;
}

function hidesPage(d: Decl): boolean {
  if (!ROOT_PROPS.has(d.property)) return false;
  if (d.property === 'display') return /^none\b/.test(d.value);
  if (d.property === 'content-visibility') return d.value === 'hidden';
  if (d.property === 'opacity' || d.property === 'zoom') return SMALL(d.value);
  return !NONE.test(d.value);
}

type Where = (n: csstree.CssNode) => { file: string; line: number; column?: number };

function checkRule(selectors: string[], decls: Decl[], where: Where, node: csstree.CssNode): void {
  for (const selector of selectors) {
    const reach = reachOf(selector);
    if ((reach.bar && reach.specific) || reach.inside) {
      if (decls.length) found('LAB_CREDIT_TAMPER', { ...where(node), reason: 'rule_names_credit_bar', selector: selector.slice(0, 120) });
    } else if (reach.bar && !reach.pseudoElement) {
      const d = decls.find(hidesBar);
      if (d)
        found('LAB_CREDIT_TAMPER', {
          ...where(d.node),
          reason: 'broad_rule_hides_or_moves_credit_bar',
          property: d.property,
          selector: selector.slice(0, 120),
        });
    }
    if (reach.root && !reach.pseudoElement) {
      const d = decls.find(hidesPage);
      if (d) found('LAB_CREDIT_TAMPER', { ...where(d.node), reason: 'hides_page_holding_credit_bar', property: d.property, selector: selector.slice(0, 120) });
    }
  }
  checkOverlay(decls, where);
}

/** The rule's selectors with `&` resolved against the enclosing rule's (CSS nesting). */
function effective(prelude: csstree.CssNode, parent: string[] | null): string[] {
  if (prelude.type !== 'SelectorList') return [csstree.generate(prelude)]; // unreadable: judged as broad
  return prelude.children.toArray().map((sel) => {
    if (!parent) return csstree.generate(sel);
    const is = `:is(${parent.join(',')})`;
    let nested = false;
    const copy = csstree.clone(sel) as csstree.Selector;
    csstree.walk(copy, {
      visit: 'NestingSelector',
      enter(_n, item, list) {
        nested = true;
        const sub = selectorSyntax.parse(is, { context: 'selector' }) as csstree.Selector;
        list.replace(item, sub.children);
      },
    });
    const text = csstree.generate(copy);
    return nested ? text : `${is} ${text}`;
  });
}

function scanSheet(source: string, origin: Origin, parent: string[] | null, depth: number): void {
  const ast = csstree.parse(source, { positions: true, parseValue: true, onParseError: () => {} });
  const where: Where = (n) => (n.loc ? at(origin, n.loc.start.line, n.loc.start.column) : { file: origin.file, line: origin.line });
  const stack: (string[] | null)[] = [parent];
  csstree.walk(ast, {
    enter(node: csstree.CssNode) {
      if (node.type === 'Atrule' && /keyframes$/i.test(node.name)) return csstree.walk.skip;
      if (node.type === 'Rule') {
        const selectors = effective(node.prelude, stack.at(-1) ?? null);
        stack.push(selectors);
        checkRule(selectors, declsOf(node.block), where, node);
      } else if (node.type === 'Raw' && node.value.includes('{') && depth < 8) {
        // A nested rule css-tree could not read (`> p {…}`, `.x & {…}`) is read on its own, in
        // the enclosing rule's context; what it still cannot read is judged as broad.
        const sub = node.loc ? at(origin, node.loc.start.line, node.loc.start.column) : origin;
        scanSheet(node.value, sub, stack.at(-1) ?? null, depth + 1);
      }
      return undefined;
    },
    leave(node: csstree.CssNode) {
      if (node.type === 'Rule') stack.pop();
    },
  });
}

/** Scans a stylesheet (a .css file or a <style> element). */
export function scanCss(source: string, origin: Origin): void {
  scanSheet(source, origin, null, 0);
}

/** Scans an inline style="" attribute: only overlays matter (the bar's element is not the page's). */
export function scanStyleAttribute(source: string, origin: Origin): void {
  const ast = csstree.parse(source, { context: 'declarationList', positions: true, onParseError: () => {} });
  const where = (n: csstree.CssNode) => (n.loc ? at(origin, n.loc.start.line, n.loc.start.column) : { file: origin.file, line: origin.line });
  checkOverlay(declsOf(ast), where);
}
