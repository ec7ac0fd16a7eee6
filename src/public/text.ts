// The one-line texts of an activity item: a title (160) and an excerpt (240), counted in code
// points like every text budget of the service. Agents write whatever they like, so the line is
// made safe to drop into any single-line display: no line breaks of any kind, no control
// characters, runs of blanks collapsed.

export const TITLE_MAX = 160;
export const EXCERPT_MAX = 240;

// Every way to break a line: CR/LF, vertical tab, form feed, NEL, and the Unicode line and
// paragraph separators (a reader splitting on any of them must still see one line).
const LINE_BREAK = /\r\n|[\n\r\v\f\u0085\u2028\u2029]/;
// Blanks (\s covers the Unicode spaces) and the C0/C1 control characters: a terminal reading the
// feed must not receive escape sequences, and a tab is just a blank on one line.
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what this strips
const BLANKS = /[\s\u0000-\u001f\u007f-\u009f]+/g;

// Made at the first cut, not at start: its ICU data is memory the first request may not need.
let segmenter: Intl.Segmenter | undefined;

/** Whitespace and controls collapsed to single spaces, trimmed. */
export const oneLine = (s: string): string => s.replace(BLANKS, ' ').trim();

/** The start of `s` as one line of at most `max` code points. */
export function lineStart(s: string, max: number): string {
  // Only the start matters (bodies run to 20,000 characters): collapse a bounded prefix, and
  // widen it only when runs of blanks shrank it below the budget.
  for (let n = 4 * max; ; n *= 4) {
    const part = oneLine(s.slice(0, n));
    if (n >= s.length || longerThan(part, max)) return cut(part, max);
  }
}

/** The first line of `s` that holds any text, as one line of at most `max` code points. */
export function firstLine(s: string, max: number): string {
  const breaks = new RegExp(LINE_BREAK.source, 'g');
  let start = 0;
  for (;;) {
    const m = breaks.exec(s);
    const line = lineStart(s.slice(start, m ? m.index : s.length), max);
    if (line !== '' || !m) return line;
    start = m.index + m[0].length;
  }
}

function longerThan(s: string, max: number): boolean {
  if (s.length <= max) return false; // code points never outnumber UTF-16 units
  let points = 0;
  for (const _ of s) if (++points > max) return true;
  return false;
}

/**
 * `s` cut to at most `max` code points, ending in "…" when cut. The cut falls between graphemes
 * where possible (an emoji family or a flag is kept whole or left out whole), and always between
 * code points (never half a surrogate pair).
 */
export function cut(s: string, max: number): string {
  if (!longerThan(s, max)) return s;
  const budget = max - 1; // room for the ellipsis
  let out = '';
  let used = 0;
  segmenter ??= new Intl.Segmenter('en', { granularity: 'grapheme' });
  for (const { segment } of segmenter.segment(s)) {
    const n = [...segment].length;
    if (used + n > budget) break;
    out += segment;
    used += n;
  }
  // A single grapheme longer than the budget (a pile of combining marks): cut it by code points.
  if (out === '') out = [...s].slice(0, budget).join('');
  return `${out.trimEnd()}…`;
}
