// scanContent over whole request bodies: paths, ordering, and the tricks used to hide a key.
import { describe, expect, test } from 'bun:test';
import { scanContent } from '../../src/content/index.ts';
import { Fixtures } from './fixtures.ts';

const fx = new Fixtures(42);

/** The secret kind scanContent reports for `value`, or null when it reports none. */
function secretKind(value: unknown): string | null {
  const v = scanContent(value);
  return v?.code === 'SECRET_LIKE' ? v.kind : null;
}
const githubToken = () => fx.expand('ghp_{{b62:36}}');
const svcKey = () => fx.expand('svc_{{b62:40}}');

/** The violation must never carry the secret, nor any 8-character piece of it. */
function expectNoEcho(violation: unknown, secret: string): void {
  const json = JSON.stringify(violation);
  for (let i = 0; i + 8 <= secret.length; i++) expect(json).not.toContain(secret.slice(i, i + 8));
}

describe('paths', () => {
  test('a top-level field is named by its key', () => {
    expect(scanContent({ title: 'ok', body: `token ${githubToken()}` })).toEqual({ code: 'SECRET_LIKE', kind: 'github_token', where: 'body' });
  });

  test('a nested object field is a dotted path', () => {
    const body = { public_status: { state: 'working', next_action: `deploy with ${svcKey()}` } };
    expect(scanContent(body)).toEqual({ code: 'SECRET_LIKE', kind: 'svc_api_key', where: 'public_status.next_action' });
  });

  test('array items are [i]', () => {
    const body = {
      files: [
        { name: 'a.md', content: 'fine' },
        { name: '.env', content: `KEY=${svcKey()}` },
      ],
    };
    expect(scanContent(body)).toEqual({ code: 'SECRET_LIKE', kind: 'svc_api_key', where: 'files[1].content' });
  });

  test('a bare string is "$" and a root array starts with [i]', () => {
    expect(scanContent(svcKey())?.where).toBe('$');
    expect(scanContent(['ok', { c: svcKey() }])?.where).toBe('[1].c');
  });

  test('a 64-number JSON array that is a keypair is caught where it sits', () => {
    const bytes = [...fx.keypair()];
    expect(scanContent({ wallet: { key: bytes } })).toEqual({ code: 'SECRET_LIKE', kind: 'solana_secret_key', where: 'wallet.key' });
    expect(scanContent({ wallet: { sig: [...fx.signature()] } })).toBeNull();
  });

  test('an object key that is itself a secret is caught and named by position, not by the key', () => {
    const secret = svcKey();
    const violation = scanContent({ notes: { ok: 1, [secret]: 'x' } });
    expect(violation).toEqual({ code: 'SECRET_LIKE', kind: 'svc_api_key', where: 'notes{1}' });
  });

  test('non-string values are ignored and clean bodies pass', () => {
    expect(scanContent({ n: 1, b: true, z: null, list: [1, 2, 3], s: 'We measured p99 at 4 ms.' })).toBeNull();
    expect(scanContent(undefined)).toBeNull();
  });
});

describe('ordering and options', () => {
  test('a secret in a later field wins over price talk in an earlier one', () => {
    const body = { title: 'Buy now!', body: 'We are the best team.', files: [{ content: svcKey() }] };
    expect(scanContent(body)?.code).toBe('SECRET_LIKE');
  });

  test('price talk comes before self pitch, each with its matched phrase and path', () => {
    const body = { title: 'We are the best team.', body: 'Numbers below. Price will reach $1 soon.' };
    expect(scanContent(body)).toEqual({ code: 'PRICE_TALK', match: 'Price will reach $1', where: 'body' });
    expect(scanContent({ title: 'We are the best team.' })).toEqual({ code: 'SELF_PITCH', match: 'We are the best', where: 'title' });
  });

  test('each rule can be switched off', () => {
    const body = { a: svcKey(), b: 'buy now', c: 'Follow us for more.' };
    expect(scanContent(body, { secrets: false })?.code).toBe('PRICE_TALK');
    expect(scanContent(body, { secrets: false, priceTalk: false })?.code).toBe('SELF_PITCH');
    expect(scanContent(body, { secrets: false, priceTalk: false, selfPitch: false })).toBeNull();
  });

  test('a deeply nested body does not overflow the stack', () => {
    let value: unknown = `key ${svcKey()}`;
    for (let i = 0; i < 20_000; i++) value = [value];
    expect(secretKind(value)).toBe('svc_api_key');
  });
});

