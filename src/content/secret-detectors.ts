// Detectors for key material. Each takes one normalized scan form and answers yes or no; the
// table in secret-patterns.ts names them (their cases are in test/content/secret-pattern-cases.ts).
//
// Regex rules kept throughout: no nested quantifiers, every open-ended repetition is anchored by a
// lookbehind so a long run of key-alphabet characters is tried once from its start, not from
// every position (this keeps a 20 kB body linear).
import { createHash } from 'node:crypto';
import type * as Curves from '@noble/curves/ed25519.js';
import type * as Base from '@scure/base';
import type * as Bip39 from '@scure/bip39';
import type * as English from '@scure/bip39/wordlists/english.js';
import { looksRandom } from './entropy.ts';

// The curve, base58 and the BIP-39 list (~450 kB of modules) load on the first text scanned, not at
// start-up (a server that only reads never needs them). A synchronous require keeps the detectors
// synchronous; the bundler keeps it lazy.
let libs:
  | {
      ed25519: typeof Curves.ed25519;
      base58: typeof Base.base58;
      validateMnemonic: typeof Bip39.validateMnemonic;
      wordlist: string[];
      wordIndex: Map<string, number>;
    }
  | undefined;
function lib() {
  if (!libs) {
    const { wordlist } = require('@scure/bip39/wordlists/english.js') as typeof English;
    libs = {
      ed25519: (require('@noble/curves/ed25519.js') as typeof Curves).ed25519,
      base58: (require('@scure/base') as typeof Base).base58,
      validateMnemonic: (require('@scure/bip39') as typeof Bip39).validateMnemonic,
      wordlist,
      wordIndex: new Map(wordlist.map((w, i) => [w, i] as const)),
    };
  }
  return libs;
}

function some(re: RegExp, text: string, check: (m: RegExpExecArray) => boolean): boolean {
  for (const m of text.matchAll(re)) if (check(m)) return true;
  return false;
}

// ---- ed25519 keypairs (Solana) -------------------------------------------------------------

/**
 * A Solana "secret key" is 64 bytes: the 32-byte seed followed by its public key. A transaction
 * signature is also 64 bytes and looks the same in base58, so the only reliable test is the
 * curve itself: the last half must be the public key derived from the first half.
 */
export function isEd25519Keypair(bytes: Uint8Array): boolean {
  if (bytes.length !== 64) return false;
  const pub = lib().ed25519.getPublicKey(bytes.subarray(0, 32));
  for (let i = 0; i < 32; i++) if (pub[i] !== bytes[32 + i]) return false;
  return true;
}

// 64 random bytes encode to 87–88 base58 chars; 80–90 leaves slack while staying far from
// 32-byte addresses (32–44 chars).
const BASE58_64 = /(?<![1-9A-HJ-NP-Za-km-z])[1-9A-HJ-NP-Za-km-z]{80,90}(?![1-9A-HJ-NP-Za-km-z])/g;
// The `solana-keygen` file format: a JSON array of 64 numbers. One character class, so linear.
const BYTE_ARRAY = /\[[0-9,\s]{63,1300}\]/g;
// Some tools print the 64 bytes as 128 hex chars.
const HEX_128 = /(?<![0-9A-Za-z])(?:0x)?([0-9a-fA-F]{128})(?![0-9A-Za-z])/g;

function decodeBase58(text: string): Uint8Array | null {
  try {
    return lib().base58.decode(text);
  } catch {
    return null;
  }
}

/** Parses "[1, 2, …]" text into bytes when it holds exactly 64 integers in 0..255. */
function parseByteArray(text: string): Uint8Array | null {
  const items = text.slice(1, -1).split(',');
  if (items.length !== 64) return null;
  const out = new Uint8Array(64);
  for (let i = 0; i < 64; i++) {
    const item = (items[i] ?? '').trim();
    if (!/^\d{1,3}$/.test(item)) return null;
    const n = Number(item);
    if (n > 255) return null;
    out[i] = n;
  }
  return out;
}

