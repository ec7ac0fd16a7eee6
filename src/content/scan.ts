// scanContent: the one call every writing route makes on its request body before storing it.
import { joinedForms, normalizeForScan } from './normalize.ts';
import { findPriceTalkNormalized } from './price-talk.ts';
import { findSecretInForms, findSecretInNumbers } from './secrets.ts';
import { findSelfPitchNormalized } from './self-pitch.ts';

export type ContentViolation =
  | { code: 'SECRET_LIKE'; kind: string; where: string } // never includes the text
  | { code: 'PRICE_TALK'; match: string; where: string }
  | { code: 'SELF_PITCH'; match: string; where: string };

export interface ScanOptions {
  priceTalk?: boolean;
  selfPitch?: boolean;
  secrets?: boolean;
}

type Field =
  | { where: string; normalized: string; keyOnly: false }
  | { where: string; normalized: string; keyOnly: true; secret: { kind: string } | null }
  | { where: string; numbers: readonly unknown[] };

// A key is written into `where` only when it is short and plain; anything else (including a key
// that is itself secret-like) is named by its position, so a violation can never echo a secret.
const PLAIN_KEY = /^[A-Za-z_$][A-Za-z0-9_$-]{0,63}$/;

// A body's member names repeat on every write of a route ("topic", "title", "body"): what the
// rules make of a plain name is computed once and kept (a bounded table; it is a pure function).
interface KeyVerdict {
  normalized: string;
  plainAndSafe: boolean;
  secret: { kind: string } | null; // findSecretInForms over the name and its joined forms
}
const KEY_VERDICTS = new Map<string, KeyVerdict>();
const KEY_VERDICTS_MAX = 4096;

function keyVerdict(key: string): KeyVerdict {
  const known = KEY_VERDICTS.get(key);
  if (known) return known;
  const normalized = normalizeForScan(key);
  const verdict: KeyVerdict = {
    normalized,
    plainAndSafe: PLAIN_KEY.test(key) && findSecretInForms([normalized]) === null,
    secret: findSecretInForms([normalized, ...joinedForms(normalized)]),
  };
  // Only plain names are kept: anything else is rare, and may be long or a secret itself.
  if (PLAIN_KEY.test(key)) {
    if (KEY_VERDICTS.size >= KEY_VERDICTS_MAX) KEY_VERDICTS.clear();
    KEY_VERDICTS.set(key, verdict);
  }
  return verdict;
}

function keySegment(verdict: KeyVerdict, key: string, index: number, parent: string): string {
  if (!verdict.plainAndSafe) return `${parent}{${index}}`;
  return parent === '' ? key : `${parent}.${key}`;
}

/**
 * Flattens a JSON value into its string fields (and 64-number arrays), in document order, with
 * JSON paths: "body", "public_status.next_action", "files[2].content". A bare string is "$".
 * Iterative, so a deeply nested body cannot overflow the stack; objects seen twice are skipped.
 */
function collectFields(root: unknown): Field[] {
  const fields: Field[] = [];
  const seen = new WeakSet<object>();
  const stack: { value: unknown; where: string }[] = [{ value: root, where: '' }];
  while (stack.length > 0) {
    const { value, where } = stack.pop()!;
    if (typeof value === 'string') {
      fields.push({ where: where === '' ? '$' : where, normalized: normalizeForScan(value), keyOnly: false });
      continue;
    }
    if (typeof value !== 'object' || value === null || seen.has(value)) continue;
    seen.add(value);
    const children: { value: unknown; where: string }[] = [];
    if (Array.isArray(value)) {
      if (value.length === 64) fields.push({ where: where === '' ? '$' : where, numbers: value });
      for (const [i, item] of value.entries()) children.push({ value: item, where: `${where}[${i}]` });
    } else {
      Object.entries(value).forEach(([key, item], i) => {
        const verdict = keyVerdict(key);
        const path = keySegment(verdict, key, i, where);
        // Keys are text the author chose too; only the secret rule applies to them.
        fields.push({ where: path, normalized: verdict.normalized, keyOnly: true, secret: verdict.secret });
        children.push({ value: item, where: path });
      });
    }
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  return fields;
}

/**
 * The first content violation in `value`, or null. All fields are checked for secrets before any
 * is checked for price talk, and all for price talk before self pitch: a leaked key is the most
 * urgent thing to tell the author about, wherever it sits.
 */
export function scanContent(value: unknown, opts: ScanOptions = {}): ContentViolation | null {
  const { secrets = true, priceTalk = true, selfPitch = true } = opts;
  const all = collectFields(value);
  if (secrets) {
    for (const field of all) {
      const hit =
        'numbers' in field
          ? findSecretInNumbers(field.numbers)
          : field.keyOnly
            ? field.secret
            : findSecretInForms([field.normalized, ...joinedForms(field.normalized)]);
      if (hit) return { code: 'SECRET_LIKE', kind: hit.kind, where: field.where };
    }
  }
  const texts = all.filter((f): f is Extract<Field, { keyOnly: false }> => 'normalized' in f && !f.keyOnly);
  if (priceTalk) {
    for (const field of texts) {
      const hit = findPriceTalkNormalized(field.normalized);
      if (hit) return { code: 'PRICE_TALK', match: hit.match, where: field.where };
    }
  }
  if (selfPitch) {
    for (const field of texts) {
      const hit = findSelfPitchNormalized(field.normalized);
      if (hit) return { code: 'SELF_PITCH', match: hit.match, where: field.where };
    }
  }
  return null;
}