describe('the secret never appears in the violation', () => {
  const secrets: [string, string][] = [
    ['github token', githubToken()],
    ['svc key', svcKey()],
    ['seed phrase', fx.mnemonic(12)],
    ['solana keypair', fx.expand('{{solana_keypair_b58}}')],
    ['labelled hex key', fx.expand('private key: {{hex:64}}')],
    ['jwt', fx.expand('{{jwt_hs256}}')],
  ];
  for (const [name, secret] of secrets) {
    test(name, () => {
      const violation = scanContent({ body: `see ${secret} here`, files: [{ content: secret }] });
      expect(violation?.code).toBe('SECRET_LIKE');
      expectNoEcho(violation, secret);
    });
  }
});

describe('hiding tricks', () => {
  test('a zero-width space inside a GitHub token', () => {
    const t = githubToken();
    const hidden = `${t.slice(0, 10)}\u200B${t.slice(10)}`;
    expect(scanContent({ body: hidden })).toEqual({ code: 'SECRET_LIKE', kind: 'github_token', where: 'body' });
  });

  test('a Unicode tag character inside an svc key', () => {
    const k = svcKey();
    const hidden = `${k.slice(0, 20)}\u{E0041}${k.slice(20)}`;
    expect(secretKind({ body: hidden })).toBe('svc_api_key');
  });

  test('a key split across two lines, followed by more prose', () => {
    expect(secretKind({ body: 'my key is AKIAIOSF\nODNN7EXAMPLE\nplease rotate it' })).toBe('aws_access_key');
    const k = fx.expand('sk-ant-api03-{{b64url:93}}AA');
    expect(secretKind({ body: `${k.slice(0, 7)}\n${k.slice(7)}` })).toBe('anthropic_key');
    const kp = fx.expand('{{solana_keypair_b58}}');
    expect(secretKind({ body: `wallet:\n${kp.slice(0, 44)}\n${kp.slice(44)}\nthanks` })).toBe('solana_secret_key');
  });

  test('a key wrapped over three lines', () => {
    const k = svcKey();
    expect(secretKind({ body: `${k.slice(0, 15)}\n${k.slice(15, 30)}\n${k.slice(30)}` })).toBe('svc_api_key');
  });

  test('a key wrapped over three lines and followed directly by a prose line', () => {
    const k = svcKey();
    expect(secretKind({ body: `${k.slice(0, 15)}\n${k.slice(15, 30)}\n${k.slice(30)}\nthanks for reading` })).toBe('svc_api_key');
    expect(secretKind({ body: `note:\n${k.slice(0, 12)}\n${k.slice(12, 24)}\n${k.slice(24, 36)}\n${k.slice(36)}\nrotate it` })).toBe('svc_api_key');
    expect(secretKind({ body: `${k.slice(0, 15)}\n${k.slice(15, 30)}\n${k.slice(30)}\nthanks` })).toBe('svc_api_key');
  });

  test('a seed phrase spread over several lines is still one phrase', () => {
    const words = fx.mnemonic(24).split(' ');
    const text = `${words.slice(0, 8).join(' ')}\n${words.slice(8, 16).join(' ')}\n${words.slice(16).join(' ')}`;
    expect(secretKind({ body: text })).toBe('seed_phrase');
  });

  test('a key wrapped in bidi overrides', () => {
    const k = svcKey();
    expect(secretKind({ body: `\u202E${k}\u202C` })).toBe('svc_api_key');
    expect(secretKind({ body: `\u2067${k.slice(0, 9)}\u200F${k.slice(9)}\u2069` })).toBe('svc_api_key');
  });

  test('a full-width AKIA key', () => {
    const fullWidth = [...'AKIAIOSFODNN7EXAMPLE'].map((c) => String.fromCodePoint(c.codePointAt(0)! + 0xfee0)).join('');
    expect(secretKind({ body: `key ${fullWidth}` })).toBe('aws_access_key');
  });

  test('a soft hyphen and a variation selector inside a Stripe key', () => {
    const k = fx.expand('sk_live_{{b62:30}}');
    expect(secretKind({ body: `${k.slice(0, 12)}\u00AD${k.slice(12, 20)}\uFE0F${k.slice(20)}` })).toBe('stripe_key');
  });
});

describe('ordinary multi-line prose is not mangled into a false positive', () => {
  test('a post with lists, code and hashes passes', () => {
    const body = [
      '## What changed',
      '- p99 fell from 41 ms to 4 ms',
      `- commit ${fx.chars('0123456789abcdef', 40)}`,
      'sha256:',
      fx.chars('0123456789abcdef', 64),
      `wallet ${fx.expand('{{solana_pubkey_b58}}')}`,
      'tx',
      fx.expand('{{solana_signature_b58}}'),
      `id ${crypto.randomUUID()}`,
      'Thanks to everyone who reviewed it.',
    ].join('\n');
    expect(scanContent({ title: 'Cache fix cut p99 by 90%', body })).toBeNull();
  });
});
