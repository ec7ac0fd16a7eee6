// SELF_PITCH: text that promotes the crew or the service instead of telling the reader what they
// get. Every sentence of every field is judged, the title included: a pitch moved to the second
// line ("Retries fell 40%.\nFollow us for more relay notes.") is still a pitch. Mentioning the crew
// ("Our crew measured cold starts"), plain first-person reporting ("We measured p99 at 4 ms", "our
// results are below") and instructions to the reader ("Follow the steps below") stay allowed.
import { NeedIndex } from './needs.ts';
import { normalizeForScan } from './normalize.ts';
import { MAX_MATCH, needsHold, phraseScan, tidyForPhrases } from './phrases.ts';
import type { PhrasePattern } from './phrases.ts';

const BRAG = `(?:best|greatest|top|leading|smartest|fastest|#1|number one)`;
const HYPE_WORDS = 'amazing|awesome|incredible|brilliant|talented|world-class|legendary|elite|fantastic|great|best|genius|unstoppable';
const HYPE_ADJECTIVE = `(?:${HYPE_WORDS})`;
const US_THINGS = `(?:crew|team|project|community|token|agents?|service|product|work)`;

const SELF_PITCH_PATTERNS: PhrasePattern[] = [
  {
    description: 'a superiority claim about us: "we are the best team", "svc is the best"',
    // "We are the best placed to explain it" says who can answer, not who is best.
    regex: new RegExp(
      String.raw`\b(?:we are|we're|our (?:crew|team) is|the crew is|svc is) (?:simply |truly |clearly )?(?:the )?${BRAG}\b(?! (?:placed|positioned|suited|equipped) to\b)`,
      'i',
    ),
    need: [/we are|we're|our crew is|our team is|the crew is|svc is/i],
  },
  {
    description: 'hype about our own crew: "our amazing crew"',
    regex: new RegExp(String.raw`\bour ${HYPE_ADJECTIVE} ${US_THINGS}\b`, 'i'),
    need: [/our /i, new RegExp(HYPE_WORDS, 'i')],
  },
  { description: 'check out our …', regex: /\bcheck out (?:our|my|us|the crew|svc)\b/i, need: [/check out /i] },
  { description: 'follow us', regex: /\bfollow (?:us|our (?:crew|team|account|page|channel|board)|the crew)\b/i, need: [/follow /i] },
  { description: 'join our …', regex: /\bjoin (?:our|us|the crew)\b/i, need: [/join /i] },
  {
    description: 'svc praise: "svc is amazing"',
    regex: /\bsvc is (?:the )?(?:amazing|awesome|incredible|revolutionary|the future|unmatched)\b/i,
    need: [/svc is /i],
  },
  {
    description: 'an announcement opener: "the crew is proud to", "we are thrilled to announce"',
    // An announcement, not politeness: "we are happy to answer questions" passes.
    regex:
      /\b(?:(?:the|our) (?:crew|team) (?:is|are)|we are|we're) (?:so |very |really )?(?:proud|excited|thrilled|happy|pleased|delighted) to (?:announce|present|introduce|unveil|launch|release|reveal|share|show|bring|welcome|partner)\b/i,
    need: [/proud to |excited to |thrilled to |happy to |pleased to |delighted to /i],
  },
  { description: 'our token is …', regex: /\bour token (?:is|will|has)\b/i, need: [/our token /i] },
  {
    description: 'introducing / meet the crew',
    regex: /\b(?:introducing|meet) (?:our|the) (?:amazing |awesome |new )?(?:crew|team|token|project)\b/i,
    need: [/introducing |meet /i],
  },
  {
    description: 'asks for support: "support us", "upvote our work"',
    regex: /\b(?:support|subscribe to|upvote|star|like) (?:us|our (?:crew|team|project|token|work|board))\b/i,
    need: [/support |subscribe to |upvote |star |like /i],
  },
  {
    description: 'a ranking of us: "best crew on svc"',
    regex: new RegExp(String.raw`\b${BRAG} (?:crew|team|project) (?:on|in) (?:svc|the board|the space)\b`, 'i'),
    need: [/crew on |crew in |team on |team in |project on |project in /i],
  },
];

/** The patterns as findSelfPitchNormalized runs them (every one, in order): for tests. */
export const SELF_PITCH_RULES: readonly PhrasePattern[] = SELF_PITCH_PATTERNS;

let needIndex: NeedIndex | undefined;
const selfPitchNeeds = (): NeedIndex => {
  needIndex ??= new NeedIndex(SELF_PITCH_PATTERNS.flatMap((p) => p.need ?? []));
  return needIndex;
};

// A sentence ends at . ! ? followed by white space or the end (so "4.2 ms" is one sentence). A line
// break alone does not end one: a phrase wrapped over two lines ("Follow\nus") is still the phrase.
const SENTENCE_END = /[.!?]+(?=\s|$)/g;

/** The sentences of a normalized text, in reading order. */
function sentencesOf(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (const m of text.matchAll(SENTENCE_END)) {
    out.push(text.slice(start, m.index + m[0].length));
    start = m.index + m[0].length;
  }
  out.push(text.slice(start));
  return out;
}

export function findSelfPitch(text: string): { match: string } | null {
  return findSelfPitchNormalized(normalizeForScan(text));
}

/** findSelfPitch for text that already went through normalizeForScan: the first pitch in reading order. */
export function findSelfPitchNormalized(normalized: string): { match: string } | null {
  // Each sentence's phrase form is a piece of the whole text's (tidying maps a white-space run to
  // one space, and a sentence ends before the run that follows it): a pattern whose needs the whole
  // text lacks matches no sentence, and is not run on any. Most texts leave none to run.
  const whole = tidyForPhrases(normalized);
  const scan = phraseScan(whole, selfPitchNeeds());
  const candidates = SELF_PITCH_PATTERNS.filter((p) => needsHold(p, whole, scan));
  if (candidates.length === 0) return null;
  // A phrase never runs from one sentence into the next.
  for (const sentence of sentencesOf(normalized)) {
    const form = tidyForPhrases(sentence);
    for (const p of candidates) {
      const m = p.regex.exec(form);
      if (m) return { match: m[0].trim().slice(0, MAX_MATCH) };
    }
  }
  return null;
}
