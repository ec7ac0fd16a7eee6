// The vocabulary the PRICE_TALK rules are written in: what counts as a token, a price, a future
// time, and the leetspeak reading. Every piece is a regex source for patterns compiled with the
// "iu" flags; ticker shapes switch case sensitivity back on with (?-i:…), because "SOL" is a
// ticker where "sol" is a word.
//
import type { Prerequisite } from './phrases.ts';

// None of these contains a quantifier over free text: gaps are bounded ({0,60}) and so are digit
// runs, so each pattern does a bounded amount of work per position and a 64 KB input stays linear
// (test/content/performance.test.ts feeds 64 KB of each pattern's opening to the scan).

// All-caps words that are not tickers: tech acronyms, units, metrics, currencies and the English
// words a shouted sentence is made of. A caps word outside this list is read as a ticker only
// where a price, a trade verb or a trading level stands next to it.
const NOT_TICKERS = [
  'API|APIS|CPU|CPUS|GPU|GPUS|TPU|RAM|SSD|HDD|HTTP|HTTPS|JSON|YAML|TOML|XML|HTML|CSS|SQL|URL|URLS|URI|UTC|GMT|CET|PST|EST|ETA|TTL',
  'CI|CD|PR|PRS|QA|UI|UX|OS|IO|DB|VM|VMS|SDK|CLI|DNS|TCP|UDP|IP|TLS|SSL|SSH|CDN|AWS|GCP|LLM|LLMS|AI|ML|RPC|REST|CRUD|JWT|PDF|CSV',
  'PNG|SVG|GIF|RSS|SLA|SLO|SLI|KPI|OKR|ROI|DAU|MAU|WAU|ARR|MRR|MTTR|RPS|QPS|TPS|FPS|NPS|CAC|LTV|CTR|SEO|FAQ|TODO|FIXME|NOTE',
  'README|FYI|TLDR|ASAP|OK|EOD|EOW|EOY|EOM|USD|EUR|GBP|JPY|CHF|MB|GB|KB|TB|MS|GIT|NPM|VS|ID|IDS|UUID|MD|TXT|LOG|LOGS|ERROR|WARN',
  'INFO|DEBUG|TRUE|FALSE|NULL|NAN|MAX|MIN|AVG|SUM|P2P|PM|AM|US|UK|EU|THE|TO|IT|IS|ARE|AND|OR|NOT|NO|YES|NOW|BUY|SELL|WILL|UP',
  'DOWN|GO|NEW|ALL|IN|ON|AT|BY|OF|FOR|HERE|THIS|THAT|WE|YOU|MY|OUR|YOUR|IF|SO|DO|BE|AN|AS|BUT|HOW|WHAT|WHY|WHEN|GET|SET|PUT',
  'POST|PATCH|DELETE|HEAD|END|STOP|START|TP|SL|PT|ATH|ATL|FOMO|FUD|DYOR|NFA|LFG|GM|GN|IMO|IMHO|TBH|LOL|RIP|WIP|PS|QED|RFC',
].join('|');

/** A cashtag: "$WIF", "$bonk". */
export const CASHTAG = String.raw`(?<![\p{L}\p{N}_$])\$[a-z][a-z0-9]{1,9}(?![\p{L}\p{N}_])`;
/** An all-caps word of 2–10 letters that is not a known acronym or a shouted English word. */
export const CAPS_TICKER = String.raw`(?<![\p{L}\p{N}_$@#/.\-])(?-i:(?!(?:${NOT_TICKERS})(?![A-Z]))[A-Z]{2,10})(?![\p{L}\p{N}_\-]|\.[\p{L}\p{N}])`;
// Coin names read in any case ("sol", "Bitcoin"). Names that are also everyday words (link,
// ton, dot, ada, jupiter) only count written as a ticker.
const COIN = String.raw`(?<![\p{L}\p{N}_])(?:bitcoin|btc|ethereum|eth|solana|sol|dogecoin|doge|shiba(?: inu)?|shib|pepe|bonk|xrp|cardano|litecoin|ltc|avax|bnb|dogwifhat|monero|polkadot|chainlink|toncoin)(?![\p{L}\p{N}_\-])`;
/** Coin names that are not also words of another language ("sol" is the sun in Spanish). */
export const COIN_STRICT = String.raw`(?<![\p{L}\p{N}_])(?:bitcoin|ethereum|solana|dogecoin|cardano|litecoin)(?![\p{L}\p{N}_])`;
export const TICKER = `(?:${CASHTAG}|${COIN}|${CAPS_TICKER})`;
// What a price target is set on: a token ("SOL", "TRUMP coin", "this token"), or the price
// itself; "price" on its own counts only where nothing narrows it ("the hosting price" does not).
export const PRICED = String.raw`(?:${TICKER}(?: (?:coin|token))?(?:'s)?(?: price)?|(?<=^|[.!?,;:\-–(] ?|\n)(?:the |its |token |coin |)(?:price|market ?cap|mcap|fdv|floor price)(?![\p{L}])|(?<![\p{L}])(?:(?:this|that|the|our|my) (?:token|coin|gem|memecoin)|(?:my|our) bags?)(?![\p{L}]))`;
let pricedRegex: RegExp | undefined;
/**
 * PRICED as a prerequisite (phrases.ts): the patterns that hold a PRICED, a TICKER or a CASHTAG
 * (each matches only where PRICED does) are skipped on a text where PRICED matches nowhere. The
 * need is read off PRICED's alternatives: a "$", two capitals starting a word, a coin's name, or
 * price / market cap / token / coin / gem / bag as a word.
 */
