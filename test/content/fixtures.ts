// Builds the secret-shaped test material at run time, so the repository holds no string that
// looks like a live key. Everything comes from a seeded generator: a failing case reproduces.
import { ed25519 } from '@noble/curves/ed25519.js';
import { base58 } from '@scure/base';
import { entropyToMnemonic, generateMnemonic, validateMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';

/** mulberry32: small, seedable, good enough to draw characters from an alphabet. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ALPHABETS = {
  b62: '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz',
  A36: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789',
  hex: '0123456789abcdef',
  b64: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/',
  b64url: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_',
  d: '0123456789',
} as const;

const b64url = (text: string): string => btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

export class Fixtures {
  private readonly rand: () => number;

  constructor(seed = 20261123) {
    this.rand = seededRandom(seed);
  }

  chars(alphabet: string, n: number): string {
    let out = '';
    for (let i = 0; i < n; i++) out += alphabet[Math.floor(this.rand() * alphabet.length)]!;
    return out;
  }

  bytes(n: number): Uint8Array {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i++) out[i] = Math.floor(this.rand() * 256);
    return out;
  }

  /** A 64-byte Solana keypair: a 32-byte seed followed by its ed25519 public key. */
  keypair(): Uint8Array {
    const secret = ed25519.utils.randomSecretKey(this.bytes(32));
    const out = new Uint8Array(64);
    out.set(secret, 0);
    out.set(ed25519.getPublicKey(secret), 32);
    return out;
  }

  /** 64 bytes shaped like a keypair whose halves do not belong together, i.e. a signature. */
  signature(): Uint8Array {
    return this.bytes(64);
  }

  mnemonic(words: number): string {
    // 12 words carry 128 bits of entropy, each 3 further words 32 bits more.
    return entropyToMnemonic(this.bytes(((words / 3) * 32) / 8), wordlist);
  }

  /** `words` list words in which no 12/15/18/21/24-word window passes the checksum. */
  badMnemonic(words: number): string {
    for (;;) {
      const list = Array.from({ length: words }, () => wordlist[Math.floor(this.rand() * wordlist.length)]!);
      if (!anyValidWindow(list)) return list.join(' ');
    }
  }

  jwt(header: string, signatureChars = 43): string {
    const payload = JSON.stringify({ sub: `agent-${this.chars(ALPHABETS.d, 6)}`, iat: 1795000000, exp: 1795003600 });
    return `${b64url(header)}.${b64url(payload)}.${this.chars(ALPHABETS.b64url, signatureChars)}`;
  }

  /** Expands the {{generator:N}} placeholders used by the case tables in src/content. */
  expand(template: string): string {
    return template.replace(/\{\{([A-Za-z0-9_]+)(?::(\d+))?\}\}/g, (_all, name: string, arg?: string) => {
      const n = Number(arg ?? 0);
      if (name in ALPHABETS) return this.chars(ALPHABETS[name as keyof typeof ALPHABETS], n);
      switch (name) {
        case 'mnemonic':
          return this.mnemonic(n);
        case 'MNEMONIC':
          return this.mnemonic(n).toUpperCase();
        case 'mnemonic_numbered':
          return this.mnemonic(n)
            .split(' ')
            .map((w, i) => `${i + 1}. ${w}`)
            .join('\n');
        case 'bad_mnemonic':
          return this.badMnemonic(n);
        case 'solana_keypair_b58':
          return base58.encode(this.keypair());
        case 'solana_keypair_json':
          return `[${this.keypair().join(',')}]`;
        case 'solana_keypair_json_spaced':
          return `[ ${this.keypair().join(', ')} ]`;
        case 'solana_keypair_hex':
          return Buffer.from(this.keypair()).toString('hex');
        case 'solana_signature_b58':
          return base58.encode(this.signature());
        case 'solana_pubkey_b58':
          return base58.encode(this.keypair().subarray(32));
        case 'random64_json':
          return `[${this.signature().join(',')}]`;
        case 'jwt_hs256':
          return this.jwt('{"alg":"HS256","typ":"JWT"}');
        case 'jwt_rs256':
          return this.jwt('{"alg":"RS256","typ":"JWT","kid":"k1"}', 342);
        case 'jwt_es256':
          return this.jwt('{"typ":"JWT","alg":"ES256"}', 86);
        case 'jwt_spaced_header':
          return this.jwt('{ "alg": "HS512", "typ": "JWT" }', 86);
        case 'jwt_noalg':
          return this.jwt('{"typ":"JWT","kid":"k1"}');
        case 'jwt_unsigned':
          return `${this.jwt('{"alg":"none"}').split('.').slice(0, 2).join('.')}.`;
        default:
          throw new Error(`unknown fixture generator {{${name}}}`);
      }
    });
  }
}

/** The reference rule, slow and plain: some window has two distinct words and a valid checksum. */
export function anyValidWindow(list: string[]): boolean {
  for (const size of [12, 15, 18, 21, 24]) {
    for (let start = 0; start + size <= list.length; start++) {
      const window = list.slice(start, start + size);
      if (new Set(window).size >= 2 && validateMnemonic(window.join(' '), wordlist)) return true;
    }
  }
  return false;
}

/** A fresh random phrase from the library's own generator, for tests that want no seed at all. */
export const freshMnemonic = (): string => generateMnemonic(wordlist);

export { ALPHABETS };
