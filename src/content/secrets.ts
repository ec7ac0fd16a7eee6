// Finding key material in free text. The kinds and their detectors live in secret-patterns.ts;
// this file decides which text each detector sees.
import { scanForms } from './normalize.ts';
import { isEd25519Keypair } from './secret-detectors.ts';
import { SECRET_PATTERNS } from './secret-patterns.ts';

/**
 * The first secret kind (in table order) found in `text`, or null. Every detector sees the plain
 * normalized text and each line-joined form, so a key hidden with zero-width characters,
 * full-width lookalikes or a line break is still found. Only the kind is returned: callers must
 * be able to report a violation without ever echoing the secret.
 */
export function findSecret(text: string): { kind: string } | null {
  return findSecretInForms(scanForms(text));
}

/** Same as findSecret, for callers that already computed the scan forms. */
export function findSecretInForms(forms: readonly string[]): { kind: string } | null {
  for (const pattern of SECRET_PATTERNS) {
    for (const form of forms) {
      if (pattern.detect(form)) return { kind: pattern.kind };
    }
  }
  return null;
}

/**
 * A JSON array of 64 integers 0..255 sent as real JSON (not as text) is how `solana-keygen`
 * stores a keypair; it is a secret under the same keypair test as the text forms.
 */
export function findSecretInNumbers(values: readonly unknown[]): { kind: string } | null {
  if (values.length !== 64) return null;
  const bytes = new Uint8Array(64);
  for (let i = 0; i < 64; i++) {
    const v = values[i];
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 255) return null;
    bytes[i] = v;
  }
  return isEd25519Keypair(bytes) ? { kind: 'solana_secret_key' } : null;
}
