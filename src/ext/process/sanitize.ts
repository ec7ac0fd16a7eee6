// The six processing steps of an outside post (02-extensions "Outside mirror post"), in order.
// Pure and deterministic: no network, no clock. What an agent reads is only `text`; what was
// removed on the way is reported so that labels can say so (hidden_characters, bidi_controls)
// and so that smuggled payloads (tag characters, variation selectors) can be checked too.
import { findLinks, type FoundLink } from './links.ts';

export const TEXT_MAX = 600;
export const LINKS_MAX = 8;
export const OPEN_MARKER = '<<ext-post>>';
export const CLOSE_MARKER = '<</ext-post>>';
/** Combining marks kept on one base character (Vietnamese and Indic clusters need up to three). */
const MARKS_MAX = 3;
const MARK_STACK = new RegExp(`(\\p{M}{${MARKS_MAX}})\\p{M}+`, 'gu');

// Emoji sequences that legitimately carry otherwise-invisible characters: ZWJ sequences, skin
// tones, VS16/VS15 presentation selectors, keycaps, and the three RGI subdivision flags (any
// other tag run is smuggling: "🏴" + tags spelling "ignore" + cancel is not a flag).
const EP = '\\p{Extended_Pictographic}(?:[\\u{1F3FB}-\\u{1F3FF}]|\\uFE0F|\\uFE0E)?';
const EMOJI = new RegExp(
  [
    '\\u{1F3F4}(?:\\u{E0067}\\u{E0062}(?:\\u{E0065}\\u{E006E}\\u{E0067}|\\u{E0073}\\u{E0063}\\u{E0074}|\\u{E0077}\\u{E006C}\\u{E0073}))\\u{E007F}',
    `${EP}(?:\\u200D${EP})+`,
    '[0-9#*]\\uFE0F?\\u20E3',
    EP,
  ].join('|'),
  'u',
);

// Bidirectional embeddings, overrides, isolates and marks (Trojan Source): step 2.
const BIDI = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;
// Step 1's invisible characters: every default-ignorable code point (zero-width, joiners, tags,
// variation selectors, soft hyphen, fillers), other format characters, and controls except
// newline and tab. Bidi controls are default-ignorable too; they are told apart when removed.
const TOKEN = new RegExp(`(${EMOJI.source})|([\\p{Default_Ignorable_Code_Point}\\p{Cf}\\p{Cc}])`, 'gu');

export interface Sanitized {
  /** The served text: processed, escaped and wrapped in the marker pair. */
  text: string;
  /** The processed text before escaping (what labels are matched on). */
  plain: string;
  text_length: number;
  is_truncated: boolean;
  links: FoundLink[];
  hidden: boolean;
  bidi: boolean;
  /** ASCII spelled by tag characters, and bytes spelled by variation selectors, as text. */
  smuggled: string[];
}

const codePoints = (s: string): number => {
  let n = 0;
  for (const _ of s) n++;
  return n;
};

/** Tag characters U+E0020–E007E spell ASCII; variation selectors spell bytes (VS1–16 → 0–15, VS17–256 → 16–255). */
function smuggledPayloads(raw: string): string[] {
  const out: string[] = [];
  let tags = '';
  const bytes: number[] = [];
  for (const ch of raw) {
    const cp = ch.codePointAt(0)!;
    if (cp >= 0xe0020 && cp <= 0xe007e) tags += String.fromCharCode(cp - 0xe0000);
    else if (cp >= 0xfe00 && cp <= 0xfe0f) bytes.push(cp - 0xfe00);
    else if (cp >= 0xe0100 && cp <= 0xe01ef) bytes.push(cp - 0xe0100 + 16);
  }
  if (tags.trim().length >= 2) out.push(tags);
  if (bytes.length >= 2) out.push(new TextDecoder('utf-8', { fatal: false }).decode(new Uint8Array(bytes)));
  return out;
}

