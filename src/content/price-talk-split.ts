// PRICE_TALK split over two clauses (issue 36.4): a call to trade and a prediction, each harmless
// alone, in one sentence or in two adjacent ones. "Sell your ETH" can be a step in a test and
// "it's going to zero" can be said of a queue; "Sell your ETH, it's going to zero." is a call with
// its reason, and so is "It's going to zero. Sell your ETH." Also the present tense with a time:
// "ETH drops to 1000 soon" predicts where "ETH drops to $1,800 after the exploit" reports.
//
// The joints are what keep engineering prose passing:
//  - the call is an imperative: a trade verb on a token at the start of a clause, or after an
//    adviser's words ("you should", "I'd", "don't"); "We sell ETH every Friday", "the test calls
//    `buy SOL`" and "Should I sell my ETH?" are not calls;
//  - the prediction is about "it" (or "this", "that"), ends its claim (FOLLOW in
//    price-talk-shape.ts: "it will crash the node" and "it will double the load" name what moves),
//    and is not asked ("Is it going to zero?");
//  - the two are at most one sentence boundary apart, with bounded gaps (60 characters in the
//    first sentence, 40 in the next), so a 64 KB text stays linear.
// Measured on a held-out set written before this rule (test/content/price-talk-split-heldout.ts).
import { lazyPhrase, type PhrasePattern } from './phrases.ts';
import { ADVERB, IS, MODAL, MOVE, NOT_ADJECTIVE, QUANTITY, REACH, SLANG_MOVE, TRADE_VERB, TRADE_VERB_NEED } from './price-talk-calls.ts';
import { FOLLOW, TARGET } from './price-talk-shape.ts';
import { FUTURE_TIME, IT, NOT_A_COUNT, NOT_AFTER, NOT_ASKED, NUM, PRICED, PRICED_PREREQUISITE, TICKER } from './price-talk-vocab.ts';

// A move in the present tense, or in the progressive ("is dropping"): alone it reports ("ETH
// drops to $1,800 after the exploit"); with a time ahead it predicts.
const MOVES = `(?:drops|falls|dips|sinks|slides|slips|crashes|dumps|tanks|plunges|tumbles|bleeds|rises|climbs|pumps|rallies|jumps|surges|soars|rockets|spikes|rips|runs|flies|moons)`;
const MOVING = `(?:dropping|falling|dipping|sinking|sliding|slipping|crashing|dumping|tanking|plunging|tumbling|bleeding|rising|climbing|pumping|rallying|jumping|surging|soaring|rocketing|spiking|ripping|running|flying|mooning)`;
const MOVES_TO = `(?: ${MOVES}|${IS} ${MOVING}) (?:to|towards?)`;
// A target, or a bare number where a token or "it" was named as what moves ("it is going to 1000").
const GOAL = String.raw`(?:${TARGET}|(?:a|one) (?:million|billion)(?![\p{L}])|${NUM}(?![\p{L}\p{N}]))${NOT_A_COUNT}`;

// A prediction about "it": on its way to a target, a modal with a move or a target, or a move
// in the present tense with a time ahead. It ends its claim and is not asked.
const PREDICTION = [
  `${IS} (?:going|heading|headed|on (?:its|the) way) (?:to|for|towards?) ${GOAL}`,
  ` (?:goes|heads) (?:to|for|towards?) ${GOAL}`,
  `${IS} ${MODAL}${ADVERB} (?:${REACH} ${GOAL}|(?:${MOVE}|${SLANG_MOVE}|go down|go lower)(?: (?:to|towards?) ${GOAL})?)`,
  `${MOVES_TO} ${GOAL},? ${FUTURE_TIME}`,
].join('|');
const NOT_QUESTION = String.raw`(?![^.!?]{0,60}\?)`;
// A capital after the claim starts a new line or sentence: line breaks are spaces by now (phrases.ts).
const ENDS = `(?:${FOLLOW}|(?= (?-i:[A-Z])))`;
const IT_PREDICTION = `${NOT_ASKED}${IT}(?:${PREDICTION})${ENDS}${NOT_QUESTION}`;

