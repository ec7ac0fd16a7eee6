// Selectors are matched against the credit bar's real element (as the service injects it), not
// its text: rules and lookups that reach the bar without naming it in full are refused, names
// that merely start like the bar's are not the bar, and only declarations that can hide, move,
// shrink or restyle the bar count for rules that reach every element.
import { describe } from 'bun:test';
import { css, file, html, js, page, site, table } from './fixtures.ts';

const TAMPER = 'LAB_CREDIT_TAMPER';

describe('stylesheets', () => {
  table(
    [
      ['the bar by its role', css('[role=contentinfo] { display: none }'), TAMPER, { reason: 'rule_names_credit_bar', file: 'style.css', line: 1 }],
      ['the role case-insensitively', css('[ROLE="ContentInfo" i] { color: red }'), TAMPER, { reason: 'rule_names_credit_bar' }],
      ['an id written with a CSS escape', css('#\\73 vc-credit { display: none }'), TAMPER, { reason: 'rule_names_credit_bar' }],
      ['a class written with an escaped dash', css('.svc\\-credit { color: red }'), TAMPER],
      ['the bar as the first child of an empty body', css('body > :first-child { display: none }'), TAMPER, { reason: 'broad_rule_hides_or_moves_credit_bar' }],
      ['everything hovered', css(':hover { opacity: 0 }'), TAMPER, { property: 'opacity' }],
      ['everything holding focus', css(':focus-within { transform: scale(0) }'), TAMPER],
      ['the target of the address', css(':target { display: none }'), TAMPER],
      ['any element with a role', css('[aria-hidden], [role] { display: none }'), TAMPER, { selector: '[role]' }],
      ['a sibling after any element', css('h1 ~ * { visibility: hidden }'), TAMPER],
      ['every element shrunk', css('body > * { height: 0 }'), TAMPER, { property: 'height' }],
      ['every text made invisible', css('* { color: transparent }'), TAMPER, { property: 'color' }],
      ['every font shrunk', css('* { font-size: 0 }'), TAMPER],
      ['every element animated away', css('@keyframes vanish { to { opacity: 0 } }\n* { animation: vanish 1s forwards }'), TAMPER, { line: 2 }],
      ['the page faded out', css('body { opacity: 0 }'), TAMPER, { reason: 'hides_page_holding_credit_bar' }],
      ['the page hidden', css('html { display: none }'), TAMPER, { reason: 'hides_page_holding_credit_bar' }],
      ['the page moved', css('body { transform: translateY(100vh) }'), TAMPER, { reason: 'hides_page_holding_credit_bar' }],
      ['the bar links by their address', css('a[href*="/agents/"] { color: transparent }'), TAMPER, { reason: 'rule_names_credit_bar' }],
      ['the bar links under an id prefix', css('[id^="svc-"] a { font-size: 0 }'), TAMPER, { reason: 'rule_names_credit_bar' }],
      ['the bar links once visited', css('svc-credit a:visited { color: transparent }'), TAMPER, { reason: 'rule_names_credit_bar' }],
      ['a nested rule css-tree cannot read', css('body { color: black; > * { display: none } }'), TAMPER],
      ['a nested rule with &', css('body { & > :first-child { display: none } }'), TAMPER],
      ['an :is() with a combinator', css(':is(body > *) { display: none }'), TAMPER],
      ['a rule in an inline style element', html('<style>[role~=contentinfo]{bottom:-100px}</style><p>x</p>'), TAMPER, { file: 'index.html' }],
    ],
    [
      ['an id that starts like the bar', css('#svc-credit-note { display: none }')],
      ['a class that starts like the bar', css('.svc-credit-note, .svc-credits { display: none }')],
      ['links to https', css('a[href^=https] { text-decoration: none; display: none }')],
      ['a universal box-sizing reset', css('*, *::before, *::after { box-sizing: border-box; margin: 0 }')],
      ['the first child with a harmless margin', css('body > :first-child { margin-top: 0 }')],
      ['a hovered card', css('.card:hover { transform: scale(1.05) }')],
      ['a first list item hidden', css('li:first-child { display: none }')],
      ['another role', css('[role=navigation] { display: none } [role=button] { cursor: pointer }')],
      ['the body styled', css('body { margin: 0; position: relative; font-family: sans-serif; transform: none }')],
      ['utility classes', css('.hidden { display: none } .fade { opacity: 0 }')],
      ['an animation on a class', css('@keyframes fade { from { opacity: 0 } }\n.x { animation: fade 1s }')],
      ['a width cap on everything', css('* { max-width: 100% } body > * { max-width: 60ch; margin: auto }')],
      ['a nested hover', css('.card { color: black; &:hover { color: red } }')],
      ['a universal pseudo-element', css('*::before { content: ""; display: none }')],
      ['an :is() with a combinator that cannot reach the bar', css(':is(.card > p) { display: none }')],
    ],
  );
});

describe('scripts', () => {
  table(
    [
      [
        'the bar by its role',
        js("document.querySelectorAll('[role=contentinfo]').forEach((e) => e.remove())"),
        TAMPER,
        { reason: 'script_selector_reaches_credit_bar' },
      ],
      ['the last child of the body', js("document.querySelector('body > :last-child').remove()"), TAMPER],
      ['every element', js("document.querySelectorAll('*').forEach((e) => (e.style.display = 'none'))"), TAMPER],
      ['every element by tag', js("for (const e of document.getElementsByTagName('*')) e.hidden = true"), TAMPER],
      ['an id suffix in closest', js("el.closest('[id$=credit]').hidden = true"), TAMPER],
      ['an escaped id', js("document.querySelector('#\\\\73 vc-credit').remove()"), TAMPER],
      ['the bar link by address', js("document.querySelector('a[href*=\"/agents/\"]').textContent = 'me'"), TAMPER],
      ['a folded selector', js("const s = '[role=' + 'contentinfo]'; document.querySelector(s).remove()"), TAMPER],
    ],
    [
      ['an id that starts like the bar', js("document.querySelector('#svc-credit-note').textContent = 'x'")],
      ['every link', js("document.querySelectorAll('a').forEach((a) => (a.rel = 'noopener'))")],
      ['links to https', js("document.querySelectorAll('a[href^=https]').forEach((a) => (a.target = '_blank'))")],
      ['a class', js("document.querySelectorAll('.card').forEach((c) => c.remove())")],
      ['closest button', js("addEventListener('click', (e) => e.target.closest('button')?.focus())")],
      ['an element by id', js("document.getElementById('main').hidden = true")],
      ['an unknown selector', js('document.querySelector(sel).remove()')],
    ],
  );
});

describe('markup', () => {
  table(
    [['the bar class among others', html('<div class="note SVC-CREDIT">x</div>'), TAMPER, { reason: 'page_imitates_credit_bar' }]],
    [
      ['an id that starts like the bar', html('<div id="svc-credit-note">x</div>')],
      ['a class that starts like the bar', site([file('a.html', page('<p class="svc-credits">x</p>'))])],
    ],
  );
});