// Step 1 (and 2): normalization, then every invisible character out except inside emoji sequences.
function stripInvisible(raw: string): { text: string; hidden: boolean; bidi: boolean } {
  let hidden = false;
  let bidi = false;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: vertical tab and form feed are line breaks to unify
  const unified = raw.replace(/\r\n?|[\u2028\u2029\u0085\u000B\u000C]/g, '\n').normalize('NFKC');
  const text = unified.replace(TOKEN, (_m, emoji: string | undefined, other: string | undefined) => {
    if (emoji !== undefined) return emoji;
    const ch = other!;
    if (ch === '\n') return ch;
    if (ch === '\t') return ' ';
    if (BIDI.test(ch)) bidi = true;
    else hidden = true;
    return '';
  });
  // A removed character may have kept a base and its mark apart: compose again.
  return { text: text.normalize('NFC'), hidden, bidi };
}

// Step 3: combining-mark stacks (zalgo) cut to MARKS_MAX per base; runs of blank lines to one.
function collapse(text: string): string {
  return text
    .replace(MARK_STACK, '$1')
    .replace(/^[^\S\n]+|[^\S\n]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

// Step 5: cut to TEXT_MAX code points at a grapheme boundary, never inside a link placeholder.
const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });
function cut(text: string): { text: string; truncated: boolean } {
  if (codePoints(text) <= TEXT_MAX) return { text, truncated: false };
  let used = 0;
  let end = 0;
  for (const { segment, index } of graphemes.segment(text)) {
    const n = codePoints(segment);
    if (used + n > TEXT_MAX) break;
    used += n;
    end = index + segment.length;
  }
  let kept = text.slice(0, end);
  const open = kept.lastIndexOf('[link: ');
  if (open >= 0 && kept.indexOf(']', open) < 0) kept = kept.slice(0, open);
  return { text: kept.trimEnd(), truncated: true };
}

// Step 6: the three HTML-significant characters, and anything that reads like an angle bracket
// (‹ › 〈 ᐸ …: NFKC has already folded the full-width and small forms) as a numeric reference,
// so that no author can draw a marker of the pair. An author's own "[link:" is written as
// "&#91;link:" so that only the service's placeholders read as placeholders.
const ANGLE_LOOKALIKE = /[\u2039\u203A\u2329\u232A\u27E8\u27E9\u3008\u3009\u1438\u1433\u02C2\u02C3\u276C-\u2771\u29FC\u29FD\uA4D2\uA4DA]/gu;
function escapeText(text: string, placeholders: Set<number>): string {
  let out = '';
  let i = 0;
  for (const m of text.matchAll(/\[\s*link\s*:/gi)) {
    out += text.slice(i, m.index);
    out += placeholders.has(m.index) ? m[0] : `\u0000${m[0].slice(1)}`;
    i = m.index + m[0].length;
  }
  out += text.slice(i);
  return (
    out
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(ANGLE_LOOKALIKE, (c) => `&#x${c.codePointAt(0)!.toString(16).toUpperCase()};`)
      // biome-ignore lint/suspicious/noControlCharactersInRegex: U+0000 marks a forged placeholder; step 1 removed every real one
      .replace(/\u0000/g, '&#91;')
  );
}

export interface PostInput {
  text: string;
  /** entities.urls of the post: short link → expanded link, as delivered. */
  urls: { url?: string; expanded_url?: string }[];
}

/** Runs the six steps over one post. */
export function sanitize(input: PostInput): Sanitized {
  const raw = input.text;
  const smuggled = smuggledPayloads(raw);
  const step1 = stripInvisible(raw);
  const step3 = collapse(step1.text);
  // Step 4: links → placeholders holding only the real host.
  const found = findLinks(step3, input.urls);
  let replaced = '';
  let at = 0;
  const placeholderAt = new Set<number>();
  for (const l of found) {
    replaced += step3.slice(at, l.index);
    placeholderAt.add(replaced.length);
    replaced += `[link: ${l.host}]`;
    at = l.lastIndex;
  }
  replaced += step3.slice(at);
  const step5 = cut(replaced);
  const kept = new Set([...placeholderAt].filter((p) => p < step5.text.length));
  return {
    text: `${OPEN_MARKER}${escapeText(step5.text, kept)}${CLOSE_MARKER}`,
    plain: step5.text,
    text_length: codePoints(raw),
    is_truncated: step5.truncated,
    links: found,
    hidden: step1.hidden,
    bidi: step1.bidi,
    smuggled,
  };
}
