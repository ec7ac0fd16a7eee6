// Two JS rules that need more than a name: code built from strings at run time (eval, Function,
// string timers), which the scan never sees, and element lookups whose selector reaches the
// credit bar.
import * as csstree from 'css-tree/dist/csstree.esm';
import { type Folder, type Node, propName } from './fold.ts';

const GLOBAL_PREFIX = '(?:(?:window|self|globalThis|top|parent|frames)\\.)*';
// eval and the Function constructors compile a string; .call/.apply/.bind reach them as well.
const EVAL = new RegExp(`^${GLOBAL_PREFIX}(?:eval|Function|AsyncFunction|GeneratorFunction|execScript)(?:\\.(?:call|apply|bind))?$`);
const TIMER = new RegExp(`^${GLOBAL_PREFIX}(?:setTimeout|setInterval|setImmediate)(\\.(?:call|apply))?$`);
const REFLECT = /^(?:Reflect\.(?:apply|construct)|Function\.prototype\.(?:call|apply)\.call)$/;
// Calls that answer a string even when their input cannot be folded.
const STRING_CALLS =
  /^(?:atob|btoa|String|unescape|escape|decodeURI|decodeURIComponent|encodeURI|encodeURIComponent|String\.fromCharCode|String\.fromCodePoint|String\.raw|JSON\.stringify)$/;
const STRING_METHODS = new Set([
  'join',
  'concat',
  'toString',
  'replace',
  'replaceAll',
  'slice',
  'substring',
  'substr',
  'trim',
  'trimStart',
  'trimEnd',
  'toLowerCase',
  'toUpperCase',
  'repeat',
  'padStart',
  'padEnd',
  'charAt',
  'normalize',
]);

/** Whether `node` evaluates to a string (so a timer or Function would compile it). */
function stringish(node: Node, folder: Folder, depth = 0): boolean {
  if (!node || depth > 20) return false;
  switch (node.type) {
    case 'Literal':
      return typeof node.value === 'string';
    case 'TemplateLiteral':
    case 'TaggedTemplateExpression':
      return true;
    case 'BinaryExpression':
      return node.operator === '+';
    case 'Identifier': {
      const init = folder.initOf(node.name);
      return init ? stringish(init, folder, depth + 1) : false;
    }
    case 'ParenthesizedExpression':
      return stringish(node.expression, folder, depth + 1);
    case 'SequenceExpression':
      return stringish(node.expressions.at(-1), folder, depth + 1);
    case 'AssignmentExpression':
      return stringish(node.right, folder, depth + 1);
    case 'ConditionalExpression':
      return stringish(node.consequent, folder, depth + 1) || stringish(node.alternate, folder, depth + 1);
    case 'LogicalExpression':
      return stringish(node.left, folder, depth + 1) || stringish(node.right, folder, depth + 1);
    case 'CallExpression': {
      const name = folder.path(node.callee) ?? '';
      return STRING_CALLS.test(name) || STRING_METHODS.has(propName(node.callee, folder) ?? '') || folder.str(node) !== null;
    }
    default:
      return false;
  }
}

/**
 * Why a call or `new` compiles code from a string, or null. eval and the Function constructors
 * are refused whatever their argument (it is a string, or becomes one); timers only when given
 * a string, since a function passes.
 */
export function codeFromString(node: Node, folder: Folder): string | null {
  const callee = node.callee;
  const name = folder.path(callee) ?? '';
  const args: Node[] = node.arguments;
  if (EVAL.test(name)) return 'eval_or_function_constructor';
  const timer = TIMER.exec(name);
  if (timer) {
    // setTimeout.call(window, code) and setTimeout.apply(window, [code]) move the code along.
    const code = timer[1] === '.call' ? args[1] : timer[1] === '.apply' ? args[1]?.elements?.[0] : args[0];
    return stringish(code, folder) ? 'string_timer' : null;
  }
  if (REFLECT.test(name) && EVAL.test(folder.path(args[0]) ?? '')) return 'eval_or_function_constructor';
  // (function(){}).constructor('code'), [].map.constructor('code'): the Function constructor.
  if (propName(callee, folder) === 'constructor' && args.some((a) => stringish(a, folder))) return 'eval_or_function_constructor';
  return null;
}

const BY_SELECTOR = new Set(['querySelector', 'querySelectorAll', 'closest', 'matches', 'webkitMatchesSelector', 'mozMatchesSelector', 'msMatchesSelector']);
const ident = (s: string) => csstree.ident.encode(s);

/** The CSS selector an element lookup stands for, when its argument folds to a constant. */
export function lookupSelector(method: string, args: Node[], folder: Folder): string | null {
  if (BY_SELECTOR.has(method)) return folder.str(args[0]);
  if (method === 'getElementsByTagName' || method === 'getElementsByTagNameNS') {
    const tag = folder.str(args[method === 'getElementsByTagName' ? 0 : 1]);
    return tag === null ? null : tag === '*' ? '*' : ident(tag);
  }
  if (method === 'getElementsByClassName') {
    const names = folder.str(args[0])?.trim().split(/\s+/).filter(Boolean);
    return names?.length ? names.map((n) => `.${ident(n)}`).join('') : null;
  }
  return null;
}
