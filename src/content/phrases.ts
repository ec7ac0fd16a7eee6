// Shared plumbing for the phrase rules (price talk, self pitch): both match short English
// phrases, so both need the same tidy-up before matching.
import type { NeedIndex } from './needs.ts';
import { normalizeForScan } from './normalize.ts';

export interface PhrasePattern {
  description: string;
  regex: RegExp;
  /**
   * A cheap necessary condition: a piece of `regex` (a run of its top-level sequence, with the same
   * flags) that every match of `regex` contains. A text the gate does not match cannot match the
   * pattern, so the pattern is not run on it. The gate never changes a verdict, only its cost: the
   * expensive part of most patterns is a lookbehind tried at every position of the text, and a
   * gate starts where the pattern's rarer part does (an arrow, a modal verb, a price).
   */
  gate?: RegExp;
  /**
   * Cheaper ones still, tried before the gate: for each regex here, every match of the pattern
   * contains one of its words or symbols, written as a plain case-insensitive regex without the "u" flag (a literal search that costs well under a
   * microsecond over a post). Without "u", an ASCII letter does not match the two characters that
   * case-fold onto one (U+017F "ſ", U+212A the Kelvin sign); a text holding either is not given
   * to `need` at all (see `plainCase`).
   */
  need?: readonly RegExp[];
  /** A part of the pattern many patterns share (a token named): looked for once per text, see `Prerequisite`. */
  requires?: Prerequisite;
}

/**
 * A sub-pattern several patterns hold as a required part (a token, PRICED in price-talk-vocab.ts):
 * a text where it matches nowhere matches none of them. Looked for once per text (`PhraseScan`),
 * its cheap `need` first, then its regex (with the patterns' flags).
 */
export interface Prerequisite {
  readonly need: RegExp;
  readonly regex: RegExp;
}

/** What one text's scan has learnt so far: whether `need` tests may be used, and each prerequisite's answer. */
export interface PhraseScan {
  plain: boolean;
  found: Map<Prerequisite, boolean>;
  /** Each `need` regex's answer on this text: many patterns share one (a modal verb, a price). */
  needs: Map<RegExp, boolean>;
  /** The rule set's needs read into one automaton (needs.ts), and its marks on this text once computed. */
  index?: NeedIndex;
  marks?: Uint32Array;
}

/** A scan of `form`; with `index`, the needs it read are answered by one pass over the text (needs.ts). */
export function phraseScan(form: string, index?: NeedIndex): PhraseScan {
  return { plain: plainCase(form), found: new Map(), needs: new Map(), index };
}

function needHolds(need: RegExp, form: string, scan: PhraseScan): boolean {
  const id = scan.index?.idOf(need);
  if (id !== undefined) {
    scan.marks ??= scan.index!.marksOf(form);
    return (scan.marks[id >>> 5]! & (1 << (id & 31))) !== 0;
  }
  let known = scan.needs.get(need);
  if (known === undefined) {
    known = need.test(form);
    scan.needs.set(need, known);
  }
  return known;
}

function holds(req: Prerequisite, form: string, scan: PhraseScan): boolean {
  let known = scan.found.get(req);
  if (known === undefined) {
    known = (!scan.plain || req.need.test(form)) && req.regex.test(form);
    scan.found.set(req, known);
  }
  return known;
}

/** A pattern whose regex (and gate) is compiled on first use and kept (big `\p{…}` patterns cost at start-up). */
export function lazyPhrase(
  description: string,
  source: string,
  flags: string,
  gateSource?: string,
  need?: readonly RegExp[],
  requires?: Prerequisite,
): PhrasePattern {
  let compiled: RegExp | undefined;
  let gate: RegExp | undefined;
  return {
    description,
    need,
    requires,
    get regex() {
      compiled ??= new RegExp(source, flags);
      return compiled;
    },
    get gate() {
      if (gateSource === undefined) return undefined;
      gate ??= new RegExp(gateSource, flags);
      return gate;
    },
  };
}

/** Whether the patterns' `need` tests may be used on `form`: it holds no character that case-folds onto ASCII. */
export function plainCase(form: string): boolean {
  return !/[\u017F\u212A]/.test(form);
}

/** Whether `form` holds what the pattern's `need` asks (always, where `need` may not be used: see `plainCase`). */
export function needsHold(p: PhrasePattern, form: string, scan: PhraseScan): boolean {
  if (!scan.plain || p.need === undefined) return true;
  for (const need of p.need) if (!needHolds(need, form, scan)) return false;
  return true;
}

/**
 * The pattern's first match in `form`, or null: the same answer as `p.regex.exec(form)`. A text
 * that misses the pattern's need, prerequisite or gate is not searched. `scan` is
 * `phraseScan(form)`, shared by the patterns run on the same text.
 */
export function execPhrase(p: PhrasePattern, form: string, scan: PhraseScan): RegExpExecArray | null {
  if (!needsHold(p, form, scan)) return null;
  if (p.requires !== undefined && !holds(p.requires, form, scan)) return null;
  const gate = p.gate;
  if (gate !== undefined && !gate.test(form)) return null;
  return p.regex.exec(form);
}

/**
 * Phrase-matching form of already-normalized text: curly apostrophes made straight ("we’re") and
 * any whitespace run (including a line break in the middle of a phrase) made one space.
 */
export function tidyForPhrases(normalized: string): string {
  // Most texts hold no curly apostrophe and no whitespace but single spaces: nothing to replace.
  if (!/[\u2018\u2019\u02BC]|[^\S ]| {2}/.test(normalized)) return normalized;
  return normalized.replace(/[\u2018\u2019\u02BC]/g, "'").replace(/\s+/g, ' ');
}

export function phraseForm(text: string): string {
  return tidyForPhrases(normalizeForScan(text));
}

// A match is reported back to the author; a short phrase is enough to find it.
export const MAX_MATCH = 60;
