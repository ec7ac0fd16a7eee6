// PRICE_TALK in trading language: targets on a token, predictions of its move, imperatives on a
// ticker, and trading shorthand (entries, TP/SL, stops). Each pattern needs a token, a price or a
// trading level next to the verb: "buy", "sell", "swap", "short", "target", "stop" and "entry" are
// everyday words in engineering and market reporting ("buy-side depth", "stop the worker",
// "target 0.9 recall", "short the circuit"), and those must keep passing.
import { lazyPhrase, type PhrasePattern, type Prerequisite } from './phrases.ts';
import {
  CASHTAG,
  FUTURE_TIME,
  IT,
  MULTIPLE,
  NOT_A_COUNT,
  NOT_AFTER,
  NOT_ASKED,
  NUM,
  PRICE,
  PRICE_OR_NUMBER,
  PRICED,
  PRICED_PREREQUISITE,
  TICKER,
} from './price-talk-vocab.ts';

// Sources here; each is compiled on its first use (`lazyPhrase`): compiling all of them costs
// ~35 ms, which the server's start-up need not pay.
const re = (source: string): string => source;
const B = String.raw`(?<![\p{L}\p{N}_])`;
const E = String.raw`(?![\p{L}\p{N}_])`;

// "to", or an arrow or rocket standing for it: "JUP ➡️ $5", "SOL -> 1k", "BONK 🚀 0.0001".
const ARROW_SYMBOL = `(?:-->|->|=>|→|⇒|⟶|➡|➜|➔|➝|⮕|>>|🚀{1,3}|📈|↗|⬆)`;
const ARROW = `(?: to | ?${ARROW_SYMBOL} ?)`;
const SUBJECT = `(?:${PRICED}|${IT})`;
export const IS = `(?:'s|'re| is| are)?`;
export const MODAL = `(?:will|'ll|is going to|going to|gonna|about to|set to|could|should|might|can|may|must|headed (?:to|for)|heading (?:to|for)|poised to|ready to|primed to|expected to|likely to|bound to|needs to|has to)`;
export const ADVERB = `(?: (?:easily|definitely|surely|literally|totally|probably|def|absolutely|clearly|obviously|so|just|still|soon|really|eventually|finally|likely|prob))?`;
export const REACH = `(?:reach|hit|touch|see|be at|be worth|be trading at|be|retest|test|flip|go to|go up to|get to|break|cross|top|clear|smash|print|trade at|trade above|(?:run|rally|climb|pump|moon|rip|fly|send|rise|rocket|surge|jump|drop|fall|crash|dump|sink|tank|bleed) to)`;
// Slang moves need no token named ("it's about to moon"); plain verbs do ("SOL will double"),
// since "the build will go up" and "it will crash" are everyday predictions.
export const SLANG_MOVE = `(?:moon|go parabolic|go vertical|${MULTIPLE}|pump(?! (?:the|a|an|some|more|data|messages|events|it|them|out|up|into|through)${E})|(?:rip|send)(?: it)?(?= ?(?:[.!,;:)🚀🔥📈🌕]|$|soon|hard|higher|again|from here)))`;
export const MOVE = `(?:double|triple|quadruple|explode|skyrocket|soar|surge|rally|go up|go higher|rise|climb|fly|take off|dump|crash|tank|collapse|go to (?:zero|0)|rug|bleed|drop|fall|recover|break out|bounce|flip (?:eth|btc|bitcoin|ethereum|sol|solana))`;

