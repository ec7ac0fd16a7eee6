// Constant folding for the JS scanner. Hostile pages hide names from a plain text search:
// `window['eth'+'ereum']`, `atob('ZXRoZXJldW0=')`, `String.fromCharCode(…)`, `['sol','ana'].join('')`,
// a `const` holding a piece. Folding every constant string expression we can evaluate lets the
// rules compare real names; what cannot be folded is reported as unknown (null).
// biome-ignore lint/suspicious/noExplicitAny: ESTree nodes from acorn are walked structurally.
export type Node = any;

const UNKNOWN = '\u0000'; // stands for an unfoldable piece inside a partial string

export class Folder {
  // Names bound once to a foldable value (`const k = 'eth'`); re-bound names are forgotten.
  private consts = new Map<string, Node | null>();

  bind(name: string, init: Node | null | undefined): void {
    this.consts.set(name, this.consts.has(name) ? null : (init ?? null));
  }

  /** The expression a name was bound to once (`const c = atob(x)`), else null. */
  initOf(name: string): Node | null {
    return this.consts.get(name) ?? null;
  }

  /**
   * `a.b.c` for a chain of member accesses on an identifier, computed keys folded
   * (`window['loc'+'ation'].href` → `window.location.href`); null when a key is unknown.
   * `(0, eval)` and parentheses read as what they evaluate to.
   */
  path(node: Node, depth = 0): string | null {
    if (!node || depth > 40) return null;
    if (node.type === 'Identifier') return node.name;
    if (node.type === 'ThisExpression') return 'this';
    if (node.type === 'ChainExpression' || node.type === 'ParenthesizedExpression') return this.path(node.expression, depth + 1);
    if (node.type === 'SequenceExpression') return this.path(node.expressions.at(-1), depth + 1);
    if (node.type !== 'MemberExpression') return null;
    const base = this.path(node.object, depth + 1);
    const key = propName(node, this, depth + 1);
    return base === null || key === null ? null : `${base}.${key}`;
  }

  /** The string value of `node` when every part of it is constant, else null. */
  str(node: Node, depth = 0): string | null {
    const s = this.partial(node, depth);
    return s === null || s.includes(UNKNOWN) ? null : s;
  }

  /** Like str, but unknown pieces of a concatenation become NUL, so `'<scr'+x+'ipt'` still reads. */
  partial(node: Node, depth = 0): string | null {
    if (!node || depth > 40) return null;
    switch (node.type) {
      case 'Literal':
        return typeof node.value === 'string' || typeof node.value === 'number' ? String(node.value) : null;
      case 'TemplateLiteral': {
        let out = '';
        for (let i = 0; i < node.quasis.length; i++) {
          out += node.quasis[i].value.cooked ?? node.quasis[i].value.raw;
          if (i < node.expressions.length) out += this.partial(node.expressions[i], depth + 1) ?? UNKNOWN;
        }
        return out;
      }
      case 'BinaryExpression':
        if (node.operator !== '+') return null;
        return (this.partial(node.left, depth + 1) ?? UNKNOWN) + (this.partial(node.right, depth + 1) ?? UNKNOWN);
      case 'Identifier': {
        const init = this.consts.get(node.name);
        return init ? this.partial(init, depth + 1) : null;
      }
      case 'ParenthesizedExpression':
        return this.partial(node.expression, depth + 1);
      case 'SequenceExpression':
        return this.partial(node.expressions.at(-1), depth + 1);
      case 'ConditionalExpression': {
        // Either branch may run: the scanner checks both, so folding picks the consequent here
        // and the walker visits the alternate as its own expression.
        return this.partial(node.consequent, depth + 1);
      }
      case 'CallExpression':
        return this.call(node, depth + 1);
      default:
        return null;
    }
  }

