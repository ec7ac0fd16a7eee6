// Sanity check that large and hostile bodies finish: no regex may backtrack catastrophically.
// There are no timing assertions (machines differ); a regression shows up as a test timeout.
import { describe, expect, test } from 'bun:test';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import { scanContent } from '../../src/content/index.ts';
import type { ContentViolation } from '../../src/content/index.ts';
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

// Each hostile body also gets its verdict pinned: a run of prefixes with no random part behind them
// is not a secret, and the few that do hold a real match (a JWT header repeated into three
// segments, BIP-39 words whose checksum holds) are reported as that kind.
describe('hostile bodies built from the prefixes and alphabets the detectors look for finish', () => {
  const fx = new Fixtures(3);
  const secret = (kind: string): ContentViolation => ({ code: 'SECRET_LIKE', kind, where: 'body' });
  const hostile: [string, string, ContentViolation | null][] = [
    ['one long base58/base62 run', repeatTo('a'), null],
    ['a run of 1', repeatTo('1'), null],
    ['one long hex run', repeatTo('f'), null],
    ['0x repeated', repeatTo('0x'), null],
    ['many candidate byte arrays', repeatTo('['), null],
    ['[1, repeated', repeatTo('[1,'), null],
    ['1, repeated', repeatTo('1, '), null],
    ['sk- repeated', repeatTo('sk-'), null],
    ['sk-ant- repeated', repeatTo('sk-ant-'), null],
    ['ghp_ repeated', repeatTo('ghp_'), null],
    ['AKIA repeated', repeatTo('AKIA'), null],
    ['xoxb-1 repeated', repeatTo('xoxb-1'), null],
    ['svc_ repeated', repeatTo('svc_'), null],
    ['eyJ. repeated', repeatTo('eyJ.'), null],
    ['a JWT header repeated', repeatTo('eyJhbGciOiJIUzI1NiJ9.'), secret('jwt')],
    ['-----BEGIN repeated', repeatTo('-----BEGIN '), null],
    ['a PEM header repeated', repeatTo('-----BEGIN PRIVATE KEY-----'), null],
    ['a Slack webhook prefix repeated', repeatTo('hooks.slack.com/services/'), null],
    ['"private key" repeated', repeatTo('private key '), secret('seed_phrase')],
    ['a join at every line', repeatTo('a\n'), null],
    ['a hyphen join at every line', repeatTo('ab-\n'), null],
    ['one long run of distinct BIP-39 words', repeatTo(`${wordlist.slice(0, 64).join(' ')} `), secret('seed_phrase')],
    ['abandon repeated', repeatTo('abandon '), null],
    ['"to the" repeated', repeatTo('to the '), null],
    ['"not financial advice" repeated', repeatTo('not financial advice '), null],
    ['random base58', fx.chars('123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz', SIZE), null],
    ['random hex', fx.chars('0123456789abcdef', SIZE), null],
    ['random base64 lines', fx.chars('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=\n', SIZE), null],
  ];
  for (const [name, body, verdict] of hostile) {
    test(name, () => {
      expect(scanContent({ body })).toEqual(verdict);
    });
  }
});

describe('64 KB bodies built from the price-talk vocabulary finish', () => {
  // Digit and comma runs once made a number pattern retry every shorter prefix (quadratic); each
  // unit here is the start of some pattern, at every position of the text. Only the two that
  // repeat into a real trade plan ("entry 1 entry 1", "TP 1/TP 1") and a call with its prediction
  // are price talk.
  const priceTalk = (match: string): ContentViolation => ({ code: 'PRICE_TALK', match, where: 'body' });
  const units: [string, ContentViolation | null][] = [
    ['1,', null],
    ['1', null],
    ['0.000', null],
    ['$1,1', null],
    ['SOL 1 → ', null],
    ['SOL to ', null],
    ['S0L ', null],
    ['E1 ', null],
    ['entry 1 ', priceTalk('entry 1 entry 1')],
    ['TP 1/', priceTalk('TP 1/TP 1')],
    ['buy SOL ', null],
    // the prediction shape (price-talk-shape.ts): a subject and a movement with no target, or a
    // target that runs on into the next subject
    ['this coin is going to ', null],
    ['the token will ', null],
    ['ETH heading for zero ', null],
    ['BTC goes to 1,000 ', null],
    ['the price ', null],
    // a call and a prediction over two clauses (price-talk-split.ts): a call with a prediction
    // left open, a move with no time, a time with no target; the one whole pair is price talk
    ['sell ETH, it will ', null],
    ['ETH drops to 1 ', null],
    ['soon ETH drops to ', null],
    ['ETH is dropping to ', null],
    ['compra SOL porque ', null],
    ['sell ETH. it will double. ', priceTalk('sell ETH. it will double')],
    ['compra ', null],
    ['jetzt ', null],
    ['🚀', null],
    ['AAAA ', null],
  ];
  for (const [unit, verdict] of units) {
    test(JSON.stringify(unit), () => {
      expect(scanContent({ body: repeatTo(unit, 65_536) }, { secrets: false, selfPitch: false })).toEqual(verdict);
    });
  }
});
