// Text is scanned in a normalized copy; what gets stored is never changed here.
//
// Attackers (and copy-paste accidents) hide a key from a plain regex by putting characters
// inside it that render as nothing, by using compatibility lookalikes (full-width "ＡＫＩＡ"),
// or by wrapping it across lines. Each step below undoes one of those tricks.

// Characters that render as nothing or only reorder text:
//   U+00AD soft hyphen, U+034F combining grapheme joiner, U+115F/U+1160/U+3164/U+FFA0 Hangul fillers,
//   U+180E Mongolian vowel separator, U+200B–U+200D zero-width space/non-joiner/joiner,
//   U+200E/U+200F and U+202A–U+202E bidi marks, embeddings and overrides, U+2060–U+2064 word joiner
//   and invisible math operators, U+2066–U+2069 bidi isolates, U+206A–U+206F deprecated format
//   controls, U+FE00–U+FE0F and U+E0100–U+E01EF variation selectors, U+FEFF byte-order mark,
//   U+E0000–U+E007F tag characters (used to smuggle invisible ASCII into text).
const INVISIBLE =
  // biome-ignore lint/suspicious/noMisleadingCharacterClass: single invisible code points on purpose, combining ones included
  /[\u00AD\u034F\u115F\u1160\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0\u{E0000}-\u{E007F}\u{E0100}-\u{E01EF}]/gu;

// Every line terminator a browser or editor may produce, so "split across lines" means one thing.
// biome-ignore lint/suspicious/noControlCharactersInRegex: vertical tab and form feed are line breaks to unify
const LINE_BREAKS = /\r\n|[\r\u000B\u000C\u0085\u2028\u2029]/g;

/**
 * The text without the characters that render as nothing: what a reader sees of it, for a rule
 * that counts characters (a minimum length is not met by zero-width spaces).
 */
export function withoutInvisible(text: string): string {
  return text.replace(INVISIBLE, '');
}

/**
 * The plain scan form: invisible characters removed, NFKC-normalized, line breaks unified to "\n".
 * Invisible characters are stripped both before NFKC (so they cannot block a composition) and
 * after it (NFKC maps a few visible compatibility characters onto fillers such as U+1160).
 */
export function normalizeForScan(text: string): string {
  return text.replace(INVISIBLE, '').normalize('NFKC').replace(INVISIBLE, '').replace(LINE_BREAKS, '\n');
}

// A line break is only joined when both sides look like part of a token (key alphabets, base64,
// JWT dots, URL slashes). Prose lines end in spaces or punctuation like "," and are left alone.
const TOKEN_END = /[A-Za-z0-9_+/=.:-]$/;
const TOKEN_START = /^[A-Za-z0-9_+/=.-]/;
// A hyphen at the end of a line followed by a letter or digit may be a typographic hyphenation.
const HYPHEN_BREAK = /[A-Za-z0-9]-$/;
// How much of each line a per-break window keeps: enough for the longest token format (a
// github_pat_ is 93 chars, a PEM line 64, a 64-byte base58 key 88) plus a label before it.
const WINDOW = 200;
// A line that reads as prose after a wrapped key; and how many run forms one text may add (a
// text of thousands of short lines must not multiply the scan's cost).
const PROSE_LINE = /\s|^[a-z]+[.,:;!?]*$/;
const RUN_FORMS_MAX = 64;

function joinable(before: string, after: string): boolean {
  return TOKEN_END.test(before) && TOKEN_START.test(after);
}

/**
 * Extra scan forms that undo line wrapping, computed from an already-normalized text:
 *  - every joinable break removed at once (catches a key wrapped over three or more lines);
 *  - the same with end-of-line hyphens dropped (a key broken by typographic hyphenation);
 *  - one short window per joinable break, joining only that break;
 *  - where a run of three or more joined lines meets a prose line, the run joined up to there (its
 *    last 2 × WINDOW characters): a key wrapped over three or more lines, then a prose line.
 * The windows exist because joining every line can glue the end of a key onto the next line's
 * first word ("…EXAMPLE\nthanks" → "…EXAMPLEthanks"), which would hide it from the token
 * boundary checks. Every window is at most 2 × WINDOW characters, there are at most two per break
 * plus RUN_FORMS_MAX run forms, so the cost stays linear.
 */
export function joinedForms(normalized: string): string[] {
  if (!normalized.includes('\n')) return [];
  const lines = normalized.split('\n');
  const keep: string[] = [lines[0] ?? ''];
  const dehyphen: string[] = [lines[0] ?? ''];
  const windows: string[] = [];
  let anyJoin = false;
  let anyHyphen = false;
  let run = (lines[0] ?? '').trimEnd().slice(-2 * WINDOW); // the current run of joined lines, its tail
  let runLines = 1;
  let runForms = 0;
  for (let i = 1; i < lines.length; i++) {
    const prev = (lines[i - 1] ?? '').trimEnd();
    const next = (lines[i] ?? '').trimStart();
    if (!joinable(prev, next)) {
      keep.push('\n', lines[i] ?? '');
      dehyphen.push('\n', lines[i] ?? '');
      run = (lines[i] ?? '').trimEnd().slice(-2 * WINDOW);
      runLines = 1;
      continue;
    }
    anyJoin = true;
    // Three or more joined lines, and the next one reads as prose (words with spaces, or one
    // lower-case word): the run so far is a form of its own, before the prose is glued to it.
    if (runLines >= 3 && runForms < RUN_FORMS_MAX && PROSE_LINE.test(next)) {
      windows.push(run);
      runForms += 1;
    }
    run = (run + next.trimEnd()).slice(-2 * WINDOW);
    runLines += 1;
    trimLastEnd(keep);
    trimLastEnd(dehyphen);
    keep.push(next);
    const tail = prev.slice(-WINDOW);
    const head = next.slice(0, WINDOW);
    windows.push(tail + head);
    if (HYPHEN_BREAK.test(prev) && /^[A-Za-z0-9]/.test(next)) {
      anyHyphen = true;
      dropLastChar(dehyphen);
      windows.push(tail.slice(0, -1) + head);
    }
    dehyphen.push(next);
  }
  if (!anyJoin) return [];
  const forms = [keep.join('')];
  if (anyHyphen) forms.push(dehyphen.join(''));
  return forms.concat(windows);
}

function trimLastEnd(parts: string[]): void {
  const last = parts.length - 1;
  parts[last] = (parts[last] ?? '').trimEnd();
}

function dropLastChar(parts: string[]): void {
  const last = parts.length - 1;
  parts[last] = (parts[last] ?? '').slice(0, -1);
}

/** The plain normalized text first, then its joined forms (no duplicates). */
export function scanForms(text: string): string[] {
  const plain = normalizeForScan(text);
  return [...new Set([plain, ...joinedForms(plain)])];
}
