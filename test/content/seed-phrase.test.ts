// Seed phrases: a run of 12/15/18/21/24 BIP-39 words is a phrase only when its checksum holds and
// it has at least two distinct words. About 1 word in 16 repeated 12 times passes the checksum by
// chance ("action action …"); those runs are not phrases anyone generated and must pass.
import { describe, expect, test } from 'bun:test';
import { createHash } from 'node:crypto';
import { validateMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import { findSecret } from '../../src/content/index.ts';
import { hasSeedPhrase } from '../../src/content/secret-detectors.ts';
import { anyValidWindow, Fixtures } from './fixtures.ts';

const rep = (word: string, n: number, sep = ' '): string => Array(n).fill(word).join(sep);
const listWords = (text: string): string[] => (text.toLowerCase().match(/[a-z]+/g) ?? []).filter((w) => wordlist.includes(w));
// The reference rule over each run of consecutive list words (a word off the list ends a run).
const referenceHolds = (text: string): boolean =>
  (text.toLowerCase().match(/[a-z]+/g) ?? [])
    .reduce<string[][]>(
      (runs, w) => {
        if (wordlist.includes(w)) runs[runs.length - 1]!.push(w);
        else runs.push([]);
        return runs;
      },
      [[]],
    )
    .some((run) => anyValidWindow(run));

// [name, text]: one word repeated, and that repetition on its own passes validateMnemonic.
const REPEATED: [string, string, number][] = [
  ['action × 12', rep('action', 12), 12],
  ['agent × 12, comma separated', rep('agent', 12, ', '), 12],
  ['beef × 12 inside a sentence', `the log said ${rep('beef', 12)} and stopped`, 12],
  ['blue × 12 in capitals', rep('BLUE', 12), 12],
  ['audit × 12 as a numbered list', Array.from({ length: 12 }, (_, i) => `${i + 1}. audit`).join('\n'), 12],
  ['action × 13 (every 12-window is one word)', rep('action', 13), 12],
  ['access × 15', rep('access', 15), 15],
  ['ahead × 18', rep('ahead', 18), 18],
  ['egg × 21', rep('egg', 21), 21],
  ['bacon × 24', rep('bacon', 24), 24],
  ['trade × 24 on separate lines', rep('trade', 24, '\n'), 24],
  ['ZEBRA × 24 in capitals', rep('ZEBRA', 24), 24],
  ['gas × 24 in a sentence', `filler: ${rep('gas', 24)}.`, 24],
];

// Published BIP-39 test vectors (English, trezor/python-mnemonic vectors.json) and runs holding one.
const VECTORS: [string, string][] = [
  ['abandon × 11, about', `${rep('abandon', 11)} about`],
  ['legal winner … yellow', 'legal winner thank year wave sausage worth useful legal winner thank yellow'],
  ['letter advice … above', 'letter advice cage absurd amount doctor acoustic avoid letter advice cage above'],
  ['zoo × 11, wrong', `${rep('zoo', 11)} wrong`],
  ['abandon × 17, agent', `${rep('abandon', 17)} agent`],
  ['zoo × 17, when', `${rep('zoo', 17)} when`],
  ['abandon × 23, art', `${rep('abandon', 23)} art`],
  ['zoo × 23, vote', `${rep('zoo', 23)} vote`],
  ['jelly better … bridge', 'jelly better achieve collect unaware mountain thought cargo oxygen act hood bridge'],
  ['scheme spot … borrow', 'scheme spot photo card baby mountain device kick cradle pact join borrow'],
  ['abandon × 11, about after a repeated run', `${rep('action', 12)}\n${rep('abandon', 11)} about`],
  ['ABANDON × 11, ABOUT in capitals', `${rep('ABANDON', 11)} ABOUT`],
];

// Near misses: list words, right lengths, but no window with two distinct words and a valid checksum.
const NEAR_MISSES: [string, string][] = [
  ['abandon × 12', rep('abandon', 12)],
  ['abandon × 10, about (11 words)', `${rep('abandon', 10)} about`],
  ['abandon × 11, ability (wrong checksum word)', `${rep('abandon', 11)} ability`],
  ['zoo × 12', rep('zoo', 12)],
  ['zoo × 11, zone', `${rep('zoo', 11)} zone`],
  ['legal winner … with the last word changed', 'legal winner thank year wave sausage worth useful legal winner thank year'],
  ['legal winner … broken by prose', 'legal winner thank year wave sausage, as we said, worth useful legal winner thank yellow'],
  ['abandon × 23, vote (24 words)', `${rep('abandon', 23)} vote`],
];

describe('one word repeated passes even when its checksum happens to hold', () => {
  for (const [name, text, size] of REPEATED) {
    test(name, () => {
      const word = listWords(text)[0]!;
      expect(validateMnemonic(rep(word, size), wordlist)).toBe(true);
      expect(findSecret(text)).toBeNull();
    });
  }
});

describe('the published test vectors are caught', () => {
  for (const [name, text] of VECTORS) {
    test(name, () => {
      expect(referenceHolds(text)).toBe(true);
      expect(findSecret(text)).toEqual({ kind: 'seed_phrase' });
    });
  }
});

describe('near misses pass', () => {
  for (const [name, text] of NEAR_MISSES) {
    test(name, () => {
      expect(referenceHolds(text)).toBe(false);
      expect(findSecret(text)).toBeNull();
    });
  }
});

// The BIP-39 checksum of `word` repeated `size` times, from its definition (the top size/3 bits of
// sha256(entropy)); validateMnemonic would take seconds over 10,240 runs. Cross-checked below.
function checksumHoldsForRepeat(word: string, size: number): boolean {
  const index = wordlist.indexOf(word);
  const bits = Array.from({ length: size * 11 }, (_, i) => (index >> (10 - (i % 11))) & 1);
  const entropyBits = (size * 32) / 3;
  const entropy = new Uint8Array(entropyBits / 8);
  for (let i = 0; i < entropyBits; i++) if (bits[i]) entropy[i >> 3]! |= 0x80 >> (i & 7);
  const checksum = bits.slice(entropyBits).reduce((acc, bit) => (acc << 1) | bit, 0);
  return createHash('sha256').update(entropy).digest()[0]! >> (8 - size / 3) === checksum;
}

test('the checksum of a repeated word agrees with validateMnemonic', () => {
  for (const word of ['action', 'bacon', 'abandon', 'zoo', 'gas', 'ocean', 'egg']) {
    for (const size of [12, 15, 18, 21, 24]) expect(checksumHoldsForRepeat(word, size)).toBe(validateMnemonic(rep(word, size), wordlist));
  }
});

test('no list word repeated 12, 15, 18, 21 or 24 times is a seed phrase', () => {
  let checksumHeld = 0;
  const caught: string[] = [];
  for (const size of [12, 15, 18, 21, 24]) {
    for (const word of wordlist) {
      if (checksumHoldsForRepeat(word, size)) checksumHeld++;
      if (hasSeedPhrase(rep(word, size))) caught.push(`${word} × ${size}`);
    }
  }
  expect(caught).toEqual([]);
  // 130 + 57 + 26 + 17 + 11 repetitions pass the checksum; the sweep exercised them.
  expect(checksumHeld).toBe(241);
});

test('a repeated word with one other word that completes the checksum is a phrase', () => {
  // Like the abandon…about vector: 11 copies of a word, then the word that makes the checksum hold.
  let tried = 0;
  for (const word of ['action', 'gas', 'trade', 'zebra', 'ocean', 'window']) {
    const last = wordlist.find((w) => w !== word && validateMnemonic(`${rep(word, 11)} ${w}`, wordlist));
    if (!last) continue;
    tried++;
    expect(findSecret(`${rep(word, 11)} ${last}`)).toEqual({ kind: 'seed_phrase' });
  }
  expect(tried).toBeGreaterThanOrEqual(5);
});

test('generated phrases of every length are still caught next to a repeated run', () => {
  const fx = new Fixtures(42);
  for (const size of [12, 15, 18, 21, 24]) {
    expect(findSecret(`${rep('bacon', 24)} ${fx.mnemonic(size)}`)).toEqual({ kind: 'seed_phrase' });
  }
});