  private call(node: Node, depth: number): string | null {
    const callee = node.callee;
    const args: Node[] = node.arguments;
    const name = calleeName(callee);
    const argStr = (i: number) => this.str(args[i], depth);
    try {
      if (name === 'atob' || name === 'window.atob' || name === 'globalThis.atob' || name === 'self.atob') {
        const a = argStr(0);
        return a === null ? null : atob(a);
      }
      if (name === 'String.fromCharCode' || name === 'String.fromCodePoint') {
        const codes = args.map((a) => this.num(a));
        if (codes.some((c) => c === null)) return null;
        return name === 'String.fromCharCode' ? String.fromCharCode(...(codes as number[])) : String.fromCodePoint(...(codes as number[]));
      }
      if (name === 'decodeURIComponent' || name === 'decodeURI' || name === 'unescape') {
        const a = argStr(0);
        return a === null ? null : name === 'unescape' ? unescape(a) : decodeURIComponent(a);
      }
      if (name === 'String') return argStr(0);
    } catch {
      return null;
    }
    if (callee?.type === 'MemberExpression') {
      const method = propName(callee, this, depth);
      const target = callee.object;
      if (method === 'join' && target.type === 'ArrayExpression') {
        const parts = target.elements.map((e: Node) => this.partial(e, depth) ?? UNKNOWN);
        const sep = args.length ? this.str(args[0], depth) : ',';
        return sep === null ? null : parts.join(sep);
      }
      // 'muereht'.split('').reverse().join('')
      if (method === 'join' && target.type === 'CallExpression' && propName(target.callee, this, depth) === 'reverse') {
        const inner = target.callee.object; // x.split('').reverse()
        if (inner?.type === 'CallExpression' && propName(inner.callee, this, depth) === 'split') {
          const s = this.str(inner.callee.object, depth);
          return s === null ? null : [...s].reverse().join(this.str(args[0], depth) ?? ',');
        }
      }
      const base = this.partial(target, depth);
      if (base === null) return null;
      if (method === 'concat') return base + args.map((a) => this.partial(a, depth) ?? UNKNOWN).join('');
      if (method === 'toLowerCase') return base.toLowerCase();
      if (method === 'toUpperCase') return base.toUpperCase();
      if (method === 'trim') return base.trim();
      if (method === 'replace' || method === 'replaceAll') {
        const from = argStr(0);
        const to = argStr(1);
        if (from === null || to === null) return null;
        return method === 'replace' ? base.replace(from, to) : base.split(from).join(to);
      }
      if (method === 'slice' || method === 'substring' || method === 'substr') {
        const a = this.num(args[0]);
        const b = args[1] ? this.num(args[1]) : undefined;
        if (a === null || b === null) return null;
        return method === 'substr' ? base.substr(a, b) : base[method](a, b);
      }
    }
    return null;
  }

  num(node: Node): number | null {
    if (!node) return null;
    if (node.type === 'Literal' && typeof node.value === 'number') return node.value;
    if (node.type === 'UnaryExpression' && node.operator === '-') {
      const n = this.num(node.argument);
      return n === null ? null : -n;
    }
    if (node.type === 'BinaryExpression' && ['+', '-', '*', '^', '|'].includes(node.operator)) {
      const a = this.num(node.left);
      const b = this.num(node.right);
      if (a === null || b === null) return null;
      switch (node.operator) {
        case '+':
          return a + b;
        case '-':
          return a - b;
        case '*':
          return a * b;
        case '^':
          return a ^ b;
        default:
          return a | b;
      }
    }
    if (node.type === 'Identifier') {
      const init = this.consts.get(node.name);
      return init ? this.num(init) : null;
    }
    return null;
  }
}

/** `a.b.c` for a chain of plain member accesses on an identifier, else null. */
function calleeName(node: Node): string | null {
  if (!node) return null;
  if (node.type === 'Identifier') return node.name;
  if (node.type === 'ThisExpression') return 'this';
  if (node.type === 'MemberExpression' && !node.computed && node.property.type === 'Identifier') {
    const base = calleeName(node.object);
    return base === null ? null : `${base}.${node.property.name}`;
  }
  if (node.type === 'MemberExpression' && node.computed) {
    const base = calleeName(node.object);
    const key = node.property.type === 'Literal' && typeof node.property.value === 'string' ? node.property.value : null;
    return base === null || key === null ? null : `${base}.${key}`;
  }
  if (node.type === 'ChainExpression') return calleeName(node.expression);
  return null;
}

/** The property name of a member expression, folded when computed; null when dynamic. */
export function propName(node: Node, folder: Folder, depth = 0): string | null {
  if (node?.type !== 'MemberExpression') return null;
  if (!node.computed)
    return node.property.type === 'Identifier' ? node.property.name : node.property.type === 'PrivateIdentifier' ? `#${node.property.name}` : null;
  return folder.str(node.property, depth);
}
