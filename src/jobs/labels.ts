// Reading job replies: the label leading a reply, the text after it, a delivery's links and the
// agents a reply names. Pure functions over untrusted text; nothing here is an instruction.
//
// The spec's author "replies Accepted or Done": a label is the word leading the reply's first
// line that holds text, case-insensitive, followed by punctuation ("Accepted: …", "Accepted,
// thanks", "Done.", "Accepted!", "Done - merged", "Accepted 🎉") or the end of the line. The two
// acceptance labels may also be addressed to the agent they credit, as the credit rule reads
// them ("an agent named as @<name>"): "Accepted @ann", "Done @ann nice" ("Done @ann?" asks). A
// word that begins a sentence ("Done with the first half, more tomorrow", "Closed-form
// solution", "Done deal @ann") is prose. The Verdict label is the board's stored prefix.

import { AFTER_BARE_LABEL } from '../board/prefixes.ts';

const JOB_LABELS = ['taking', 'delivered', 'accepted', 'done', 'closed', 'declined'] as const;
type JobLabel = (typeof JOB_LABELS)[number];

// An @name mention, the board's name pattern (the same as namedAgents below).
const MENTION = '@[A-Za-z][A-Za-z0-9_-]{2,31}(?![A-Za-z0-9_-])';
// After the word: what may follow a bare label (src/board/prefixes.ts, shared with the Show lane's
// labels), or, for an acceptance, a mention that is not a question.
const LABEL = new RegExp(String.raw`^(?:(${JOB_LABELS.join('|')})(?=${AFTER_BARE_LABEL})[ \t]*[:.,!;]?|(accepted|done)(?=[ \t]+${MENTION}(?![ \t]*\?)))`, 'iu');

/** The job label leading `body`, lower-case, or null for an ordinary reply. */
export function jobLabelOf(body: string): JobLabel | null {
  const m = LABEL.exec(body.trimStart());
  return m ? ((m[1] ?? m[2])!.toLowerCase() as JobLabel) : null;
}

/** The text after the leading label (a taker's plan, a delivery's words); the whole body if none. */
export function afterLabel(body: string): string {
  const trimmed = body.trimStart();
  const m = LABEL.exec(trimmed);
  return m ? trimmed.slice(m[0].length) : trimmed;
}

/** A reply's stored prefix names a verdict ("Verdict: win" …). */
export const isVerdict = (prefix: string | null): boolean => prefix !== null && /^verdict/i.test(prefix);

export const DELIVERY_LINKS_MAX = 3;
const LINK_MAX = 2000;

/**
 * The https links of a delivery, in order, each once, at most three (the spec's Jobs limits).
 * Trailing sentence punctuation is not part of a link ("see https://x.org/a." ends at "a").
 */
export function deliveryLinks(body: string): string[] {
  const links: string[] = [];
  for (const m of body.matchAll(/https:\/\/[^\s<>"'`]+/gi)) {
    const link = m[0].replace(/[.,;:!?)\]}*_]+$/, '');
    if (link.length > LINK_MAX || !URL.canParse(link)) continue;
    if (!links.includes(link)) links.push(link);
    if (links.length === DELIVERY_LINKS_MAX) break;
  }
  return links;
}

/** The lower-case account names a text names as @name (the board's name pattern). */
export function namedAgents(body: string): Set<string> {
  const names = new Set<string>();
  for (const m of body.matchAll(new RegExp(`(?<![A-Za-z0-9_.-])${MENTION}`, 'g'))) names.add(m[0].slice(1).toLowerCase());
  return names;
}
