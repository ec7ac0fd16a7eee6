// SELF_PITCH: text that opens by promoting the crew or the service instead of telling the reader
// what they get. Readers skim the first line; a post that spends it on "we are the best team"
// wastes every reader's attention, so only the opening is judged. Mentioning the crew later,
// and plain first-person reporting ("We measured p99 at 4 ms"), stays allowed.
import { normalizeForScan } from './normalize.ts';
import { findPhrase, tidyForPhrases } from './phrases.ts';
import type { PhrasePattern } from './phrases.ts';

const BRAG = `(?:best|greatest|top|leading|smartest|fastest|#1|number one)`;
const HYPE_ADJECTIVE = `(?:amazing|awesome|incredible|brilliant|talented|world-class|legendary|elite|fantastic|great|best|genius|unstoppable)`;
const US_THINGS = `(?:crew|team|project|community|token|agents?|service|product|work)`;

const SELF_PITCH_PATTERNS: PhrasePattern[] = [
  {
    description: 'a superiority claim about us: "we are the best team", "svc is the best"',
    regex: new RegExp(String.raw`\b(?:we are|we're|our (?:crew|team) is|the crew is|svc is) (?:simply |truly |clearly )?(?:the )?${BRAG}\b`, 'i'),
  },
  { description: 'hype about our own crew: "our amazing crew"', regex: new RegExp(String.raw`\bour ${HYPE_ADJECTIVE} ${US_THINGS}\b`, 'i') },
  { description: 'check out our …', regex: /\bcheck out (?:our|my|us|the crew|svc)\b/i },
  { description: 'follow us', regex: /\bfollow (?:us|our (?:crew|team|account|page|channel|board)|the crew)\b/i },
  { description: 'join our …', regex: /\bjoin (?:our|us|the crew)\b/i },
  {
    description: 'svc praise: "svc is amazing"',
    regex: /\bsvc is (?:the )?(?:amazing|awesome|incredible|revolutionary|the future|unmatched)\b/i,
  },
  {
    description: 'an announcement opener: "the crew is proud to", "we are thrilled to announce"',
    regex: /\b(?:(?:the|our) (?:crew|team) (?:is|are)|we are|we're) (?:so |very |really )?(?:proud|excited|thrilled|happy|pleased|delighted) to\b/i,
  },
  { description: 'our token is …', regex: /\bour token (?:is|will|has)\b/i },
  { description: 'introducing / meet the crew', regex: /\b(?:introducing|meet) (?:our|the) (?:amazing |awesome |new )?(?:crew|team|token|project)\b/i },
  {
    description: 'asks for support: "support us", "upvote our work"',
    regex: /\b(?:support|subscribe to|upvote|star|like) (?:us|our (?:crew|team|project|token|work|board))\b/i,
  },
  {
    description: 'a ranking of us: "best crew on svc"',
    regex: new RegExp(String.raw`\b${BRAG} (?:crew|team|project) (?:on|in) (?:svc|the board|the space)\b`, 'i'),
  },
];

// How much of the text counts as its opening.
const OPENING_MAX = 200;
// Markdown markers and emoji a post may start with before its first word.
const LEADING_DECORATION = /^[\s#>*_~`|•·\-\p{Extended_Pictographic}]+/u;
// A sentence ends at . ! ? followed by a space or the end (so "4.2 ms" is one sentence), or at a line break.
const SENTENCE_END = /[.!?]+(?= |$)|\n/;
// "gm", "Hi all!" and the like say nothing; the opening is the sentence after them.
const GREETING = /^(?:gm|gn|hi|hello|hey|greetings|good (?:morning|afternoon|evening))\b[^.!?\n]{0,20}[.!?\n]?$/i;

function firstSentence(text: string): { sentence: string; rest: string } {
  const t = text.replace(LEADING_DECORATION, '');
  const m = SENTENCE_END.exec(t);
  const end = m ? m.index + m[0].length : t.length;
  return { sentence: t.slice(0, end), rest: t.slice(end) };
}

/** The part of a text judged for self-promotion: its first sentence, at most 200 characters. */
function openingOf(text: string): string {
  let { sentence, rest } = firstSentence(text);
  if (GREETING.test(sentence.trim())) sentence = firstSentence(rest).sentence;
  return sentence.slice(0, OPENING_MAX);
}

export function findSelfPitch(text: string): { match: string } | null {
  return findSelfPitchNormalized(normalizeForScan(text));
}

/** findSelfPitch for text that already went through normalizeForScan. */
export function findSelfPitchNormalized(normalized: string): { match: string } | null {
  // The sentence split needs the line breaks, so spaces are collapsed only after it.
  return findPhrase(tidyForPhrases(openingOf(normalized)), SELF_PITCH_PATTERNS);
}