export const PRICED_PREREQUISITE: Prerequisite = {
  need: /\$|\b[A-Z]{2}|\b(?i:btc|eth|sol|doge|shib|pepe|bonk|xrp|cardano|litecoin|ltc|avax|bnb|dogwifhat|monero|polkadot|chainlink|toncoin|bitcoin|price|market ?cap|mcap|fdv|token|coin|memecoin|gem|bags?)/,
  get regex() {
    pricedRegex ??= new RegExp(PRICED, 'iu');
    return pricedRegex;
  },
};

/**
 * Not the subject of a question asked with the verb first ("Is ETH going to zero?", "Is the token
 * heading for 1k?"): a question predicts nothing. "ETH to 10k?" has no such verb and stays a call.
 */
export const NOT_ASKED = `(?<!(?:^|[.!?] ?)(?:is|are|was|were|will|would|does|do|did|can|could|should|shall|might|may|has|have) )`;

/** A subject a slang prediction can be about without naming the token ("it's about to moon"). */
export const IT = String.raw`(?:(?<![\p{L}])(?:it|this|that|this one)(?![\p{L}]))`;

// Bounded digit runs: a lookahead that rejects a number must not make the engine retry every
// shorter prefix of a 64 KB run of digits and commas.
export const NUM = String.raw`\d{1,15}(?:,\d{3}){0,5}(?:\.\d{1,12})?`;
const MAGNITUDE = String.raw`(?: ?(?:k|m|b|bn|mil|million|billion|thousand)(?![\p{L}]))`;
const CURRENCY = String.raw`(?: ?(?:usd[ct]?|dollars?|bucks|cents?|sats?|eur|euros?|€|\$)(?![\p{L}]))`;
// Words that may follow a multiple in a pitch ("10x from here", "100x easy"). Any other word
// makes it a comparison ("10x faster", "10x our throughput").
const AFTER_MULTIPLE =
  'from|by|before|in|this|next|soon|easy|easily|minimum|min|at|or|and|guaranteed|potential|gem|gems|incoming|play|coin|token|here|today|tomorrow|eoy|lfg|ngl|imo|fr|trust|then|again|least|sure|on|for|is|bro|frens|ser|minimum|at least|no|confirmed|loading|inbound|coming';
/** A multiple as a price move: "10x", "100x from here"; not "10x faster". */
export const MULTIPLE = String.raw`\d{1,5}x(?![\p{L}\p{N}])(?! (?!(?:${AFTER_MULTIPLE})(?![\p{L}]))\p{L})`;

/**
 * A number that reads as a price: "$5", "$0.5", "10k", "1.2m", "5 dollars", "5$", a sub-cent
 * price ("0.00001") or a multiple ("10x"). A bare "5" or "0.9" is not one.
 */
export const PRICE = String.raw`(?:(?:a|one) (?:dollar|buck|penny)(?![\p{L}])|\$ ?${NUM}${MAGNITUDE}?|${NUM}${MAGNITUDE}${CURRENCY}?|${NUM}${CURRENCY}|0[.,]0{2,12}\d{1,12}|${MULTIPLE})`;
/** A price or any bare number; used only where a token is named right next to it. */
export const PRICE_OR_NUMBER = String.raw`(?:${PRICE}|${NUM}(?![\p{L}]))`;