function hexToBytes(text: string): Uint8Array {
  const out = new Uint8Array(text.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(text.slice(i * 2, i * 2 + 2), 16);
  return out;
}

export function hasSolanaSecretKey(text: string): boolean {
  if (
    some(BASE58_64, text, (m) => {
      const bytes = decodeBase58(m[0]);
      return bytes !== null && isEd25519Keypair(bytes);
    })
  )
    return true;
  if (
    some(BYTE_ARRAY, text, (m) => {
      const bytes = parseByteArray(m[0]);
      return bytes !== null && isEd25519Keypair(bytes);
    })
  )
    return true;
  return some(HEX_128, text, (m) => isEd25519Keypair(hexToBytes(m[1] ?? '')));
}

// ---- 32-byte hex private keys --------------------------------------------------------------

const HEX_64 = /(?<![0-9A-Za-z])(?:0x)?([0-9a-fA-F]{64})(?![0-9A-Za-z])/g;
// A bare 64-hex value is far more often a sha256 or a transaction hash than a key, so it counts
// as a key only when something within 40 characters before it, in the same sentence, says so.
const KEY_LABEL = /priv(?:ate)?[\s_-]*key|privkey|secret/i;
const LABEL_REACH = 40;
const SENTENCE_END = /[.!?](?:\s|$)/g;

export function hasLabelledHexKey(text: string): boolean {
  return some(HEX_64, text, (m) => {
    let before = text.slice(Math.max(0, m.index - LABEL_REACH), m.index);
    let cut = -1;
    for (const s of before.matchAll(SENTENCE_END)) cut = s.index + s[0].length;
    if (cut >= 0) before = before.slice(cut);
    return KEY_LABEL.test(before) && looksRandom(m[1] ?? '');
  });
}

// ---- BIP-39 seed phrases -------------------------------------------------------------------

const PHRASE_LENGTHS = [24, 21, 18, 15, 12] as const;
// Between two words of one phrase only separators may appear: spaces, commas, list numbering
// ("1. abandon\n2. ability"). A longer gap ends the run.
const MAX_GAP = 12;

/**
 * The BIP-39 checksum of one window, computed directly: n words carry 11·n bits, the first 32·n/3
 * are entropy and the last n/3 must equal the top bits of sha256(entropy). validateMnemonic costs
 * 70–250 µs a call (it throws on every failure), and a 20 kB run of list words has ~14,000
 * windows, so this native-hash prefilter keeps the scan fast; validateMnemonic still has the
 * final word on every window that passes it.
 */
function checksumHolds(bits: Uint8Array, startWord: number, words: number): boolean {
  const entropyBits = (words * 32) / 3;
  const checksumBits = words / 3;
  const entropy = new Uint8Array(entropyBits / 8);
  const base = startWord * 11;
  for (let i = 0; i < entropyBits; i++) if (bits[base + i]) entropy[i >> 3]! |= 0x80 >> (i & 7);
  const expected = createHash('sha256').update(entropy).digest()[0]! >> (8 - checksumBits);
  let actual = 0;
  for (let i = 0; i < checksumBits; i++) actual = (actual << 1) | bits[base + entropyBits + i]!;
  return actual === expected;
}

function runHasPhrase(run: string[]): boolean {
  const bits = new Uint8Array(run.length * 11);
  // same[i]: how many words up to and including i are the same word as run[i].
  const same = new Uint32Array(run.length);
  run.forEach((word, w) => {
    const index = lib().wordIndex.get(word) ?? 0;
    for (let b = 0; b < 11; b++) bits[w * 11 + b] = (index >> (10 - b)) & 1;
    same[w] = w > 0 && run[w - 1] === word ? same[w - 1]! + 1 : 1;
  });
  for (const size of PHRASE_LENGTHS) {
    for (let start = 0; start + size <= run.length; start++) {
      // One word said over and over ("gas gas gas …") is not a phrase anyone generated, yet about
      // 1 in 16 list words repeated 12 times passes the checksum. A phrase needs two distinct
      // words; the BIP-39 test vector ("abandon" × 11, "about") still has them.
      if (same[start + size - 1]! >= size) continue;
      // One in 16 random 12-word lists passes the 4-bit checksum, so ordinary text built from
      // list words needs a run of 12+ before it can be mistaken; prose breaks runs constantly
      // ("the", "a", "of", "is" are not BIP-39 words).
      if (checksumHolds(bits, start, size) && lib().validateMnemonic(run.slice(start, start + size).join(' '), lib().wordlist)) return true;
    }
  }
  return false;
}

// The words of a text, one exec at a time (a matchAll iterator and an array per word cost more
// than the lookups on a post of ordinary prose, which this runs over at every write).
const WORD = /[A-Za-z]+/g;

export function hasSeedPhrase(text: string): boolean {
  const { wordIndex } = lib();
  let run: string[] = [];
  let lastEnd = -1;
  WORD.lastIndex = 0;
  for (let m = WORD.exec(text); m !== null; m = WORD.exec(text)) {
    const raw = m[0];
    // A list word is 3 to 8 lower-case letters: a longer or shorter one is never in it ('' is not).
    const word = raw.length < 3 || raw.length > 8 ? '' : raw.toLowerCase();
    const inList = wordIndex.has(word);
    if (inList && (lastEnd < 0 || m.index - lastEnd <= MAX_GAP)) {
      run.push(word);
    } else {
      if (run.length >= 12 && runHasPhrase(run)) return true;
      run = inList ? [word] : [];
    }
    lastEnd = m.index + raw.length;
  }
  return run.length >= 12 && runHasPhrase(run);
}

// ---- PEM private keys ----------------------------------------------------------------------

// RSA, EC, DSA, OPENSSH, ENCRYPTED, PGP "… PRIVATE KEY BLOCK" and plain PKCS#8 headers.
const PEM_HEADER = /-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----/g;
// Legacy encrypted PEM and PGP armor put "Name: value" lines before the base64 body.
const PEM_HEADER_LINES = /^[ \t]*[A-Za-z-]+:[^\n]*$/gm;
const BASE64_CHUNK = /^[A-Za-z0-9+/=]+$/;
const MIN_PEM_BODY = 32;

/**
 * A header alone ("never commit -----BEGIN RSA PRIVATE KEY----- files") is talk about keys; a
 * header followed by random base64 is a key. The body is read chunk by chunk (split on line
 * breaks or spaces, since some tools flatten a key onto one line); a chunk shorter than 16 chars
 * that is not a padded final chunk ends it, so English words after a header never count.
 * JSON-escaped newlines ("\\n", as in cloud service-account files) count as line breaks.
 */
export function hasPemPrivateKey(text: string): boolean {
  return some(PEM_HEADER, text, (m) => {
    const after = text
      .slice(m.index + m[0].length, m.index + m[0].length + 800)
      .replace(/\\[nr]/g, '\n')
      .replace(PEM_HEADER_LINES, '');
    let body = '';
    for (const chunk of after.split(/\s+/)) {
      if (chunk === '') continue;
      if (!BASE64_CHUNK.test(chunk) || (chunk.length < 16 && !chunk.endsWith('='))) break;
      body += chunk;
    }
    return body.length >= MIN_PEM_BODY && looksRandom(body.slice(0, 256));
  });
}

// ---- JSON Web Tokens -----------------------------------------------------------------------

// Header, payload, signature. A JSON header starts with `{"` or `{ ` → base64url "ey", or `{\n`
// → "ew". An unsigned token ("alg":"none", empty signature) grants nothing and is not matched.
const JWT = /(?<![A-Za-z0-9_-])(e[wy][A-Za-z0-9_-]{8,})\.([A-Za-z0-9_-]{2,})\.([A-Za-z0-9_-]{16,})/g;

function decodeBase64Url(text: string): string | null {
  try {
    const b64 = text.replace(/-/g, '+').replace(/_/g, '/');
    return atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  } catch {
    return null;
  }
}

function isJwtHeader(segment: string): boolean {
  const json = decodeBase64Url(segment);
  if (json === null) return false;
  try {
    const header: unknown = JSON.parse(json);
    return typeof header === 'object' && header !== null && typeof (header as { alg?: unknown }).alg === 'string';
  } catch {
    return false;
  }
}

export function hasJwt(text: string): boolean {
  return some(JWT, text, (m) => isJwtHeader(m[1] ?? '') && looksRandom(m[3] ?? ''));
}

// ---- prefixed tokens -----------------------------------------------------------------------

export interface PrefixedToken {
  /** The whole token, with the g flag; group 1 captures the random part the entropy check judges. */
  regex: RegExp;
  /** Require at least two of lowercase/uppercase/digits in the random part. */
  mixedCase: boolean;
  /** Optional reshaping of the random part before judging it (e.g. drop numeric id segments). */
  randomPart?: (captured: string) => string;
}

export function hasPrefixedToken(text: string, token: PrefixedToken): boolean {
  return some(token.regex, text, (m) => {
    const captured = m[1] ?? '';
    const part = token.randomPart ? token.randomPart(captured) : captured;
    return looksRandom(part, { mixedCase: token.mixedCase });
  });
}
