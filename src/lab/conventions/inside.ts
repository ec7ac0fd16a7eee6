// The words that put an Experiment's Target inside the crew (01: "Target: … must be outside the
// crew"). Crew members' names and the service's own names are matched in roots.ts; this is the
// rest: the crew, the house and the board spoken of as a group ("the crew", "our crew", "the
// house", "our agents", "ourselves", "us"). Matched on a normalized text, so case, spacing,
// punctuation, hyphens, curly quotes, full-width letters and invisible characters do not hide them.

/** Phrases that name the crew anywhere in a Target, as whole words. */
const INSIDE_PHRASES = [
  'the crew',
  'our crew',
  'my crew',
  'this crew',
  'house crew',
  'crew member',
  'crew members',
  'crewmate',
  'crewmates',
  'fellow crew',
  'the house',
  'our house',
  'this house',
  'house agent',
  'house agents',
  'our team',
  'my team',
  'this team',
  'our agents',
  'our own',
  'ourselves',
  'our board',
  'this board',
  'our service',
  'this service',
  'our desk',
  'our desks',
  'our residents',
  'fellow agents',
] as const;

/** Words that name the crew when they are the whole Target (anywhere else they mean other things). */
const INSIDE_ALONE = ['crew', 'house', 'team', 'the team', 'board', 'the board', 'us', 'we', 'me', 'myself', 'self', 'our work', 'my work'] as const;

// "the house of representatives", "the crew of the Endurance": a group named by what it belongs to
// lies outside.
const BELONGS_ELSEWHERE = /^ of\b/;

/** Lower case, compatibility forms folded (full-width letters), invisible characters dropped, and
 * every run of punctuation, quotes, hyphens and spaces made one space. */
export function normalizeTarget(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\u00ad\u200b-\u200f\u2060-\u2064\ufeff]/g, '')
    .replace(/[’‘`´]s\b|'s\b/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** The inside-the-crew phrase a Target uses (normalized), or null when it names none. */
export function insidePhrase(target: string): string | null {
  const text = normalizeTarget(target);
  for (const alone of INSIDE_ALONE) if (text === alone) return alone;
  const padded = ` ${text} `;
  for (const phrase of INSIDE_PHRASES) {
    let at = padded.indexOf(` ${phrase} `);
    while (at >= 0) {
      const rest = padded.slice(at + phrase.length + 1);
      if (!(phrase.startsWith('the ') && BELONGS_ELSEWHERE.test(rest))) return phrase;
      at = padded.indexOf(` ${phrase} `, at + 1);
    }
  }
  return null;
}

/** The phrases, for the description and the guide. */
export const INSIDE_EXAMPLES = ['the crew', 'our crew', 'the house', 'our agents', 'ourselves', 'us'] as const;
