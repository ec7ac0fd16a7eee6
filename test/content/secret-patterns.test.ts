// Runs every case of the secret table: each positive is reported as its own kind, each negative
// passes the whole secret scan (not just its own detector).
import { describe, expect, test } from 'bun:test';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import { findSecret } from '../../src/content/index.ts';
import { hasSeedPhrase } from '../../src/content/secret-detectors.ts';
import { SECRET_PATTERNS } from '../../src/content/secret-patterns.ts';
import { anyValidWindow, Fixtures, freshMnemonic } from './fixtures.ts';
import { SECRET_CASES } from './secret-pattern-cases.ts';

const fx = new Fixtures();

const SPEC_KINDS = [
  'anthropic_key',
  'aws_access_key',
  'github_token',
  'google_api_key',
  'hex_private_key',
  'jwt',
  'openai_key',
  'pem_private_key',
  'seed_phrase',
  'slack_token',
  'slack_webhook',
  'solana_secret_key',
  'stripe_key',
  'svc_api_key',
];

test('the detector table holds exactly the secret kinds the spec names, and every kind has cases', () => {
  expect(SECRET_PATTERNS.map((p) => p.kind).sort()).toEqual(SPEC_KINDS);
  expect(Object.keys(SECRET_CASES).sort()).toEqual(SPEC_KINDS);
});

for (const [kind, cases] of Object.entries(SECRET_CASES)) {
  describe(kind, () => {
    cases.positives.forEach((template, i) => {
      test(`positive ${i + 1} is reported as ${kind}: ${JSON.stringify(template).slice(0, 70)}`, () => {
        expect(findSecret(fx.expand(template))).toEqual({ kind });
      });
    });
    cases.negatives.forEach((template, i) => {
      test(`negative ${i + 1} passes: ${JSON.stringify(template).slice(0, 70)}`, () => {
        expect(findSecret(fx.expand(template))).toBeNull();
      });
    });
  });
}

describe('values the spec says must pass', () => {
  const fresh = new Fixtures(7);
  const cases: [string, string][] = [
    ['a public Solana address', fresh.expand('{{solana_pubkey_b58}}')],
    ['an Ethereum address', `0x${fresh.chars('0123456789abcdef', 40)}`],
    ['a uuid', crypto.randomUUID()],
    ['a git commit hash', fresh.chars('0123456789abcdef', 40)],
    ['a bare sha256 hash', fresh.chars('0123456789abcdef', 64)],
    ['a transaction signature', fresh.expand('{{solana_signature_b58}}')],
    ['prose with a few BIP-39 words', 'We found that the cache was about twice as slow as expected under load.'],
    ['a 12-word list that fails the checksum', fresh.expand('{{bad_mnemonic:12}}')],
  ];
  for (const [name, text] of cases) {
    test(`${name} passes`, () => {
      expect(findSecret(text)).toBeNull();
    });
  }

  test('many random signatures pass, many random keypairs are caught', () => {
    const f = new Fixtures(99);
    for (let i = 0; i < 50; i++) {
      expect(findSecret(f.expand('sig {{solana_signature_b58}}'))).toBeNull();
      expect(findSecret(f.expand('{{solana_keypair_b58}}'))).toEqual({ kind: 'solana_secret_key' });
    }
  });

  test('phrases from the library generator are caught, alone or inside a sentence', () => {
    expect(findSecret(freshMnemonic())).toEqual({ kind: 'seed_phrase' });
    expect(findSecret(`please keep safe: ${freshMnemonic()} thanks`)).toEqual({ kind: 'seed_phrase' });
  });
});

test('the fast checksum agrees with validateMnemonic over every window of 300 random word lists', () => {
  const f = new Fixtures(11);
  let found = 0;
  for (let i = 0; i < 300; i++) {
    const size = [12, 15, 18, 21, 24][i % 5]!;
    const list = Array.from({ length: size }, () => wordlist[((f.bytes(1)[0]! << 8) | f.bytes(1)[0]!) % 2048]!);
    const expected = anyValidWindow(list);
    if (expected) found++;
    expect(hasSeedPhrase(list.join(' '))).toBe(expected);
  }
  // About 1 in 16 12-word windows is valid by chance, so both outcomes were exercised.
  expect(found).toBeGreaterThan(12);
});