// A call: a trade verb on a token, at the start of a clause or after an adviser's words.
const ADVISER = `(?:(?:you|u|y'all|everyone|we) (?:should|must|need to|gotta|have to|better|ought to) |i'?d |i would |just |so |now |then |and |or |but |better |go |time to |don'?t |do not |never |pls |please )`;
// A clause starts after punctuation, or with a capital ("Weekly notes\nSell your ETH, …": the
// line break is a space by now).
const CLAUSE_START = String.raw`(?<=(?:^|[.!?¡¿,;:—–(\-] ?|(?-i:(?=[A-Z])))${ADVISER}?)`;
const CALL_VERB = `(?:${TRADE_VERB}|get out of|get rid of|exit|cash out of|take profits? (?:on|in)|sell off|hold on ?to)`;
// What is traded is a token ("your ETH", "some $BONK", "this coin"): each is a PRICED match, so
// PRICED_PREREQUISITE holds wherever a call does. The clause may go on with a time, a reason or a
// pronoun, never a noun the token names ("Exit the ETH shell", "Hold the SOL release", "Buy the
// ETH book") nor a place ("Buy SOL on devnet", "Stack SOL in the cache").
const TRADED = String.raw`(?:${QUANTITY}${TICKER}|(?<![\p{L}])(?:this|that|the|our|my) (?:token|coin|gem|memecoin))(?![\p{L}\p{N}_])`;
const CLAUSE_ON = String.raw`(?=\s*$|\s*[^\p{L}\p{N}\s]|\s+(?:now|today|tonight|tomorrow|here|asap|rn|already|too|fast|quickly|and|or|but|then|so|before|because|since|as|while|till|until|once|if|when|you|u|i|we|they|it|this|that)(?![\p{L}\p{N}]))`;
const CALL = `${CLAUSE_START}${NOT_ADJECTIVE}${CALL_VERB} ${TRADED}${CLAUSE_ON}`;

// The first sentence's rest, then at most one sentence boundary and the start of the next.
const GAP = '[^.!?]{0,60}?(?:[.!?]+ ?[^.!?]{0,40}?)?';

const CALL_NEED = new RegExp(`${TRADE_VERB_NEED.source}|get out|get rid|exit|cash out|take profit`, 'i');
const IT_NEED = /it|this|that/i;

export const SPLIT_PATTERNS: PhrasePattern[] = [
  lazyPhrase(
    'a call, then a prediction about it: "Sell your ETH, it\'s going to zero."',
    `${CALL}${GAP}${IT_PREDICTION}`,
    'iu',
    IT_PREDICTION,
    [CALL_NEED, IT_NEED],
    PRICED_PREREQUISITE,
  ),
  lazyPhrase(
    'a prediction about it, then a call: "It\'s going to zero. Sell your ETH."',
    `${IT_PREDICTION}${GAP}${CALL}`,
    'iu',
    IT_PREDICTION,
    [CALL_NEED, IT_NEED],
    PRICED_PREREQUISITE,
  ),
  lazyPhrase(
    'a token moving to a target with a time ahead: "ETH drops to 1000 soon", "SOL climbs to 500 next week"',
    `${NOT_ASKED}${NOT_AFTER}${PRICED}${MOVES_TO} ${GOAL},? ${FUTURE_TIME}`,
    'iu',
    `${MOVES_TO} ${GOAL},? ${FUTURE_TIME}`,
    [/drop|fall|dip|sink|slid|slip|crash|dump|tank|plung|tumbl|bleed|ris|climb|pump|ralli|rally|jump|surg|soar|rocket|spik|rip|run|flie|fly|moon/i],
    PRICED_PREREQUISITE,
  ),
  lazyPhrase(
    'a time ahead, then a token moving to a target: "Soon ETH drops to 1000", "By Friday BTC falls to 50k"',
    `(?:(?<=^|[.!?;:] ?)|(?-i:(?=[A-Z])))${FUTURE_TIME},? ${NOT_AFTER}${PRICED}${MOVES_TO} ${GOAL}${FOLLOW}`,
    'iu',
    `${MOVES_TO} ${GOAL}${FOLLOW}`,
    [/drop|fall|dip|sink|slid|slip|crash|dump|tank|plung|tumbl|bleed|ris|climb|pump|ralli|rally|jump|surg|soar|rocket|spik|rip|run|flie|fly|moon/i],
    PRICED_PREREQUISITE,
  ),
];
