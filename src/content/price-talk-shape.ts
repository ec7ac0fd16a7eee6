// PRICE_TALK by the shape of a prediction rather than by a list of sentences: a subject (a ticker,
// a cashtag, a coin's name, "this coin", "the token"), a movement (goes to, going to, heading
// for, will hit, will reach, a bare "to") and a target (a price, a number with thousands
// separators, a multiple, zero, the moon). Any sentence of that shape is a call, however it is
// worded around it: "I think bitcoin goes to 200k eventually", "$TRUMP going to zero".
//
// The shape is strict about its joints, which is what keeps engineering prose passing:
//  - the movement follows the subject directly ("the token count goes to 100k" and "our token
//    refresh to 10 minutes" have a noun between them; a quantity or a verb that moves an amount
//    before the subject, "send 2 SOL to …", "set the token to 0", makes it a transfer, NOT_AFTER);
//  - the target ends the claim: after it comes punctuation, the end, or a word that carries a
//    prediction on ("by", "soon", "eventually", "and" …), never a noun it would count ("zero
//    downtime", "1,000 peers", "10x speed", "100 requests per second", NOT_A_COUNT and FOLLOW).
//  - a question asked with the verb first is not a claim ("Is ETH going to zero?", NOT_ASKED).
// Measured on a held-out set written before this rule (test/content/price-talk-heldout.ts).
import { lazyPhrase, type PhrasePattern } from './phrases.ts';
import { ADVERB, IS, MODAL, REACH } from './price-talk-calls.ts';
import { NOT_A_COUNT, NOT_AFTER, NOT_ASKED, PRICE, PRICED, PRICED_PREREQUISITE } from './price-talk-vocab.ts';

const MOVEMENT = [
  `${IS} (?:going|heading|headed|on (?:its|the) way) (?:to|for|towards?)`,
  ` (?:goes|go|heads|head) (?:to|for|towards?)`,
  `${IS} ${MODAL}${ADVERB} ${REACH}`,
  ' to',
].join('|');

// A price ("$25k", "1k", "a dollar", "10 dollars"), a number written with thousands separators
// ("300,000"), a multiple ("100x"), zero, or the moon.
export const TARGET = String.raw`(?:${PRICE}|\d{1,3}(?:,\d{3}){1,4}(?:\.\d{1,12})?|zero|0(?![.,]?\d)|(?:the )?moon)`;

// Words that may follow a target and keep the sentence a prediction: a time, a hedge, a cheer, a
// conjunction. Any other word makes the number a count of that word.
const FOLLOW_WORDS = [
  'by|before|until|till|til|in|within|this|next|soon|eventually|someday|sometime|again|from|then|and|or|but|so|if|when|once|after|because|with',
  'easily|easy|guaranteed|confirmed|incoming|minimum|min|at least|at some point|for sure|for real|no doubt|or bust|or so|hands down|mark my words',
  'calling|mark|trust|screenshot|watch|just|too|also|yet|anyway|now|today|tomorrow|tonight|eoy|eom|eow|eoq|q[1-4]|asap',
  'lol|lmao|fr|ngl|imo|imho|tbh|lfg|wagmi|ser|bro|frens|baby|i|you|we|they|it|is|are|will|no',
].join('|');
// A punctuation mark ends the claim, but a hyphen before a word joins a compound ("zero-fee").
export const FOLLOW = String.raw`(?=\s*$|\s*(?:[^\p{L}\p{N}\s-]|-(?![\p{L}\p{N}]))|\s+(?:${FOLLOW_WORDS})(?![\p{L}\p{N}]))`;

export const SHAPE_PATTERNS: PhrasePattern[] = [
  lazyPhrase(
    'a prediction: a token, a movement and a target ("BTC goes to 250k", "the token is heading for zero")',
    `${NOT_ASKED}${NOT_AFTER}${PRICED}(?:${MOVEMENT}) ${TARGET}${NOT_A_COUNT}${FOLLOW}`,
    'iu',
    // The movement and the target: a text without them skips the token lookbehinds.
    `(?:${MOVEMENT}) ${TARGET}${NOT_A_COUNT}${FOLLOW}`,
    // A movement holds one of the first words (every MODAL does), a target one of the second.
    [/go|head|way|will|'ll|gonna|could|should|might|can|may|must| to/i, /\d|dollar|buck|penny|zero|moon/i],
    PRICED_PREREQUISITE,
  ),
];
