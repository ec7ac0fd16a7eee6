// Telling a real token from a placeholder that has the same shape.
//
// Docs and READMEs are full of well-formed fakes ("sk-xxxxxxxx…", "AKIAXXXXXXXXXXXXXXXX",
// "ghp_YOUR_TOKEN_HERE…"); rejecting them would punish agents for explaining a format. The random
// part of a real token is drawn uniformly from its alphabet, so it has high Shannon entropy per
// character; a placeholder is a repeated letter, a counting sequence or English words.

/**
 * Threshold: 3.0 bits per character, lowered for short random parts to log2(length) − 1.5.
 *
 * Why these numbers (measured over 200,000 random samples each):
 *  - 16 chars of [A-Z0-9] (AWS key id tail): mean 3.61, minimum seen 2.58 → threshold 2.5;
 *  - 24+ chars of base62: mean ≥ 4.24, minimum seen 3.41; 64 hex chars: mean 3.82, minimum 3.42
 *    → threshold 3.0 misses none of them;
 *  - placeholders: "xxxx…" is 0 bits, "abcabc…" 1.6 bits, "AKIAIOSFODNN7EXAMPLE"'s tail 3.63
 *    bits (it is caught, as a key-shaped example should be).
 * A string can only reach log2(length) bits, which is why short parts get the lower bar.
 */
const MIN_ENTROPY_BITS = 3.0;
const SHORT_PART_SLACK_BITS = 1.5;

function entropyThreshold(length: number): number {
  return Math.min(MIN_ENTROPY_BITS, Math.log2(Math.max(length, 1)) - SHORT_PART_SLACK_BITS);
}

/** Shannon entropy in bits per character. */
function shannonEntropy(text: string): number {
  if (text.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const ch of text) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bits = 0;
  const total = [...text].length;
  for (const n of counts.values()) {
    const p = n / total;
    bits -= p * Math.log2(p);
  }
  return bits;
}

// Words that only appear in instructions, never in a generated key ("YOUR_TOKEN_HERE",
// "sk-your-key-goes-here"). They must stand as separate words: inside a random string, "Here" or
// "YOUR" turn up by chance (about 1 in 2,000 random 120-char base64url strings), and a real key
// must not pass because of that. "example" is deliberately absent: AWS's documented
// AKIAIOSFODNN7EXAMPLE is key-shaped and must still be caught.
const PLACEHOLDER_WORDS = /(?:^|[^A-Za-z0-9])(?:your|here|placeholder|redacted|dummy|insert|replace|changeme)(?![A-Za-z0-9])/i;
// A run of x's is the universal "fill in here"; six in a row by chance is about 1 in 10^9 per position.
const X_RUN = /x{6,}|X{6,}/;

// "1234567890abcdef…": more than half of adjacent pairs step by one code point. In random text
// that happens for about 1 pair in 30.
function isCountingSequence(text: string): boolean {
  if (text.length < 8) return false;
  let steps = 0;
  for (let i = 1; i < text.length; i++) {
    if (Math.abs(text.charCodeAt(i) - text.charCodeAt(i - 1)) === 1) steps++;
  }
  return steps * 2 > text.length - 1;
}

interface RandomnessOptions {
  /**
   * The alphabet mixes lowercase, uppercase and digits (base62/base64url): require at least two
   * of those classes. A 24-char random base62 string is single-class with probability < 1e-9,
   * while "sk-learn-style-estimators-…" or "sk-proj-ALLCAPSPLACEHOLDER…" are single-class.
   */
  mixedCase?: boolean;
}

/** True when `part` (the random part of a token, without its fixed prefix) looks generated. */
export function looksRandom(part: string, opts: RandomnessOptions = {}): boolean {
  if (PLACEHOLDER_WORDS.test(part) || X_RUN.test(part)) return false;
  if (isCountingSequence(part)) return false;
  if (opts.mixedCase) {
    const classes = Number(/[a-z]/.test(part)) + Number(/[A-Z]/.test(part)) + Number(/[0-9]/.test(part));
    if (classes < 2) return false;
  }
  return shannonEntropy(part) >= entropyThreshold(part.length);
}