export const TRADE_VERB = `(?:buy|sell|grab|scoop(?: up)?|snag|ape(?: into| in)?|dump|short|long|accumulate|stack|load up on|load up|bag|cop|pick up|get in on|fade|hodl|hold|bid|yolo(?: into)?|rotate into|go (?:long|short)(?: on)?|buy up|back up the truck on|(?:fill|load) (?:up )?(?:your|ur) bags? (?:with|on)|(?:go )?all[- ]in on|get in (?:early )?on)`;
// "a long SOL transaction", "so short": the adjective, not the trade.
export const NOT_ADJECTIVE = `(?!(?<=(?:a|the|too|so|very|how|as|is|are|was) )(?:long|short)${E})`;
export const QUANTITY = `(?:(?:your|ur|some|more|all (?:your|ur|the)|a bag of|a (?:bunch|ton|lot|stack|few) of|the) )?`;
const LEVEL_OR_PRICE = `(?:under|below|above|sub|at|@|around|near) ?${PRICE_OR_NUMBER}`;
const SOON_EVENT = `(?:it|they|everyone|anyone|others|the (?:pump|dump|crash|rug|run|listing|launch|unlock|halving|breakout|news|announcement|rally|crowd|masses|whales|airdrop|squeeze|etf|merge)|listing|launch|(?:it'?s|its) too late)`;
// What turns "buy SOL" from a step in a test into a call: urgency, a level, a plan or a cheer.
const TRIGGER = `(?:,? (?:now|today|tonight|asap|rn|right now|immediately|here|early|cheap|fast|quick(?:ly)?|hard|heavy|big|all in|with both hands|while (?:it|you|its|u|they|still)|before ${SOON_EVENT}|${LEVEL_OR_PRICE}|on (?:the |this |any |every |a )?dips?|(?:the )?dips?|and (?:hold|forget|wait|thank|hodl|retire)|or (?:regret|cry|stay poor|miss|ngmi)|if you (?:can|want|'re smart)|for (?:the|a|this) (?:pump|run|moon|flip|bounce|breakout|ride)|then (?:sell|dump)|(?:to|for) ${PRICE}${NOT_A_COUNT}|target|tp|sl|stop|entry|lfg|ngmi|wagmi|${MULTIPLE}|(?:this|next) (?:week|dip|cycle)|soon|fr)${E}| ?[!🚀📈🔥💎🌕])`;

// Levels in a trade plan. Each level is a number followed by punctuation, another level or the
// end, not by a word ("target 0.9 recall" is a goal, "entry 3 in the table" a row; "target 0.9" is
// a level), and one plan names at least two of them.
const LEVEL_KEY = `(?:entry(?: zone| price)?|entries|buy zone|buy-in|tp ?[1-5]?|tps|take[- ]?profits?|sl|stop[- ]?loss|stop|stops|targets?|tgt|invalidation)`;
const LEVEL_NUMBER = String.raw`\$?${NUM}(?: ?[kmb])?(?:(?: ?[-–\/] ?| to )\$?${NUM}(?: ?[kmb])?){0,3}`;
const NOT_UNIT = String.raw`(?![\p{N}]|[.,]\d| ?%| (?!(?:${LEVEL_KEY}|and|or|then|to|usd[ct]?|sats?)${E}|on ${TICKER})\p{L}{2,})`;
const LEVEL = `${B}${LEVEL_KEY}(?: ?[:=@]| at| around| near| is| -| –)? ?${LEVEL_NUMBER}${NOT_UNIT}`;

// Needs (phrases.ts): words or symbols each match holds one of, as plain case-insensitive literal
// searches; a text without them skips the pattern. Each is read off the pattern's own alternatives.
const TO_OR_ARROW_NEED = / to |->|=>|>>|[→⇒⟶➡➜➔➝⮕↗⬆]|🚀|📈/i;
// Every MODAL holds one of these ("is going to", "set to" and the other "… to" forms hold " to").
const MODAL_NEED = /will|'ll|gonna|could|should|might|can|may|must|head| to/i;
// A PRICE is a number, or "a dollar", "one buck", "a penny".
const PRICE_NEED = /\d|dollar|buck|penny/i;
const FUTURE_NEED = /by |before |until |til |till |in |around |eo[ymwq]|next |this |soon|shortly|tomorrow|tonight/i;
const LEVEL_KEY_NEED = /entr|buy|tp|take|sl|stop|target|tgt|invalidation/i;
export const TRADE_VERB_NEED =
  /buy|sell|grab|scoop|snag|ape|dump|short|long|accumulate|stack|load|bag|cop|pick up|get in|fade|hodl|hold|bid|yolo|rotate into|go |truck|fill|all[- ]in/i;

