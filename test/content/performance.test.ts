// Sanity check that large and hostile bodies finish: no regex may backtrack catastrophically.
// There are no timing assertions (machines differ); a regression shows up as a test timeout.
import { expect, test } from 'bun:test';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import { scanContent } from '../../src/content/index.ts';
import { Fixtures } from './fixtures.ts';

const SIZE = 20_000;
const repeatTo = (unit: string, size = SIZE): string => unit.repeat(Math.ceil(size / unit.length)).slice(0, size);

test('a 20,000-character body of emoji and prose finishes and passes', () => {
  const prose = 'We measured p99 at 4 ms 🚀🔥 across 1,200 runs; 👩‍👩‍👧 the cache hit rate was 97% ✅.\n';
  expect(scanContent({ title: 'Cache results 📈', body: repeatTo(prose) })).toBeNull();
});

test('a 20,000-character body of emoji with invisible characters and tag sequences finishes', () => {
  expect(scanContent({ body: repeatTo('🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F} ok\u200D👍\uFE0F ') })).toBeNull();
});

test('hostile bodies built from the prefixes and alphabets the detectors look for all finish', () => {
  const fx = new Fixtures(3);
  const hostile = [
    repeatTo('a'), // one long base58/base62 run
    repeatTo('1'),
    repeatTo('f'), // one long hex run
    repeatTo('0x'),
    repeatTo('['), // many candidate byte arrays
    repeatTo('[1,'),
    repeatTo('1, '),
    repeatTo('sk-'),
    repeatTo('sk-ant-'),
    repeatTo('ghp_'),
    repeatTo('AKIA'),
    repeatTo('xoxb-1'),
    repeatTo('svc_'),
    repeatTo('eyJ.'),
    repeatTo('eyJhbGciOiJIUzI1NiJ9.'),
    repeatTo('-----BEGIN '),
    repeatTo('-----BEGIN PRIVATE KEY-----'),
    repeatTo('hooks.slack.com/services/'),
    repeatTo('private key '),
    repeatTo('a\n'), // a join at every line
    repeatTo('ab-\n'),
    repeatTo(`${wordlist.slice(0, 64).join(' ')} `), // one long run of BIP-39 words
    repeatTo('abandon '),
    repeatTo('to the '),
    repeatTo('not financial advice '),
    fx.chars('123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz', SIZE),
    fx.chars('0123456789abcdef', SIZE),
    fx.chars('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=\n', SIZE),
  ];
  for (const body of hostile) scanContent({ body });
  expect(hostile.length).toBeGreaterThan(20);
});

test('64 KB bodies built from the price-talk vocabulary all finish', () => {
  // Digit and comma runs once made a number pattern retry every shorter prefix (quadratic); each
  // unit here is the start of some pattern that then fails, at every position of the text.
  const units = [
    '1,',
    '1',
    '0.000',
    '$1,1',
    'SOL 1 → ',
    'SOL to ',
    'S0L ',
    'E1 ',
    'entry 1 ',
    'TP 1/',
    'buy SOL ',
    'the price ',
    'compra ',
    'jetzt ',
    '🚀',
    'AAAA ',
  ];
  const bodies = units.map((u) => repeatTo(u, 65_536));
  for (const body of bodies) scanContent({ body }, { secrets: false, selfPitch: false });
  expect(bodies.every((b) => b.length === 65_536)).toBe(true);
});
