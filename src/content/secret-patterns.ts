// The one table of secret kinds: what each looks like and how it is detected. Its cases live in
// test/content/secret-pattern-cases.ts, keyed by kind.
//
// Order matters: findSecret reports the first kind that matches, so more specific formats come
// before the ones that would also match them (Anthropic's "sk-ant-" before OpenAI's "sk-").
import { hasJwt, hasLabelledHexKey, hasPemPrivateKey, hasPrefixedToken, hasSeedPhrase, hasSolanaSecretKey } from './secret-detectors.ts';
import type { PrefixedToken } from './secret-detectors.ts';

interface SecretPattern {
  kind: string;
  description: string;
  /** Runs on one normalized scan form. */
  detect: (text: string) => boolean;
}

function prefixed(token: PrefixedToken): (text: string) => boolean {
  return (text) => hasPrefixedToken(text, token);
}

// Slack ids (team, user, bot) are plain numbers; only the non-numeric segments are random.
const slackRandomPart = (captured: string): string =>
  captured
    .split('-')
    .filter((s) => !/^\d*$/.test(s))
    .join('-');

export const SECRET_PATTERNS: SecretPattern[] = [
  {
    kind: 'pem_private_key',
    description: 'A PEM "-----BEGIN … PRIVATE KEY-----" block with a base64 body (RSA, EC, OPENSSH, ENCRYPTED, PKCS#8, PGP).',
    detect: hasPemPrivateKey,
  },
  {
    kind: 'seed_phrase',
    description: 'A run of 12, 15, 18, 21 or 24 BIP-39 English words, at least two of them distinct, whose checksum holds.',
    detect: hasSeedPhrase,
  },
  {
    kind: 'solana_secret_key',
    description: 'A 64-byte ed25519 keypair (base58, JSON byte array or hex) whose second half is the public key of its first half.',
    detect: hasSolanaSecretKey,
  },
  {
    kind: 'hex_private_key',
    description: 'A 64-hex value (32 bytes) with a private-key or secret label within 40 characters before it.',
    detect: hasLabelledHexKey,
  },
  {
    kind: 'aws_access_key',
    description: 'AWS access key id: AKIA (long-term) or ASIA (temporary) + 16 uppercase letters/digits.',
    detect: prefixed({ regex: /(?<![A-Za-z0-9])(?:AKIA|ASIA)([A-Z0-9]{16})(?![A-Za-z0-9])/g, mixedCase: false }),
  },
  {
    kind: 'github_token',
    description: 'GitHub tokens: ghp_/gho_/ghu_/ghs_/ghr_ + 36 alphanumerics, or github_pat_ + 82 [A-Za-z0-9_].',
    detect: (text) =>
      hasPrefixedToken(text, { regex: /(?<![A-Za-z0-9])gh[pousr]_([A-Za-z0-9]{36})(?![A-Za-z0-9])/g, mixedCase: true }) ||
      hasPrefixedToken(text, { regex: /(?<![A-Za-z0-9])github_pat_([A-Za-z0-9_]{82})(?![A-Za-z0-9_])/g, mixedCase: true }),
  },
  {
    kind: 'slack_webhook',
    description: 'A Slack incoming-webhook URL: hooks.slack.com/services/T…/B…/<secret>.',
    detect: prefixed({
      regex: /(?<![A-Za-z0-9.])hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9/]{0,80}\/([A-Za-z0-9]{16,})/g,
      mixedCase: true,
    }),
  },
  {
    kind: 'slack_token',
    description: 'Slack tokens: xoxa-/xoxb-/xoxp-/xoxo-/xoxs-/xoxr- followed by id and secret segments.',
    detect: prefixed({
      regex: /(?<![A-Za-z0-9])xox[abposr]-([A-Za-z0-9-]{10,250})/g,
      mixedCase: false,
      randomPart: slackRandomPart,
    }),
  },
  {
    kind: 'stripe_key',
    description: 'Stripe secret and restricted keys: sk_live_/sk_test_/rk_live_/rk_test_ + at least 24 alphanumerics.',
    detect: prefixed({ regex: /(?<![A-Za-z0-9])[sr]k_(?:live|test)_([A-Za-z0-9]{24,})/g, mixedCase: true }),
  },
  {
    kind: 'anthropic_key',
    description: 'Anthropic API keys: sk-ant- (e.g. sk-ant-api03-) + at least 32 [A-Za-z0-9_-].',
    detect: prefixed({ regex: /(?<![A-Za-z0-9_-])sk-ant-(?:[a-z]{2,10}\d{2}-)?([A-Za-z0-9_-]{32,})/g, mixedCase: true }),
  },
  {
    kind: 'openai_key',
    description: 'OpenAI API keys: sk- (including sk-proj-, sk-svcacct-, sk-admin-) + at least 32 [A-Za-z0-9_-].',
    detect: prefixed({
      regex: /(?<![A-Za-z0-9_-])sk-(?!ant-)(?:proj-|svcacct-|admin-)?([A-Za-z0-9_-]{32,})/g,
      mixedCase: true,
    }),
  },
  {
    kind: 'google_api_key',
    description: 'Google API keys: AIza + 35 [A-Za-z0-9_-].',
    detect: prefixed({ regex: /(?<![A-Za-z0-9_-])AIza([A-Za-z0-9_-]{35})(?![A-Za-z0-9_-])/g, mixedCase: true }),
  },
  {
    kind: 'jwt',
    description: 'A JSON Web Token: three base64url segments, the first decoding to a JSON header with "alg".',
    detect: hasJwt,
  },
  {
    kind: 'svc_api_key',
    description: "This service's own bearer keys: svc_ + exactly 40 base62 characters.",
    detect: prefixed({ regex: /(?<![A-Za-z0-9])svc_([0-9A-Za-z]{40})(?![0-9A-Za-z])/g, mixedCase: true }),
  },
];
