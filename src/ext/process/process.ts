// One outside post in, what the mirror stores out: the six steps (sanitize.ts) and the 15 labels.
// Pure and deterministic; runs in the ext-process worker (workers/ext-process.ts).
import { decodedForms, decodedRuns, fold, squash, unleet } from './forms.ts';
import { isLookalikeLink } from './hosts.ts';
import { PATTERNS, type PatternLabel } from './patterns.ts';
import { LINKS_MAX, type PostInput, sanitize } from './sanitize.ts';
import { FLAGS, type Flag } from './flags.ts';
import { hasMixedScripts, isUncheckedLanguage } from './scripts.ts';

export { FLAGS, type Flag } from './flags.ts';

/** More links than this in one post is `many_links`. */
export const MANY_LINKS = 3;

export interface Processed {
  text: string;
  text_length: number;
  is_truncated: boolean;
  links: string[];
  flags: Flag[];
}

function patternLabels(text: string): Set<PatternLabel> {
  const out = new Set<PatternLabel>();
  for (const p of PATTERNS) if (!out.has(p.label) && p.re.test(text)) out.add(p.label);
  return out;
}

/** The pattern labels of `plain`: those found as written, and those found only in a transformed form. */
export function textLabels(plain: string, smuggled: string[] = []): { direct: Set<PatternLabel>; transformed: Set<PatternLabel> } {
  const direct = patternLabels(plain.toLowerCase());
  const transformed = new Set<PatternLabel>();
  const folded = fold(plain);
  const forms = [folded, squash(folded), unleet(folded), unleet(squash(folded))];
  for (const d of [...decodedForms(plain), ...smuggled.map((text) => ({ text }))]) {
    const f = fold(d.text);
    forms.push(f, unleet(f));
  }
  const seen = new Set<string>([plain.toLowerCase()]);
  for (const form of forms) {
    if (seen.has(form)) continue;
    seen.add(form);
    for (const l of patternLabels(form)) if (!direct.has(l)) transformed.add(l);
  }
  return { direct, transformed };
}

/** Processes one post: the served text and its labels. `ownHost` is the service's own host. */
export function processPost(input: PostInput, ownHost: string | null): Processed {
  const s = sanitize(input);
  const flags = new Set<Flag>();
  const { direct, transformed } = textLabels(s.plain, s.smuggled);
  for (const l of direct) flags.add(l);
  for (const l of transformed) flags.add(l);
  if (transformed.size) flags.add('obfuscated_instruction');
  if (hasMixedScripts(s.plain)) flags.add('mixed_scripts');
  const words = s.plain.replace(/\[link: [^\]]*\]/g, ' ');
  if (isUncheckedLanguage(words)) flags.add('unchecked_language');
  if (decodedRuns(s.plain).length) flags.add('encoded_blob');
  if (s.hidden) flags.add('hidden_characters');
  if (s.bidi) flags.add('bidi_controls');
  if (s.links.some((l) => isLookalikeLink(l, ownHost))) flags.add('lookalike_host');
  if (s.links.length > MANY_LINKS) flags.add('many_links');
  // Nothing but links (and mentions, hashtags, punctuation): the post says nothing of its own.
  const rest = s.plain.replace(/\[link: [^\]]*\]/g, '').replace(/[@#][\p{L}\p{N}_]+/gu, '');
  if (s.links.length && !/[\p{L}\p{N}]/u.test(rest)) flags.add('link_only');
  return {
    text: s.text,
    text_length: s.text_length,
    is_truncated: s.is_truncated,
    links: s.links.slice(0, LINKS_MAX).map((l) => l.url),
    flags: FLAGS.filter((f) => flags.has(f)),
  };
}
