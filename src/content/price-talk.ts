// PRICE_TALK: price predictions and buy/sell calls. The board is for measured work; a post that
// tells readers where a token is going or when to buy turns it into a shilling channel (and into
// something that reads like financial advice). Measured reporting — a price with its source and
// time, a volume count, a percentage over a window — is fine and must keep passing.
//
// Each pattern names a call or a prediction, not a topic: "buy" and "sell" alone are everyday
// words in market reporting ("buy and sell counts", "buy-side liquidity"), so only the calls
// ("buy now", "sell before", "ape in") are matched.
import { findPhrase, phraseForm, tidyForPhrases } from './phrases.ts';
import type { PhrasePattern } from './phrases.ts';

const MULTIPLE = String.raw`\d{1,5}x`;
// Space-travel verbs and nouns that make "to the moon" literal ("Apollo 11 flew to the moon").
const LITERAL_MOON = String.raw`(?<!\b(?:flew|flown|fly|flying|flights?|missions?|trips?|journey|travel(?:l?ed|s)?|rockets?|went|sent|return(?:ed)?|distance|way|back|landing|probes?|launch(?:ed)?) )`;

export const PRICE_TALK_PATTERNS: PhrasePattern[] = [
  { description: 'to the moon (not space travel)', regex: new RegExp(String.raw`${LITERAL_MOON}\bto the moon\b`, 'i') },
  { description: 'moon soon / wen moon', regex: /\b(?:moon(?:ing)? soon|wen moon)\b/i },
  {
    description: 'a predicted move: "going to 10x", "will pump", "about to moon"',
    regex: new RegExp(
      String.raw`\b(?:will|gonna|going to|about to|set to|ready to|poised to|headed to|heading to) (?:${MULTIPLE}|moon|pump|skyrocket|explode)\b`,
      'i',
    ),
  },
  {
    description: 'a price prediction: "price will reach $1", "$TOKEN will double"',
    regex:
      /(?:\bprice|\$[a-z]{2,10}|\bsol|\bbtc|\beth|\bbitcoin|\bsolana) (?:will|is going to|gonna|is about to|is set to|could|should) (?:(?:reach|hit|touch|be worth|go to) \$?\d|double|triple|flip|moon|pump|explode|skyrocket|\d{1,5}x)/i,
  },
  { description: 'price target', regex: /\bprice targets?\b|\bpt of \$\d/i },
  {
    description: 'a buy/sell call with urgency: "buy now", "sell before", "buy the dip"',
    regex: /\b(?:buy|sell|ape|get in|load up) (?:now|today|asap|immediately|before|while (?:you|it) can|the dip|this dip)\b/i,
  },
  { description: 'ape in', regex: /\bap(?:e|ing) in(?:to)?\b/i },
  { description: 'load up on', regex: /\bload(?:ing|ed)? up on\b/i },
  {
    description: 'a multiple as a pitch: "100x gem", "next 1000x"',
    regex: new RegExp(String.raw`\b${MULTIPLE} (?:gem|coin|token|play|incoming|from here|guaranteed)\b|\bnext ${MULTIPLE}\b`, 'i'),
  },
  {
    description: 'the "not financial advice, but buy" disclaimer followed by a call',
    regex: /\b(?:not financial advice|nfa|dyor)\b[^.!?\n]{0,40}?\b(?:buy|sell|ape|load|grab|accumulate)\b/i,
  },
  { description: 'guaranteed gains', regex: /\bguaranteed (?:gains?|returns?|profits?|\d{1,5}x)\b/i },
  { description: 'an announced pump', regex: /\b(?:pump|moon|breakout) (?:is )?(?:incoming|imminent|coming soon)\b/i },
];

export function findPriceTalk(text: string): { match: string } | null {
  return findPhrase(phraseForm(text), PRICE_TALK_PATTERNS);
}

/** findPriceTalk for text that already went through normalizeForScan. */
export function findPriceTalkNormalized(normalized: string): { match: string } | null {
  return findPhrase(tidyForPhrases(normalized), PRICE_TALK_PATTERNS);
}

export const PRICE_TALK_CASES: { positives: string[]; negatives: string[] } = {
  positives: [
    'This token is going to 10x by Friday.',
    'SOL to the moon 🚀🚀🚀',
    'Buy now before everyone else notices.',
    'Sell before the unlock dumps it.',
    'The price will reach $1 next week.',
    'Trust me, $BOARD will pump after the listing.',
    'Hidden 100x gem, still early.',
    'moon soon, frens',
    'Time to load up on more.',
    'Our price target is $0.50.',
    'Not financial advice but buy this dip.',
    'I would ape in right now.',
    'This could be the next 1000x.',
    'Guaranteed gains if you hold.',
    'Price is about to moon.',
  ],
  negatives: [
    'The price was $0.012 at 14:00 UTC per DexScreener.',
    'Market cap fell 3% in 24h.',
    'We measured buy and sell counts over 1,000 blocks.',
    'Buy-side liquidity thinned out after 18:00 UTC.',
    'The new cache gives a 10x faster build.',
    'Check the sell-by date on the dataset before reuse.',
    'A retrospective on the moon landing telemetry.',
    'Apollo 11 flew to the moon in 1969.',
    'The session token will expire after 24 hours.',
    'Prices are shown in USD with the source and time next to each.',
    'Load up the config before starting the worker.',
    'Users who sold did so within 2 hours of the unlock (n=312).',
    'We will publish the raw trades so you can check the numbers yourself.',
  ],
};
