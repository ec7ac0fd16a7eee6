// Reading a Show root: its hook, the text to publish, the meta lines and the thread parts, and the
// weighted length the outside network counts. Pure functions over untrusted text.
import type TwitterText from 'twitter-text';
import { FORMATS, HOOK_MAX, HOOK_MIN, type ShowSettings } from './settings.ts';

export type MetaName = 'format' | 'audience' | 'evidence' | 'media';
const META_LINE = /^[ \t]*(format|audience|evidence|media)[ \t]*:[ \t]*(.*)$/i;
/** A line holding only `---` separates the parts of a thread. */
const PART_BREAK = /^[ \t]*---+[ \t]*$/;

export interface MetaLine {
  value: string;
  line: number; // 1-based line of the body
}

export interface ShowRoot {
  hook: string; // from the title, after "Show:"
  firstLine: string;
  /** The exact text to publish: the lines before the meta lines, trailing blank lines dropped. */
  text: string;
  textLines: number;
  meta: Map<MetaName, MetaLine>;
  /** Meta names written twice, and lines of prose after the meta lines began (1-based). */
  repeated: MetaLine[];
  strayLines: number[];
  parts: string[];
}

const trimEnd = (lines: string[]) => {
  let n = lines.length;
  while (n > 0 && lines[n - 1]!.trim() === '') n--;
  return lines.slice(0, n);
};

/** The hook a title carries: the text after its leading "Show:" label, or null without one. */
export function hookOf(title: string): string | null {
  const m = /^\s*show[ \t]*:[ \t]*(.*)$/is.exec(title);
  return m ? m[1]!.trim() : null;
}

export function readRoot(hook: string, body: string): ShowRoot {
  const lines = body.split(/\r\n|\r|\n/);
  let start = lines.findIndex((l) => META_LINE.test(l));
  if (start === -1) start = lines.length;
  const textLines = trimEnd(lines.slice(0, start));
  const meta = new Map<MetaName, MetaLine>();
  const repeated: MetaLine[] = [];
  const strayLines: number[] = [];
  for (let i = start; i < lines.length; i++) {
    const m = META_LINE.exec(lines[i]!);
    if (!m) {
      if (lines[i]!.trim() !== '') strayLines.push(i + 1);
      continue;
    }
    const name = m[1]!.toLowerCase() as MetaName;
    const entry = { value: m[2]!.trim(), line: i + 1 };
    if (meta.has(name)) repeated.push(entry);
    else meta.set(name, entry);
  }
  const text = textLines.join('\n');
  // A thread's parts are separated by lines holding only `---`; a text without such a line is
  // read as parts separated by blank lines (the spec names no separator, so both are accepted).
  const explicit = textLines.some((l) => PART_BREAK.test(l));
  const isBreak = explicit ? (l: string) => PART_BREAK.test(l) : (l: string) => l.trim() === '';
  const parts: string[] = [];
  let current: string[] = [];
  for (const l of textLines) {
    if (isBreak(l)) {
      if (explicit || current.some((c) => c.trim() !== '')) parts.push(trimEnd(current).join('\n').trim());
      current = [];
    } else current.push(l);
  }
  parts.push(trimEnd(current).join('\n').trim());
  return { hook, firstLine: (lines[0] ?? '').trim(), text, textLines: textLines.length, meta, repeated, strayLines, parts };
}

/** twitter-text's own configuration (exported by the library, missing from its type declarations). */
interface WeightConfig {
  scale: number;
  defaultWeight: number;
  transformedURLLength: number;
  ranges: { start: number; end: number; weight: number }[];
}

// twitter-text (with core-js under it) costs ~45 ms to load: loaded on the first length asked for,
// not at start-up, as src/content/links.ts does. A synchronous require keeps weightedLength
// synchronous; the bundler keeps it lazy.
let twitterText: typeof TwitterText | undefined;
function twitter(): typeof TwitterText {
  twitterText ??= require('twitter-text') as typeof TwitterText;
  return twitterText;
}
const weights = (): WeightConfig => (twitter() as unknown as { configs: { defaults: WeightConfig } }).configs.defaults;

/** A text's weight by the network's character table alone, no link or emoji parsing. */
const writtenWeight = (s: string, w: WeightConfig): number => {
  let units = 0;
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    units += w.ranges.find((r) => cp >= r.start && cp <= r.end)?.weight ?? w.defaultWeight;
  }
  return units / w.scale;
};

/**
 * Weighted length, the spec's way: the outside network's weights (twitter-text 3: most letters 1,
 * CJK and emoji 2, NFC first), with each link counted as written rather than as the network's
 * fixed 23 for a shortened link. Its emoji table is old: some newer ZWJ sequences count more than
 * 2 (test/show/length.test.ts pins what this build does).
 */
export const weightedLength = (text: string): number => {
  const normalized = text.normalize('NFC');
  const tt = twitter();
  const w = weights();
  let weight = tt.parseTweet(normalized).weightedLength;
  for (const { url } of tt.extractUrlsWithIndices(normalized)) weight += writtenWeight(url, w) - w.transformedURLLength;
  return weight;
};

/** What the outside network would make a link of, as written (a bare domain is one). */
export { linksIn } from '../content/links.ts';

export const codePoints = (s: string): number => [...s].length;

/** The text to publish: the first part of a thread, else the whole text. */
export const publishedText = (r: ShowRoot): string => (r.meta.get('format')?.value.toLowerCase() === 'thread' ? r.parts[0]! : r.text);

export const formatOk = (value: string): boolean => (FORMATS as readonly string[]).includes(value.toLowerCase());

const VAGUE_AUDIENCE = new Set([
  'everyone',
  'anyone',
  'people',
  'all',
  'the public',
  'public',
  'everybody',
  'users',
  'humans',
  'outsiders',
  'twitter',
  'x',
  'general public',
  'the internet',
  'all users',
  'all people',
  'anyone interested',
  'everyone interested',
  // Whole trades or crowds, too broad to say who cares about this finding.
  'developers',
  'devs',
  'engineers',
  'programmers',
  'coders',
  'builders',
  'makers',
  'founders',
  'creators',
  'researchers',
  'scientists',
  'professionals',
  'experts',
  'techies',
  'tech',
  'nerds',
  'geeks',
  'readers',
  'followers',
  'fans',
  'investors',
  'traders',
  'crypto',
  'web3',
  'community',
  'audience',
  'customers',
  'clients',
  'consumers',
  'businesses',
  'companies',
  'students',
  'beginners',
]);

/**
 * A concrete audience: who outside the crew cares ("Rust developers", "cryptographers", "data
 * journalists"), not a catch-all ("everyone", "the public") or a whole trade ("developers"). The
 * spec asks for a concrete description, not a number of words: one specific word is enough.
 */
export function audienceOk(value: string): boolean {
  const v = value
    .toLowerCase()
    .replace(/[.!]+$/, '')
    .trim();
  const bare = v.replace(/^(?:the|all|any)\s+/, '');
  return !VAGUE_AUDIENCE.has(v) && !VAGUE_AUDIENCE.has(bare) && (v.match(/[\p{L}\p{N}]+/gu) ?? []).length >= 1;
}

export const hookLengthOk = (hook: string): boolean => codePoints(hook) >= HOOK_MIN && codePoints(hook) <= HOOK_MAX;

export type Settings = Pick<ShowSettings, 'maxWeighted' | 'lists'>;
