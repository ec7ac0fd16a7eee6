// The JS scanner: parses a script with acorn and walks every node (function bodies and timer
// callbacks included, so a delayed redirect is found like an immediate one). Names are compared
// after constant folding (fold.ts), so `window['eth'+'ereum']` reads as `window.ethereum`.
// eval, Function and string timers are refused although the lab CSP has no 'unsafe-eval': the
// code they run is a string the scan never reads, and the CSP is one defence, not the only one.
import { parse } from 'acorn';
import { full } from 'acorn-walk';
import { reachOf } from './bar.ts';
import { at, found, type Origin } from './finding.ts';
import { Folder, type Node, propName } from './fold.ts';
import { codeFromString, lookupSelector } from './js-code.ts';
import { CREDIT_ID } from './limits.ts';

// Names that only wallet or signing code needs: injected providers and their methods.
const WALLET_NAMES = new Set([
  'ethereum',
  'solana',
  'phantom',
  'solflare',
  'backpack',
  'braveSolana',
  'tronWeb',
  'tronLink',
  'keplr',
  'web3',
  'coinbaseWalletExtension',
  'isMetaMask',
  'isPhantom',
  'signTransaction',
  'signAllTransactions',
  'signMessage',
  'signAndSendTransaction',
  'sendTransaction',
  'sendAndConfirmTransaction',
  'requestAccounts',
  'Keypair',
]);
const WALLET_STRING = /^(?:eth_|personal_sign|wallet_)|@solana\/|wallet-adapter|walletconnect|@metamask\//i;
const GLOBAL = /^(?:(?:window|self|globalThis|top|parent|frames)\.)*(?:window|self|globalThis|top|parent|frames|document\.defaultView)$/;
const HTML_SCRIPT = /<\s*script\b/i;
const HTML_REFRESH = /http-equiv\s*=\s*["']?\s*refresh/i;
const HTML_PRELOAD = /<\s*link\b[^>]*\brel\s*=\s*["']?\s*modulepreload/i;
const WRITES_HTML = new Set(['write', 'writeln', 'insertAdjacentHTML', 'createContextualFragment', 'parseFromString', 'setHTMLUnsafe']);
const HTML_PROPS = new Set(['innerHTML', 'outerHTML', 'srcdoc']);
const ROOT_NODES = /^(?:document\.(?:body|documentElement)|document)$/;
// The bar's id or class as a whole name: `#svc-credit-note` is another element.
const NAMES_BAR = new RegExp(`(?<![\\w-])${CREDIT_ID}(?![\\w-])`, 'i');
// Objects where an unknown key that is written or called may be navigation (`location[k] = u`,
// `document[k](u)`); window-like objects are refused on any unknown key (wallet lookups).
const NAVIGABLE = /^(?:(?:window|self|globalThis|top|parent|frames)\.)*(?:document|location|document\.location)$/;

const CODE_HINT = { hint: 'pass a function, not a string: code built from strings at run time is code the scan cannot read' };

/** A URL that leaves the site: any scheme, protocol-relative, rooted (another site), or unknown. */
export function leavesSite(url: string | null): boolean {
  if (url === null) return true;
  const u = url.trim().replace(/[\t\n\r]/g, '');
  return /^[a-z][a-z0-9+.-]*:/i.test(u) || u.startsWith('/') || u.startsWith('\\');
}

function parseScript(source: string, module: boolean) {
  const opts = { ecmaVersion: 'latest' as const, locations: true, allowHashBang: true, allowReturnOutsideFunction: !module };
  try {
    return parse(source, { ...opts, sourceType: module ? 'module' : 'script' });
  } catch (e) {
    if (e instanceof RangeError) throw e;
    // A classic script may use what a module forbids (with, HTML comments, octal …) and back.
    return parse(source, { ...opts, sourceType: module ? 'script' : 'module' });
  }
}

/** Scans one script; throws a finding (finding.ts) at the first rule it breaks. */
export function scanJs(source: string, origin: Origin, opts: { module?: boolean } = {}): void {
  let ast: Node;
  try {
    ast = parseScript(source, opts.module ?? false);
  } catch (e) {
    if (e instanceof RangeError) found('LAB_INVALID', { ...at(origin, 1, 1), field: 'files', reason: 'too_complex_to_scan' });
    const loc = (e as { loc?: { line: number; column: number } }).loc;
    found('LAB_BAD_TYPE', { ...at(origin, loc?.line ?? 1, (loc?.column ?? 0) + 1), reason: 'js_syntax', message: String((e as Error).message).slice(0, 120) });
  }
  const folder = new Folder();
  // Member chains that are written (`a[k].b = …`) or called (`a[k].b(…)`): the walk below is
  // post-order, so a member learns its use from this first pass.
  const used = new WeakMap<Node, 'write' | 'call'>();
  const mark = (node: Node, how: 'write' | 'call') => {
    for (let n = node; n?.type === 'MemberExpression' || n?.type === 'ChainExpression'; n = n.type === 'ChainExpression' ? n.expression : n.object) {
      if (!used.has(n)) used.set(n, how);
    }
  };
  full(ast, (node: Node) => {
    if (node.type === 'VariableDeclarator' && node.id.type === 'Identifier') folder.bind(node.id.name, node.init);
    else if (node.type === 'AssignmentExpression' && node.left.type === 'Identifier') folder.bind(node.left.name, null);
    if (node.type === 'AssignmentExpression' || node.type === 'UpdateExpression') mark(node.left ?? node.argument, 'write');
    else if (node.type === 'CallExpression' || node.type === 'NewExpression') mark(node.callee, 'call');
  });

  const where = (node: Node) => at(origin, node.loc?.start.line ?? 1, (node.loc?.start.column ?? 0) + 1);
  let scriptElement: Node | null = null; // createElement('script') seen
  const srcWrites: { node: Node; value: string | null }[] = [];

  const checkString = (node: Node, s: string) => {
    if (WALLET_NAMES.has(s) || WALLET_STRING.test(s)) found('LAB_WALLET_CODE', { ...where(node), reason: 'wallet_name', name: s.slice(0, 60) });
    if (NAMES_BAR.test(s)) found('LAB_CREDIT_TAMPER', { ...where(node), reason: 'script_names_credit_bar' });
  };
  const checkHtml = (node: Node, html: string | null) => {
    if (html === null) return;
    if (HTML_SCRIPT.test(html)) found('LAB_EXTERNAL_SCRIPT', { ...where(node), reason: 'script_injection' });
    if (HTML_PRELOAD.test(html)) found('LAB_EXTERNAL_SCRIPT', { ...where(node), reason: 'modulepreload_injection' });
    if (HTML_REFRESH.test(html)) found('LAB_EXTERNAL_REDIRECT', { ...where(node), reason: 'meta_refresh_injection' });
  };
  const redirectTarget = (node: Node, target: Node | undefined) => {
    if (leavesSite(target ? folder.str(target) : null)) found('LAB_EXTERNAL_REDIRECT', { ...where(node), reason: 'script_navigation' });
  };

  full(ast, (node: Node, _state: unknown, type: string) => {
    switch (node.type) {
      case 'Literal':
      case 'TemplateLiteral':
      case 'BinaryExpression':
      case 'CallExpression': {
        const s = folder.str(node);
        if (s !== null) checkString(node, s);
        else if (node.type !== 'CallExpression') {
          const p = folder.partial(node);
          if (p && NAMES_BAR.test(p)) found('LAB_CREDIT_TAMPER', { ...where(node), reason: 'script_names_credit_bar' });
        }
        if (node.type === 'CallExpression') checkCall(node);
        break;
      }
      case 'Identifier':
        // eval by any name (`const e = eval`, `[eval][0](s)`) compiles a string at run time.
        if (node.name === 'eval' && type !== 'VariablePattern' && type !== 'Pattern') {
          found('LAB_EXTERNAL_SCRIPT', { ...where(node), reason: 'code_from_string', detail: 'eval_or_function_constructor', ...CODE_HINT });
        }
        if (type !== 'VariablePattern' && type !== 'Pattern' && WALLET_NAMES.has(node.name) && node.name !== 'web3') {
          found('LAB_WALLET_CODE', { ...where(node), reason: 'wallet_global', name: node.name });
        }
        break;
      case 'MemberExpression': {
        const name = propName(node, folder);
        if (name !== null && WALLET_NAMES.has(name)) found('LAB_WALLET_CODE', { ...where(node), reason: 'wallet_property', name });
        const base = folder.path(node.object);
        if (name === null && base !== null) {
          const use = used.get(node);
          // An unknown key written or called on a global, the document or location may be
          // `location = …` or `open(…)` in disguise.
          if (use === 'write' && (GLOBAL.test(base) || NAVIGABLE.test(base)))
            found('LAB_EXTERNAL_REDIRECT', { ...where(node), reason: 'dynamic_global_write' });
          // window[k] with a key we cannot read is how a wallet lookup hides from the scan.
          if (GLOBAL.test(base)) found('LAB_WALLET_CODE', { ...where(node), reason: 'dynamic_global_access' });
          if (use === 'call' && NAVIGABLE.test(base)) found('LAB_EXTERNAL_REDIRECT', { ...where(node), reason: 'dynamic_global_call' });
        }
        if ((name === 'lastChild' || name === 'lastElementChild') && base !== null && ROOT_NODES.test(base)) {
          found('LAB_CREDIT_TAMPER', { ...where(node), reason: 'reaches_last_child_of_page' });
        }
        break;
      }
      case 'AssignmentExpression':
        checkAssignment(node);
        break;
      case 'NewExpression': {
        const why = codeFromString(node, folder);
        if (why) found('LAB_EXTERNAL_SCRIPT', { ...where(node), reason: 'code_from_string', detail: why, ...CODE_HINT });
        const name = folder.path(node.callee);
        if ((name === 'Worker' || name === 'SharedWorker') && leavesSite(folder.str(node.arguments[0]))) {
          found('LAB_EXTERNAL_SCRIPT', { ...where(node), reason: 'external_worker' });
        }
        break;
      }
      case 'ImportExpression':
        if (leavesSite(folder.str(node.source))) found('LAB_EXTERNAL_SCRIPT', { ...where(node), reason: 'external_import' });
        break;
      case 'ImportDeclaration':
      case 'ExportAllDeclaration':
      case 'ExportNamedDeclaration':
        if (node.source && leavesSite(folder.str(node.source))) found('LAB_EXTERNAL_SCRIPT', { ...where(node), reason: 'external_import' });
        break;
    }
  });
  if (scriptElement) {
    for (const w of srcWrites) if (leavesSite(w.value)) found('LAB_EXTERNAL_SCRIPT', { ...where(w.node), reason: 'dynamic_script_src' });
  }

  function checkCall(node: Node): void {
    const name = folder.path(node.callee) ?? '';
    const method = propName(node.callee, folder) ?? (node.callee.type === 'Identifier' ? node.callee.name : '');
    const base = node.callee.type === 'MemberExpression' ? (folder.path(node.callee.object) ?? '') : '';
    const why = codeFromString(node, folder);
    if (why) found('LAB_EXTERNAL_SCRIPT', { ...where(node), reason: 'code_from_string', detail: why, ...CODE_HINT });
    const selector = lookupSelector(method, node.arguments, folder);
    if (selector !== null) {
      const reach = reachOf(selector);
      if ((reach.bar && !reach.pseudoElement) || reach.inside) {
        found('LAB_CREDIT_TAMPER', { ...where(node), reason: 'script_selector_reaches_credit_bar', selector: selector.slice(0, 120) });
      }
    }
    if (method === 'createElement' || method === 'createElementNS') {
      const tag = folder.str(node.arguments[method === 'createElement' ? 0 : 1]);
      if (tag === null || tag.toLowerCase() === 'script') scriptElement = node;
    }
    if (method === 'setAttribute') {
      const attr = folder.str(node.arguments[0])?.toLowerCase() ?? null;
      if (attr === 'src' || attr === null) srcWrites.push({ node, value: folder.str(node.arguments[1]) });
      if (attr !== null && /^(?:id|class)$/.test(attr) && NAMES_BAR.test(folder.str(node.arguments[1]) ?? '')) {
        found('LAB_CREDIT_TAMPER', { ...where(node), reason: 'script_names_credit_bar' });
      }
    }
    if (WRITES_HTML.has(method)) checkHtml(node, folder.partial(node.arguments[method === 'insertAdjacentHTML' ? 1 : 0]));
    if (method === 'importScripts' && node.arguments.some((a: Node) => leavesSite(folder.str(a)))) {
      found('LAB_EXTERNAL_SCRIPT', { ...where(node), reason: 'external_import' });
    }
    if (/(?:^|\.)serviceWorker\.register$/.test(name)) found('LAB_EXTERNAL_SCRIPT', { ...where(node), reason: 'service_worker' });
    if (/(?:^|\.)location\.(?:replace|assign)$/.test(name) || (method === 'navigate' && /(?:^|\.)navigation$/.test(base))) {
      redirectTarget(node, node.arguments[0]);
    }
    if ((name === 'open' || (method === 'open' && GLOBAL.test(base))) && node.arguments.length > 0) redirectTarget(node, node.arguments[0]);
    if (method === 'open' && base === 'document') found('LAB_CREDIT_TAMPER', { ...where(node), reason: 'replaces_page' });
    if (/^(?:replaceChildren|replaceWith|remove)$/.test(method) && ROOT_NODES.test(base) && base !== 'document') {
      found('LAB_CREDIT_TAMPER', { ...where(node), reason: 'replaces_page' });
    }
  }

  function checkAssignment(node: Node): void {
    const left = node.left;
    if (left.type !== 'MemberExpression' && left.type !== 'Identifier') return;
    const name = left.type === 'Identifier' ? left.name : (folder.path(left) ?? '');
    const prop = left.type === 'MemberExpression' ? propName(left, folder) : null;
    const base = left.type === 'MemberExpression' ? (folder.path(left.object) ?? '') : '';
    if (/(?:^|\.)location(?:\.href)?$/.test(name)) redirectTarget(node, node.right);
    if (/(?:^|\.)location\.(?:host|hostname|protocol|port|origin)$/.test(name)) found('LAB_EXTERNAL_REDIRECT', { ...where(node), reason: 'script_navigation' });
    if (prop === 'src') srcWrites.push({ node, value: folder.str(node.right) });
    if (prop !== null && HTML_PROPS.has(prop)) {
      if (ROOT_NODES.test(base)) found('LAB_CREDIT_TAMPER', { ...where(node), reason: 'replaces_page' });
      checkHtml(node, folder.partial(node.right));
    }
    if ((prop === 'textContent' || prop === 'innerText') && ROOT_NODES.test(base)) found('LAB_CREDIT_TAMPER', { ...where(node), reason: 'replaces_page' });
    if ((prop === 'id' || prop === 'className') && NAMES_BAR.test(folder.partial(node.right) ?? '')) {
      found('LAB_CREDIT_TAMPER', { ...where(node), reason: 'script_names_credit_bar' });
    }
  }
}
