// Redirects hidden from a literal match (computed member names, folded keys, unknown keys written
// or called on the page's globals) and code compiled from strings (eval, Function, string timers).
import { describe } from 'bun:test';
import { js, table } from './fixtures.ts';

const OUT = "'https://elsewhere.example/'";
const CODE = { reason: 'code_from_string' };

describe('navigation through computed member names', () => {
  table(
    [
      ['a concatenated location', js(`window['loc' + 'ation'] = ${OUT}`), 'LAB_EXTERNAL_REDIRECT', { reason: 'script_navigation' }],
      ['a location named with atob', js(`self[atob('bG9jYXRpb24=')] = ${OUT}`), 'LAB_EXTERNAL_REDIRECT', { reason: 'script_navigation' }],
      ['a concatenated href', js(`window['location']['hr' + 'ef'] = ${OUT}`), 'LAB_EXTERNAL_REDIRECT'],
      ['a template-literal location and assign', js(`top[\`loc\${'ation'}\`].assign(${OUT})`), 'LAB_EXTERNAL_REDIRECT'],
      ['document location by a folded key', js(`document['loc' + 'ation'].replace(${OUT})`), 'LAB_EXTERNAL_REDIRECT'],
      ['a const key', js(`const k = 'location'; globalThis[k] = ${OUT}`), 'LAB_EXTERNAL_REDIRECT'],
      ['a folded method on location', js(`location['rep' + 'lace'](${OUT})`), 'LAB_EXTERNAL_REDIRECT'],
      ['a window reached through (0, window)', js(`(0, window)['loc' + 'ation'] = ${OUT}`), 'LAB_EXTERNAL_REDIRECT'],
      [
        'an unknown key written on window',
        js(`const k = location.hash.slice(1); window[k] = ${OUT}`),
        'LAB_EXTERNAL_REDIRECT',
        { reason: 'dynamic_global_write' },
      ],
      ['an unknown key written through window', js(`window[key()].href = ${OUT}`), 'LAB_EXTERNAL_REDIRECT', { reason: 'dynamic_global_write' }],
      ['an unknown key written on location', js(`location[pick()] = ${OUT}`), 'LAB_EXTERNAL_REDIRECT', { reason: 'dynamic_global_write' }],
      ['an unknown key called on document', js(`document[name](${OUT})`), 'LAB_EXTERNAL_REDIRECT', { reason: 'dynamic_global_call' }],
      ['an unknown key called on location', js(`window.location[m](${OUT})`), 'LAB_EXTERNAL_REDIRECT', { reason: 'dynamic_global_call' }],
      ['an unknown key on document.location', js(`document.location[atob(k)] = ${OUT}`), 'LAB_EXTERNAL_REDIRECT'],
    ],
    [
      ['a concatenated innerWidth read', js("const w = window['inner' + 'Width']; console.log(w)")],
      ['a folded location read', js("const here = window['loc' + 'ation'].pathname; console.log(here)")],
      ['a folded hash change', js("window['loc' + 'ation'].hash = '#top'")],
      ['a folded location to a page of the site', js("window['loc' + 'ation'] = 'page2.html'")],
      ['an unknown key read on document', js("const k = 'hidden'; if (document[k + suffix]) console.log('paused')")],
      ['an unknown key on an ordinary object', js('const o = {}; o[k] = 1; o[k]()')],
      ['a member call on window with a constant name', js("window['scroll' + 'To'](0, 0)")],
    ],
  );
});

describe('code compiled from strings', () => {
  table(
    [
      ['setTimeout with a string', js(`setTimeout("location = ${OUT}", 10)`), 'LAB_EXTERNAL_SCRIPT', { ...CODE, detail: 'string_timer' }],
      ['setInterval with a template literal', js('setInterval(`tick()`, 1000)'), 'LAB_EXTERNAL_SCRIPT', CODE],
      ['setTimeout with a concatenation', js("setTimeout('go' + 'Away()', 5)"), 'LAB_EXTERNAL_SCRIPT', CODE],
      ['setTimeout with a concatenation of unknowns', js('setTimeout(a + b, 5)'), 'LAB_EXTERNAL_SCRIPT', CODE],
      ['setTimeout with a string const', js("const code = 'run()'; setTimeout(code, 1)"), 'LAB_EXTERNAL_SCRIPT', CODE],
      ['window.setTimeout with atob', js('window.setTimeout(atob(x), 1)'), 'LAB_EXTERNAL_SCRIPT', CODE],
      ['setTimeout.call with a string', js("setTimeout.call(window, 'run()', 1)"), 'LAB_EXTERNAL_SCRIPT', CODE],
      ['a string timer in a conditional', js("setTimeout(ok ? run : 'run()', 1)"), 'LAB_EXTERNAL_SCRIPT', CODE],
      ['eval', js("eval('1 + 1')"), 'LAB_EXTERNAL_SCRIPT', { ...CODE, detail: 'eval_or_function_constructor' }],
      ['eval of a variable', js('eval(input)'), 'LAB_EXTERNAL_SCRIPT', CODE],
      ['eval by a folded name', js("window['ev' + 'al'](s)"), 'LAB_EXTERNAL_SCRIPT', CODE],
      ['indirect eval', js('(0, eval)(s)'), 'LAB_EXTERNAL_SCRIPT', CODE],
      ['eval under another name', js('const e = eval; e(s)'), 'LAB_EXTERNAL_SCRIPT', CODE],
      ['new Function', js("const f = new Function('return 1'); f()"), 'LAB_EXTERNAL_SCRIPT', CODE],
      ['Function called', js("Function('a', 'return a')(1)"), 'LAB_EXTERNAL_SCRIPT', CODE],
      ['the Function constructor by its constructor', js("[].constructor.constructor('return this')()"), 'LAB_EXTERNAL_SCRIPT', CODE],
      ['Reflect.construct of Function', js("Reflect.construct(Function, ['return 1'])"), 'LAB_EXTERNAL_SCRIPT', CODE],
      ['Function.apply', js('Function.apply(null, args)'), 'LAB_EXTERNAL_SCRIPT', CODE],
    ],
    [
      ['setTimeout with a function name', js('function fn() {} setTimeout(fn, 100)')],
      ['setTimeout with an arrow', js('setTimeout(() => console.log(1), 10)')],
      ['setInterval with a function expression', js('setInterval(function () { console.log(1) }, 1000)')],
      ['setTimeout with a looked-up handler', js('setTimeout(handlers[name], 5)')],
      ['setTimeout with a bound function', js('setTimeout(run.bind(null, 1), 5)')],
      ['instanceof Function', js('const isFn = (x) => x instanceof Function; isFn(1)')],
      ['a method named evaluate', js("const r = doc.evaluate('//p', doc); console.log(r)")],
      ['a name starting with eval', js('const evaluation = 1; console.log(evaluation)')],
      ['new this.constructor', js('class A { copy(x) { return new this.constructor(x) } }')],
      ['requestAnimationFrame', js('requestAnimationFrame(function draw() {})')],
    ],
  );
});
