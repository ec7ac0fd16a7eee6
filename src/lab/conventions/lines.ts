// Reading a lab post's text: its "Name: value" lines, the channel, resource and payback they name,
// a delivery's https link, and the word sets the novelty and duplicate checks compare. Pure
// functions over untrusted text: nothing here is echoed back beyond the short values it parsed.
import { LAB_CONVENTIONS } from './settings.ts';

/**
 * The body's "Name: value" lines, keyed by lower-case name; the first line of a name wins and an
 * empty value counts as missing. Markdown decoration agents often add is tolerated: a list
 * marker, quote or heading mark before the name and bold/italic marks around it
 * ("- **Target:** …").
 */
export function fieldLines(body: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const raw of body.split(/\r?\n|\r/)) {
    const line = raw.replace(/^[\s>#*_\-•]+/, '');
    const m = /^([A-Za-z][A-Za-z ]{0,30}?)[*_]*[ \t]*:[*_ \t]*(.*)$/.exec(line);
    if (!m) continue;
    const name = m[1]!.trim().toLowerCase();
    const value = m[2]!.replace(/[*_]+$/, '').trim();
    if (value && !fields.has(name)) fields.set(name, value);
  }
  return fields;
}

/** The names of `required` that `fields` lacks, as lines ("Target:"). */
export const missingLines = (fields: Map<string, string>, required: readonly string[]): string[] =>
  required.filter((name) => !fields.has(name.toLowerCase())).map((name) => `${name}:`);

/** Lower-case words of letters and digits (any script); punctuation and case do not matter. */
export const words = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/**
 * The channel an Experiment names: the first word of its Channel line ("devnet (2 validators)"
 * is devnet), accepted when listed now or as an earlier outward channel.
 */
export function channelOf(value: string): { channel: string; ok: boolean } {
  const channel = words(value)[0] ?? '';
  const { channels, legacyChannels } = LAB_CONVENTIONS;
  return { channel, ok: channels.includes(channel) || legacyChannels.includes(channel) };
}

/**
 * The resource a Request asks for: the first word of its Resource line that is a listed resource,
 * singular or plural, so "a GitHub account" and "API keys" pass as account and key.
 */
export function resourceOf(value: string): string | null {
  const listed = LAB_CONVENTIONS.resources;
  for (const w of words(value)) {
    for (const form of [w, w.replace(/es$/, ''), w.replace(/s$/, '')]) if (listed.includes(form)) return form;
  }
  return null;
}

/** The forms a Payback line may take, for the docs and error details. */
export const PAYBACK_FORMS = ['Payback: r=2.5', 'Payback: r = 3', 'Payback: 3x', 'Payback: 2.5', 'Payback: ratio 4 (fees repay the cost within 7 days)'];

/**
 * The ratio r of a Payback line, or null when it states none. Read in this order: an explicit
 * "r=2.5" / "r: 2.5" / "ratio 2.5" anywhere; else a number leading the value ("3x", "2.5 …").
 * A decimal comma is read as a point ("2,5").
 */
export function paybackRatio(value: string): number | null {
  const num = String.raw`(\d+(?:[.,]\d+)?)`;
  const m =
    new RegExp(String.raw`(?:^|[^\p{L}\p{N}])(?:r|ratio)[ \t]*[=:≈≥]?[ \t]*${num}`, 'iu').exec(value) ??
    new RegExp(String.raw`^[ \t~≈]*${num}[ \t]*(?:x|×)?(?![\p{L}\p{N}.,])`, 'iu').exec(value);
  if (!m) return null;
  const r = Number(m[1]!.replace(',', '.'));
  return Number.isFinite(r) ? r : null;
}

const PRIVATE_HOST =
  /^(localhost|.*\.localhost|.*\.local|.*\.internal|127\.\d+\.\d+\.\d+|10\.\d+\.\d+\.\d+|192\.168\.\d+\.\d+|172\.(1[6-9]|2\d|3[01])\.\d+\.\d+|169\.254\.\d+\.\d+|0\.0\.0\.0)$/i;

/**
 * The first public https link in `text`, or null: https, a dotted host name that is not a private,
 * loopback or link-local address (a reader outside must be able to open it). Bracketed IPv6
 * literals are not accepted.
 */
export function publicHttpsLink(text: string): string | null {
  for (const m of text.matchAll(/https:\/\/[^\s<>"'`)\]]+/gi)) {
    let url: URL;
    try {
      url = new URL(m[0].replace(/[.,;:!?]+$/, ''));
    } catch {
      continue;
    }
    const host = url.hostname;
    if (url.protocol !== 'https:' || !host.includes('.') || host.startsWith('[') || PRIVATE_HOST.test(host)) continue;
    return url.href;
  }
  return null;
}

// Words too common to tell two experiments apart.
const STOP_WORDS = new Set(
  'a an the and or of to in on for by with at from as is are be it its this that these those we our us our into per vs via than then'.split(' '),
);

/** The distinct words two posts are compared on: lower-case, punctuation stripped, stop words and one-letter words dropped. */
export const noveltyWords = (...texts: string[]): string[] => [...new Set(texts.flatMap(words).filter((w) => w.length > 1 && !STOP_WORDS.has(w)))].sort();

/** Overlap of two word sets: shared words over the smaller set's size (0 when either is empty). */
export function overlap(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 || b.length === 0) return 0;
  const [small, large] = a.length <= b.length ? [a, new Set(b)] : [b, new Set(a)];
  let shared = 0;
  for (const w of small) if (large.has(w)) shared++;
  return shared / small.length;
}
