// PRICE_TALK: price predictions and buy/sell calls. The board is for measured work; a post that
// tells readers where a token is going or when to buy turns it into a shilling channel (and into
// something that reads like financial advice). Measured reporting — a price with its source and
// time, a volume count, a percentage over a window — is fine and must keep passing.
//
// Each pattern names a call or a prediction, not a topic: "buy" and "sell" alone are everyday
// words in market reporting ("buy and sell counts", "buy-side liquidity"), so only the calls
// ("buy now", "sell before", "ape in") are matched. The patterns here are the hype phrases; the
// trading language (targets, imperatives on a ticker, TP/SL) is in price-talk-calls.ts and the
// other languages in price-talk-i18n.ts; a prediction by its shape is in price-talk-shape.ts, and a
// call and a prediction split over two clauses in price-talk-split.ts. Text is also read once as leetspeak ("S0L t0 1k").
import { NeedIndex } from './needs.ts';
import { execPhrase, MAX_MATCH, phraseForm, phraseScan, tidyForPhrases } from './phrases.ts';
import type { PhrasePattern } from './phrases.ts';
import { TRADING_PATTERNS } from './price-talk-calls.ts';
import { I18N_PATTERNS } from './price-talk-i18n.ts';
import { SHAPE_PATTERNS } from './price-talk-shape.ts';
import { SPLIT_PATTERNS } from './price-talk-split.ts';
import { leetCopy } from './price-talk-vocab.ts';

const MULTIPLE = String.raw`\d{1,5}x`;
// Space-travel verbs and nouns that make "to the moon" literal ("Apollo 11 flew to the moon", "the
// rocket goes to the moon").
const LITERAL_MOON = String.raw`(?<!\b(?:flew|flown|fly|flying|flights?|missions?|trips?|journey|travel(?:l?ed|s)?|rockets?|went|sent|return(?:ed)?|distance|way|back|landing|probes?|launch(?:ed)?) )(?<!\b(?:nasa|esa|artemis|apollo|astronauts?|cosmonauts?|crew|spacecraft|spaceships?|starship|rockets?|capsules?|probes?|landers?|orbiters?|rovers?|satellites?|humans)\b[^.!?]{0,30})`;

const HYPE_PATTERNS: PhrasePattern[] = [
  {
    description: 'to the moon (not space travel)',
    regex: new RegExp(String.raw`${LITERAL_MOON}\bto the moon\b`, 'i'),
    gate: /\bto the moon\b/i,
    need: [/to the moon/i],
  },
  { description: 'moon soon / wen moon', regex: /\b(?:moon(?:ing)? soon|wen moon)\b/i, need: [/moon soon|mooning soon|wen moon/i] },
  {
    // Only the crypto slang goes without a subject: "traffic is going to 10x" and "the queue will
    // explode" are predictions about something else (price-talk-calls.ts takes them with a token).
    description: 'a predicted move in slang: "will pump", "about to moon"',
    regex:
      /\b(?:will|gonna|going to|about to|set to|ready to|poised to|headed to|heading to) (?:moon|go parabolic|pump(?! (?:the|a|an|some|more|data|messages|events|it|them|out|up|into|through)\b))\b/i,
    need: [/moon|parabolic|pump/i],
  },
  { description: 'price target', regex: /\bprice targets?\b|\bpt of \$\d/i, need: [/price target|pt of \$/i] },
  {
    description: 'a buy/sell call with urgency: "buy now", "sell before", "buy the dip"',
    regex: /\b(?:buy|sell|ape|get in|load up) (?:now|today|asap|immediately|right now|before|while (?:you|it) can|the dip|this dip)\b/i,
    need: [/buy |sell |ape |get in |load up /i],
  },
  { description: 'ape in', regex: /\bap(?:e|ing) in(?:to)?\b/i, need: [/ape in|aping in/i] },
  { description: 'load up on', regex: /\bload(?:ing|ed)? up on\b/i, need: [/load up on|loading up on|loaded up on/i] },
  {
    description: 'a multiple as a pitch: "100x gem", "next 1000x"',
    regex: new RegExp(String.raw`\b${MULTIPLE} (?:gem|coin|token|play|incoming|from here|guaranteed|potential)\b|\bnext ${MULTIPLE}\b`, 'i'),
    need: [/\dx/i],
  },
  {
    description: 'the "not financial advice, but buy" disclaimer followed by a call',
    regex: /\b(?:not financial advice|nfa|dyor)\b[^.!?\n]{0,40}?\b(?:buy|sell|ape|load|grab|accumulate)\b/i,
    need: [/not financial advice|nfa|dyor/i, /buy|sell|ape|load|grab|accumulate/i],
  },
  {
    description: 'riches promised',
    regex:
      /\b(?:make|making|made|will make) (?:you|u|us|everyone|holders) (?:rich|millionaires?|a millionaire|a fortune)\b|\bget(?:ting)? rich (?:with|on|from|off)\b|\bgenerational wealth\b|\blife[- ]changing (?:money|gains|wealth)\b/i,
    need: [/make |making |made |get rich |getting rich |generational wealth|life changing |life-changing /i],
  },
  { description: 'guaranteed gains', regex: /\bguaranteed (?:gains?|returns?|profits?|\d{1,5}x)\b/i, need: [/guaranteed /i] },
  {
    description: 'an announced pump',
    regex: /\b(?:pump|moon|breakout) (?:is )?(?:incoming|imminent|coming soon)\b/i,
    need: [/pump |moon |breakout /i, /incoming|imminent|coming soon/i],
  },
];

export const PRICE_TALK_PATTERNS: readonly PhrasePattern[] = [...HYPE_PATTERNS, ...TRADING_PATTERNS, ...SHAPE_PATTERNS, ...SPLIT_PATTERNS, ...I18N_PATTERNS];

let needIndex: NeedIndex | undefined;
/** The patterns' needs in one automaton (needs.ts), built on the first text scanned. */
export function priceTalkNeeds(): NeedIndex {
  needIndex ??= new NeedIndex(PRICE_TALK_PATTERNS.flatMap((p) => [...(p.need ?? []), ...(p.requires ? [p.requires.need] : [])]));
  return needIndex;
}

function firstMatch(form: string): { index: number; length: number } | null {
  const scan = phraseScan(form, priceTalkNeeds());
  for (const p of PRICE_TALK_PATTERNS) {
    const m = execPhrase(p, form, scan);
    if (m) return { index: m.index, length: m[0].length };
  }
  return null;
}

/**
 * The first price-talk phrase in a phrase-form text. The text is read as written, then once as
 * leetspeak; a leetspeak hit is reported as the author wrote it ("S0L t0 1k"), which the
 * one-character-for-one mapping makes a plain slice.
 */
function findInForm(form: string): { match: string } | null {
  let hit = firstMatch(form);
  if (!hit) {
    const leet = leetCopy(form);
    if (leet !== form) hit = firstMatch(leet);
  }
  return hit
    ? {
        match: form
          .slice(hit.index, hit.index + hit.length)
          .trim()
          .slice(0, MAX_MATCH),
      }
    : null;
}

export function findPriceTalk(text: string): { match: string } | null {
  return findInForm(phraseForm(text));
}

/** findPriceTalk for text that already went through normalizeForScan. */
export function findPriceTalkNormalized(normalized: string): { match: string } | null {
  return findInForm(tidyForPhrases(normalized));
}