const TRADING: { description: string; regex: string; gate?: string; need?: readonly RegExp[]; requires?: Prerequisite }[] = [
  {
    description: 'a target on a token: "ETH to 10k", "JUP ➡️ $5", "SOL -> 1k by spring"',
    regex: re(`${NOT_AFTER}${PRICED}${ARROW}${PRICE}${NOT_A_COUNT}`),
    gate: `${ARROW}${PRICE}`,
    need: [TO_OR_ARROW_NEED],
    requires: PRICED_PREREQUISITE,
  },
  {
    description: 'a token\'s move drawn as an arrow: "BONK 0.00002 ➡️ 0.0001", or "2" for "to": "ETH 2 10k"',
    regex: re(`${NOT_AFTER}${PRICED}(?: (?:from )?${PRICE_OR_NUMBER} ?${ARROW_SYMBOL} ?| 2 )${PRICE}${NOT_A_COUNT}`),
    gate: `(?:${ARROW_SYMBOL} ?| 2 )${PRICE}`,
    need: [/->|=>|>>|[→⇒⟶➡➜➔➝⮕↗⬆]|🚀|📈| 2 /i],
    requires: PRICED_PREREQUISITE,
  },
  {
    description: 'a bare number as the target of a named coin or cashtag: "SOL to 500", "SOL 150 → 300"',
    regex: re(
      `${NOT_AFTER}(?:${CASHTAG}|${B}(?:bitcoin|btc|ethereum|eth|solana|sol|doge|bonk|pepe|shib|xrp)${E})(?: (?:from )?${PRICE_OR_NUMBER})?${ARROW}${PRICE_OR_NUMBER}${NOT_A_COUNT}`,
    ),
    gate: `${ARROW}${PRICE_OR_NUMBER}`,
    need: [TO_OR_ARROW_NEED],
  },
  {
    description: 'a predicted price: "SOL will hit $500", "it could reach 1k"',
    regex: re(`${SUBJECT}${IS} ${MODAL}${ADVERB} ${REACH} ${PRICE}${NOT_A_COUNT}`),
    gate: ` ${REACH} ${PRICE}`,
    need: [MODAL_NEED, PRICE_NEED],
  },
  {
    description: 'a predicted move in slang: "it\'s about to moon", "this could 100x"',
    regex: re(`${SUBJECT}${IS} ${MODAL}${ADVERB} ${SLANG_MOVE}`),
    gate: ` ${MODAL}${ADVERB} ${SLANG_MOVE}`,
    need: [MODAL_NEED, /moon|parabolic|vertical|\dx|pump|rip|send/i],
  },
  {
    description: 'a predicted move of a token or its price: "SOL will double", "the price will go up"',
    regex: re(`${PRICED}${IS} ${MODAL}${ADVERB} ${MOVE}${E}`),
    gate: ` ${MODAL}${ADVERB} ${MOVE}${E}`,
    need: [
      MODAL_NEED,
      /double|triple|quadruple|explode|skyrocket|soar|surge|rally|go |rise|climb|fly|take off|dump|crash|tank|collapse|rug|bleed|drop|fall|recover|break out|bounce|flip/i,
    ],
    requires: PRICED_PREREQUISITE,
  },
  {
    description: 'a named token predicted at a bare number: "LINK going to 50", "SOL price will hit 1000"',
    regex: re(
      `${NOT_ASKED}${PRICED}${IS} (?:(?:going|headed|heading|on (?:its|the) way) (?:to|for)|${MODAL}${ADVERB} ${REACH}) ${PRICE_OR_NUMBER}${NOT_A_COUNT}`,
    ),
    gate: ` (?:(?:going|headed|heading|on (?:its|the) way) (?:to|for)|${MODAL}${ADVERB} ${REACH}) ${PRICE_OR_NUMBER}`,
    need: [/going|way|will|'ll|gonna|could|should|might|can|may|must|head| to/i, PRICE_NEED],
    requires: PRICED_PREREQUISITE,
  },
  {
    description: 'a token on its way to a price: "it\'s going to $1", "BONK heading to 0.001"',
    regex: re(`${NOT_ASKED}${SUBJECT}${IS} (?:going|headed|heading|on (?:its|the|our) way|off|back) (?:to|for) ${PRICE}${NOT_A_COUNT}`),
    gate: ` (?:going|headed|heading|on (?:its|the|our) way|off|back) (?:to|for) ${PRICE}`,
    need: [/ to | for /i, PRICE_NEED],
  },
  {
    description: 'a token, a price and a future time: "ETH 10k by spring", "SOL $500 EOY"',
    regex: re(
      `${PRICED} (?:(?:easily|definitely|def|surely|probably) )?(?:at |@ |hits |reaches |flips |tags |touches |breaks |retests |prints |sees |clears |crosses |hitting |reaching |over |above )?${PRICE}${NOT_A_COUNT},? ${FUTURE_TIME}`,
    ),
    gate: `${PRICE}${NOT_A_COUNT},? ${FUTURE_TIME}`,
    need: [PRICE_NEED, FUTURE_NEED],
    requires: PRICED_PREREQUISITE,
  },
  {
    description: 'a price and a token announced: "$1 DOGE soon", "1k SOL incoming"',
    regex: re(`${PRICE}${NOT_A_COUNT} ${TICKER} (?:${FUTURE_TIME}|incoming|is coming|coming|imminent|inevitable|guaranteed|confirmed|loading)${E}`),
    need: [
      PRICE_NEED,
      /by |before |until |til |till |in |around |eo[ymwq]|next |this |soon|shortly|tomorrow|tonight|incoming|coming|imminent|inevitable|guaranteed|confirmed|loading/i,
    ],
    requires: PRICED_PREREQUISITE,
  },
  {
    description: 'a called price: "calling $5 by Friday", "I see SOL at 1k"',
    regex: re(
      `${B}(?:calling|call|expect|expecting|predict|predicting|i see|seeing|eyeing|targeting|(?:will|'ll|gonna|going to) see)(?: ${PRICED} (?:at |to |hitting |reaching |above |over )?${PRICE}${NOT_A_COUNT}| (?:at |to )?${PRICE}${NOT_A_COUNT},? ${FUTURE_TIME})`,
    ),
    need: [/call|expect|predict|see|eyeing|targeting/i, PRICE_NEED],
  },
  {
    description: 'a trade verb on a cashtag: "grab $WIF", "short $BONK"',
    regex: re(
      `${B}${NOT_ADJECTIVE}(?:buy|grab|ape(?: into)?|accumulate|stack|scoop(?: up)?|snag|load up on|dump|short|long|bag|cop|fade|hodl|bid|get in (?:early )?on|(?:go )?all[- ]in on|(?:fill|load) (?:up )?(?:your|ur) bags? (?:with|on)) ${QUANTITY}${CASHTAG}`,
    ),
    need: [/\$/],
    requires: PRICED_PREREQUISITE,
  },
  {
    description: 'a trade verb on a token with urgency or a level: "dump your DOGE now", "short BONK here"',
    regex: re(`${B}${NOT_ADJECTIVE}${TRADE_VERB} ${QUANTITY}${TICKER}${TRIGGER}`),
    gate: `${TRADE_VERB} ${QUANTITY}${TICKER}${TRIGGER}`,
    need: [TRADE_VERB_NEED],
    requires: PRICED_PREREQUISITE,
  },
  {
    description: 'a trade verb on "it" or "this token" with urgency: "grab this token before it rips"',
    regex: re(
      `${B}${NOT_ADJECTIVE}(?:buy|sell|grab|scoop up|snag|ape(?: into)?|short|accumulate|stack|load up on|bag|cop|get in on) (?:it|this|that|this (?:token|coin|gem|one|memecoin|dip|play)|these|those|more)${TRIGGER}`,
    ),
    need: [/buy|sell|grab|scoop|snag|ape|short|accumulate|stack|load|bag|cop|get in/i],
  },
  {
    description: 'waiting for the move: "before it rips", "before SOL runs"',
    regex: re(
      String.raw`${B}before (?:(?:it|this|that|the price|price)${IS} (?:rips|moons|pumps|sends|skyrockets|goes parabolic|goes vertical|blasts off|rockets|breaks out|\d{1,5}xs?)|${PRICED} (?:rips|moons|pumps|sends|skyrockets|goes parabolic|goes vertical|blasts off|rockets|breaks out|explodes|runs|flies|goes up|takes off|lists|gets listed|\d{1,5}xs?))${E}`,
    ),
    need: [/before /i],
  },
  {
    description: 'get in while it is cheap',
    regex: re(
      `${B}(?:buy|get in|grab|load up|ape in|accumulate|stack|scoop|snag|get some|get more|get yours)${E}[^.!?]{0,30}? while (?:it'?s|its|it is|they'?re|prices? (?:is|are)|${PRICED} is) (?:still )?(?:cheap|low|early|under|sub|below|on sale|discounted)${E}`,
    ),
    need: [/ while /i],
  },
  {
    description: 'a trade plan with two levels: "entry 0.42, TP 0.6", "target 0.00001, stop 0.00003"',
    regex: re(`${LEVEL}[^!?]{0,60}?${LEVEL}`),
    need: [LEVEL_KEY_NEED, /\d/],
  },
  {
    description: 'a position on a token at a price: "long SOL @ 142", "short BONK from 0.00003"',
    regex: re(
      `${B}${NOT_ADJECTIVE}(?:long|short|longing|shorting|buy|sell|buying|selling|bid|entry|enter|entering)(?: on)? ${TICKER}(?: here| now)?,? (?:@|at|from|around|near|sub|under|below|above) ?${PRICE_OR_NUMBER}${NOT_A_COUNT}`,
    ),
    need: [/long|short|buy|sell|bid|entr|enter/i, /\d|dollar|buck|penny/i],
    requires: PRICED_PREREQUISITE,
  },
  {
    description: 'a token with a trading level: "$BONK entry 0.00002", "SOL TP 180"',
    regex: re(`${TICKER}:? (?:${LEVEL_KEY}|long|short|buy|sell)(?: ?[:=@]| at| around| near)? ?${LEVEL_NUMBER}${NOT_UNIT}`),
    gate: ` (?:${LEVEL_KEY}|long|short|buy|sell)(?: ?[:=@]| at| around| near)? ?${LEVEL_NUMBER}${NOT_UNIT}`,
    need: [/entr|buy|tp|take|sl|stop|target|tgt|invalidation|long|short|sell/i, /\d/],
    requires: PRICED_PREREQUISITE,
  },
  {
    description: 'an exit or entry at a price: "sell later at 10k", "take profit at $2"',
    regex: re(
      `${B}(?:buy|sell|exit|take profits?|cash out)(?: (?:it|them|all|everything|half|later|there))? (?:at|@|around|near|above|below|under) ${PRICE}${NOT_A_COUNT}`,
    ),
    need: [/buy|sell|exit|take profit|cash out/i, PRICE_NEED],
  },
  {
    description: 'a level set for a token: "target for $BONK is 0.0001"',
    regex: re(`${B}${LEVEL_KEY} (?:for|on) ${TICKER}(?: is|:| =| at)? ?${LEVEL_NUMBER}${NOT_UNIT}`),
    need: [LEVEL_KEY_NEED, /\d/],
    requires: PRICED_PREREQUISITE,
  },
  {
    description: 'going long or short on a token',
    regex: re(`${B}(?:going|go) (?:long|short)(?: on)? ${TICKER}`),
    need: [/going |go /i],
    requires: PRICED_PREREQUISITE,
  },
  {
    description: 'a multiple on a token: "easy 10x on BONK"',
    regex: re(`${B}${MULTIPLE} (?:on|with|from|in) ${TICKER}`),
    need: [/\dx/i],
    requires: PRICED_PREREQUISITE,
  },
  { description: 'a token with a rocket or a moon', regex: re(`${TICKER} ?(?:🚀|🌕|🌙)|${B}to (?:the )?(?:🌕|🌙)`), gate: '(?:🚀|🌕|🌙)', need: [/🚀|🌕|🌙/] },
];

export const TRADING_PATTERNS: PhrasePattern[] = TRADING.map((p) => lazyPhrase(p.description, p.regex, 'iu', p.gate, p.need, p.requires));
