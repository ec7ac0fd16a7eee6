// The CSS scanner. The credit bar's own stylesheet wins every ordinary contest (an id selector and
// !important on every property), so the attacks left are rules that name the bar, rules broad
// enough to reach it that hide or move it, and full-viewport overlays stacked above everything.
import * as csstree from 'css-tree/dist/csstree.esm';
import { at, found, type Origin } from './finding.ts';
import { CREDIT_CLASS, CREDIT_ID, CREDIT_TAG } from './limits.ts';

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
// Pseudo-classes the bar can never match (it is neither the root nor interactive).
const NEVER_BAR = new Set([
  'root',
  'hover',
  'focus',
  'focus-visible',
  'focus-within',
  'active',
  'visited',
  'link',
  'checked',
  'disabled',
  'enabled',
  'target',
  'first-child',
  'first-of-type',
  'empty',
  'placeholder-shown',
  'invalid',
  'valid',
  'required',
  'optional',
]);
const OVERLAY_Z = 1000;
const MAX_Z = 2147483647;

const namesBar = (s: string) => s.toLowerCase().includes(CREDIT_ID) || s.toLowerCase().includes(CREDIT_CLASS) || s.toLowerCase() === CREDIT_TAG;

function attrValue(node: csstree.AttributeSelector): string {
  const v = node.value;
  if (!v) return '';
  return v.type === 'String' ? v.value : v.name;
}

/** Whether a selector names the bar, or has a subject compound broad enough to match it. */
function selectorReach(selector: csstree.CssNode): { names: boolean; reaches: boolean } {
  let names = false;
  csstree.walk(selector, (n) => {
    if ((n.type === 'TypeSelector' || n.type === 'IdSelector' || n.type === 'ClassSelector') && namesBar(n.name)) names = true;
    if (n.type === 'AttributeSelector') {
      const value = attrValue(n).toLowerCase();
      // [id^="svc"], [class*="credit"]: any fragment of the bar's names reaches it.
      if (value.length >= 2 && (CREDIT_ID.includes(value) || namesBar(value))) names = true;
    }
  });
  // The subject compound: the selector's children after its last combinator.
  const children = selector.type === 'Selector' ? selector.children.toArray() : [];
  let start = 0;
  children.forEach((c, i) => {
    if (c.type === 'Combinator') start = i + 1;
  });
  const subject = children.slice(start);
  let reaches = subject.length > 0;
  for (const c of subject) {
    if (c.type === 'TypeSelector' && c.name !== '*' && c.name.toLowerCase() !== CREDIT_TAG) reaches = false;
    if ((c.type === 'ClassSelector' || c.type === 'IdSelector') && !namesBar(c.name)) reaches = false;
    if (c.type === 'AttributeSelector' && !/^(?:id|class)$/i.test(c.name.name)) reaches = false;
    if (c.type === 'PseudoClassSelector' && NEVER_BAR.has(c.name.toLowerCase())) reaches = false;
    if (c.type === 'PseudoElementSelector') reaches = false; // ::before of another element is not the bar
  }
  return { names, reaches };
}

interface Decl {
  property: string;
  value: string;
  node: csstree.CssNode;
}

function declsOf(block: csstree.CssNode): Decl[] {
  const out: Decl[] = [];
  csstree.walk(block, {
    visit: 'Declaration',
    enter: (d: csstree.Declaration) => {
      out.push({ property: d.property.toLowerCase(), value: csstree.generate(d.value).toLowerCase(), node: d });
    },
  });
  return out;
}

const FULL = /^(?:100(?:\.0+)?(?:%|vw|vh|dvh|svh|lvh|dvw|svw|lvw)|[1-9]\d{3,}px)$/;
const ZERO = /^0(?:px|%|vh|vw)?$/;

/** A fixed (or absolute) full-viewport box stacked high covers the credit bar. */
function checkOverlay(decls: Decl[], where: (n: csstree.CssNode) => object): void {
  const get = (p: string) =>
    decls
      .filter((d) => d.property === p)
      .at(-1)
      ?.value.replace(/\s*!important$/, '')
      .trim();
  for (const d of decls) {
    if (d.property !== 'z-index') continue;
    const z = Number(d.value.replace(/\s*!important$/, ''));
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

function checkDecls(decls: Decl[], reach: { names: boolean; reaches: boolean }, where: (n: csstree.CssNode) => object, node: csstree.CssNode): void {
  if (reach.names) found('LAB_CREDIT_TAMPER', { ...where(node), reason: 'rule_names_credit_bar' });
  if (reach.reaches) {
    for (const d of decls) {
      if (!TAMPER_PROPS.has(d.property)) continue;
      if (d.property === 'display' && !/^none\b/.test(d.value)) continue;
      if (d.property === 'visibility' && !/^(?:hidden|collapse)\b/.test(d.value)) continue;
      if (d.property === 'position' && /^(?:static|relative)\b/.test(d.value) && !d.value.includes('!important')) continue;
      found('LAB_CREDIT_TAMPER', { ...where(d.node), reason: 'broad_rule_hides_or_moves_credit_bar', property: d.property });
    }
  }
  checkOverlay(decls, where);
}

/** Scans a stylesheet (a .css file or a <style> element). */
export function scanCss(source: string, origin: Origin): void {
  const ast = csstree.parse(source, { positions: true, parseValue: true, onParseError: () => {} });
  const where = (n: csstree.CssNode) => (n.loc ? at(origin, n.loc.start.line, n.loc.start.column) : { file: origin.file, line: origin.line });
  csstree.walk(ast, {
    visit: 'Rule',
    enter: (rule: csstree.Rule) => {
      const decls = declsOf(rule.block);
      const reach = { names: false, reaches: false };
      if (rule.prelude.type === 'SelectorList') {
        rule.prelude.children.forEach((sel) => {
          const r = selectorReach(sel);
          reach.names ||= r.names;
          reach.reaches ||= r.reaches;
        });
      } else if (namesBar(csstree.generate(rule.prelude))) reach.names = true;
      checkDecls(decls, reach, where, rule);
    },
  });
}

/** Scans an inline style="" attribute: only overlays matter (the bar's element is not the page's). */
export function scanStyleAttribute(source: string, origin: Origin): void {
  const ast = csstree.parse(source, { context: 'declarationList', positions: true, onParseError: () => {} });
  const where = (n: csstree.CssNode) => (n.loc ? at(origin, n.loc.start.line, n.loc.start.column) : { file: origin.file, line: origin.line });
  checkOverlay(declsOf(ast), where);
}