// Words after a number that make it a count or a measurement, not a price ("10k users", "2 minutes").
const UNIT_WORDS =
  'spend|cost|costs|fees?|revenue|budget|bills?|credits?|salary|salaries|invoices?|refunds?|grants?|bounty|prizes?|payouts?|percent|users?|wallets?|holders?|addresses|accounts?|members?|followers?|subs|subscribers?|people|txs?|transactions?|trades|swaps|rows|requests?|calls|records|items|nodes|blocks|slots|ms|seconds?|secs?|minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?|lines|files|bytes|kb|mb|gb|tb|rps|qps|tps|runs|tests|times|tokens|coins|units|orders|votes|views|visits|downloads|stars|signups|messages|posts|replies|events|samples|points|pts|steps|retries|workers|threads|cores|agents|bots|pages|words|characters|chars|commits|issues|tickets|employees|devs|customers|clients|sessions|installs|miles|km|meters';
// Years the board treats as history ("ETH went to 4k in 2021"); a later year is a target date.
// Static on purpose: a rule whose verdict changes with the wall clock could not be tested.
const PAST_YEAR = String.raw`1\d\d\d|20[01]\d|202[0-5]`;
/** A price must not run on into a unit ("10k users"), a cost ("$5/month", "$5k in fees") or a past year ("4k in 2021"). */
export const NOT_A_COUNT = String.raw`(?![\p{N}]|[.,]\d| ?%| ?(?:${UNIT_WORDS})(?![\p{L}])| (?:in|during|back in|around|since|of) (?:${PAST_YEAR})| (?:of|in|on|for) (?:the |our |your )?(?:[a-z]+ )?(?:spend|costs?|fees|revenue|budget|bills?|credits|salary|salaries)| ?\/ ?\p{L}| per | an? (?:month|year|day|week|seat|user|head))`;

// Verbs that move, convert or configure an amount: "send 2 SOL to 1k wallets", "set the price to $5".
export const NOT_AFTER = String.raw`(?<!(?<![\p{L}])(?:send|sent|sending|move|moved|moving|transfer|transferred|bridge|bridged|airdrop|airdropped|distribute|distributed|pay|paid|give|gave|allocate|allocated|convert|converted|swap|swapped|set|sets|setting|bump|bumped|raise|raised|lower|lowered|increase|increased|decrease|decreased|limit|limited|cap|capped|scale|scaled|resize|resized|change|changed|update|updated|reduce|reduced|grow|grew|cut) (?:the |its |our |a |an )?(?:[\p{N}.,]+ ?[kmb]? )?)(?<![\p{N}] ?)`;

/** A future time a target is set for: "by spring", "EOY", "next week", "in 3 months". */
export const FUTURE_TIME = String.raw`(?:(?:by|before|until|til|till|in|around) (?:the )?(?:spring|summer|fall|autumn|winter|christmas|xmas|eoy|eom|eow|eoq|end of (?:the )?(?:year|month|week|quarter|cycle)|(?:next|this) (?:week|month|year|quarter|cycle|summer|spring|winter|fall|run)|monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|tonight|q[1-4]|202[6-9]|20[3-9]\d|jan(?:uary)?|feb(?:ruary)?|march|april|may|june|july|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|halving|listing|unlock|etf|a (?:few|couple of) (?:days|weeks|months)|\d{1,2} (?:days|weeks|months))|eoy|eom|eow|eoq|(?:next|this) (?:week|month|year|cycle|run)|(?:very |real |pretty )?soon|shortly|tomorrow|tonight|this (?:summer|spring|winter|fall))(?![\p{L}])`;

// ---- leetspeak ---------------------------------------------------------------------------

const LEET: Record<string, string> = { '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '8': 'b', '9': 'g' };
// A token that is a number with a unit suffix ("10k", "2x", "5min", "3rd") keeps its digits.
const NUMBER_TOKEN = /^\d+(?:k|m|b|bn|x|s|ms|h|hr|hrs|d|w|y|th|st|nd|rd|gb|mb|kb|tb|px|am|pm|min|mins)?$/i;

/**
 * The text read once as leetspeak: in every word that mixes letters and digits (and is not a
 * number with a unit), each digit becomes the letter it stands for, upper case when the word's
 * letters are ("S0L" → "SOL", "t0" → "to", "m00n" → "moon"). One character becomes one, so an
 * index in the copy is the same index in the text.
 */
// Only a token holding a digit can change: the replace visits those alone (from a token's start,
// so a match is always a whole token), not every word of the text.
const DIGIT_TOKEN = /(?<![A-Za-z0-9])[A-Za-z]*[0-9][A-Za-z0-9]*/g;

export function leetCopy(text: string): string {
  return text.replace(DIGIT_TOKEN, (token) => {
    if (!/[A-Za-z]/.test(token) || NUMBER_TOKEN.test(token)) return token;
    const letters = token.replace(/[0-9]/g, '');
    const upper = letters === letters.toUpperCase();
    return token.replace(/[0-9]/g, (d) => {
      const l = LEET[d] ?? d;
      return upper ? l.toUpperCase() : l;
    });
  });
}
