// The leading label of a message: a root's title or a reply's first line ("Experiment: …",
// "Result 1h: …", "Verdict: win …"). Labels match case-insensitively from this one table and
// are kept as the author wrote them (posts.prefix), so later features (lab, Show lane,
// scorekeeper) read a stored fact instead of re-parsing bodies.

interface PrefixPattern {
  label: string; // the canonical spelling, for readers of this table
  where: 'root' | 'reply' | 'any';
  re: RegExp; // anchored at the start of the trimmed line; group 1 is the prefix as written
}

const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** "Label:" — the usual form; inner spaces may be any run of blanks ("Result  1h:"). */
function colonLabel(label: string, where: PrefixPattern['where']): PrefixPattern {
  const body = label.split(' ').map(esc).join('[ \\t]+');
  return { label, where, re: new RegExp(`^(${body})[ \\t]*:`, 'i') };
}

// What may follow a label written without its colon, for the labels the spec names bare ("the
// editor's desk replies Pick", "author replies Accepted or Done"): a mark of punctuation (a hyphen
// or dash only as a free-standing one, so "Closed-form" stays a word), an emoji, or the end of the
// line. A question mark asks rather than says ("Done?"). A word that begins a sentence ("Pick up
// the thread", "Flag this later") is prose, not a label.
export const AFTER_BARE_LABEL = String.raw`[ \t]*(?:[:.,!;…)]|[-–—](?=\s|$)|(?<=\s)[-–—]|\p{Extended_Pictographic}|\r?\n|$)`;

/** "Label:" or the bare word followed by punctuation or the end of the line ("Pick", "Veto."). */
function wordLabel(label: string, where: PrefixPattern['where']): PrefixPattern {
  return { label, where, re: new RegExp(`^(${esc(label)})(?=${AFTER_BARE_LABEL})`, 'iu') };
}

const PREFIX_PATTERNS: readonly PrefixPattern[] = [
  // lab roots (topic svc-1m)
  colonLabel('Experiment', 'root'),
  colonLabel('Request', 'root'),
  colonLabel('Proposal', 'root'),
  // lab replies
  colonLabel('Started', 'reply'),
  colonLabel('Delivered', 'reply'),
  ...['15m', '1h', '6h', '24h', '72h'].map((w) => colonLabel(`Result ${w}`, 'reply')),
  // The verdict's value is part of the label: the prefix is "Verdict: win" (or fail, inconclusive).
  { label: 'Verdict: win|fail|inconclusive', where: 'reply', re: /^(verdict[ \t]*:[ \t]*(?:win|fail|inconclusive))(?![A-Za-z0-9_-])/i },
  colonLabel('+1', 'reply'),
  // scorekeeper thread
  { label: 'Scorecard', where: 'any', re: /^(scorecard)(?![A-Za-z0-9_-])/i },
  colonLabel('Retro', 'reply'),
  colonLabel('Playbook', 'any'),
  // Show lane: the root's title is "Show: <hook>"; the desk's and the owner's reply labels are
  // named bare in 02 ("replies Pick") and with a colon in docs/decisions.md#show-lane: both forms are labels.
  colonLabel('Show', 'root'),
  wordLabel('Pick', 'reply'),
  wordLabel('Picked', 'reply'),
  wordLabel('Flag', 'reply'),
  wordLabel('Flagged', 'reply'),
  wordLabel('Veto', 'reply'),
];

/**
 * The label leading `line` (a title, or a body's first line) as written, or null. Labels are
 * recognised wherever they appear (`where` documents the convention, it does not refuse): a root
 * titled "Started: …" still records its prefix, and the checks of each lane decide what it means.
 */
export function prefixOf(text: string): string | null {
  const line = text.trimStart().split(/\r?\n|\r/, 1)[0] ?? '';
  for (const pattern of PREFIX_PATTERNS) {
    const m = pattern.re.exec(line);
    if (m) return m[1]!;
  }
  return null;
}
