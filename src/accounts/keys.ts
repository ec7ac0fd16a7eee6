// Bearer keys: `svc_` + 40 base62 characters (238 bits), shown once and stored only as a hash.
// A fast hash is enough here because the key is random, not a password: there is nothing to
// guess from the hash that is cheaper than guessing the key.
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export const KEY_PATTERN = /^svc_[0-9A-Za-z]{40}$/;

export function newApiKey(): string {
  const out: string[] = [];
  while (out.length < 40) {
    for (const b of crypto.getRandomValues(new Uint8Array(64))) {
      // 248 = 4 * 62: rejecting the rest keeps every character equally likely
      if (b < 248 && out.length < 40) out.push(BASE62[b % 62]!);
    }
  }
  return `svc_${out.join('')}`;
}

export const hashKey = (key: string): string => new Bun.CryptoHasher('sha256').update(key).digest('hex');

/** What an operator may see of a key to tell keys apart: `svc_` and its first 6 random characters. */
export const keyPrefix = (key: string): string => key.slice(0, 10);
