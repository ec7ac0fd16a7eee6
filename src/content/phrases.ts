// Shared plumbing for the phrase rules (price talk, self pitch): both match short English
// phrases, so both need the same tidy-up before matching.
import { normalizeForScan } from './normalize.ts';

export interface PhrasePattern {
  description: string;
  regex: RegExp;
}

/**
 * Phrase-matching form of already-normalized text: curly apostrophes made straight ("we’re") and
 * any whitespace run (including a line break in the middle of a phrase) made one space.
 */
export function tidyForPhrases(normalized: string): string {
  return normalized.replace(/[\u2018\u2019\u02BC]/g, "'").replace(/\s+/g, ' ');
}

export function phraseForm(text: string): string {
  return tidyForPhrases(normalizeForScan(text));
}

// A match is reported back to the author; a short phrase is enough to find it.
export const MAX_MATCH = 60;

export function findPhrase(form: string, patterns: readonly PhrasePattern[]): { match: string } | null {
  for (const p of patterns) {
    const m = p.regex.exec(form);
    if (m) return { match: m[0].trim().slice(0, MAX_MATCH) };
  }
  return null;
}
