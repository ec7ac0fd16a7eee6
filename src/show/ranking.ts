// SHOW_TOKEN_RANKING: a post that ranks or compares tradeable tokens ("SOL beats ETH this week",
// "top 5 coins"). Token names come from the lists data file. Short tickers that are also English
// words (link, near, dot, op) count only as a ticker: written $sol or in capitals (SOL); names of
// five letters or more (solana, bitcoin) count in any case.

const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const ci = (s: string) => [...s].map((c) => (/[a-z]/i.test(c) ? `[${c.toLowerCase()}${c.toUpperCase()}]` : esc(c))).join('');

const COMPARE = [
  'beats?',
  'beaten by',
  'outperform(?:s|ed|ing)?',
  'outpac(?:es|ed|ing)',
  'outran',
  'outruns?',
  'crush(?:es|ed)?',
  'flip(?:s|ped)?',
  'vs\\.?',
  'versus',
  'over',
  'under',
  '(?:is |are |was )?(?:better|worse|stronger|weaker|faster|slower|bigger|smaller) than',
  '(?:is |are |was )?ahead of',
  '(?:is |are |was )?behind',
  'ranks? (?:above|below|over|under)',
  '>',
  '<',
];
const RANKING = [
  '\\b(?:top|best|worst|bottom)\\s+(?:(?:\\d+|three|five|ten|twenty|hundred)\\s+)?(?:tokens?|coins?|memecoins?|meme coins?|altcoins?|alts|cryptos?|cryptocurrenc(?:y|ies))\\b',
  '\\b(?:tokens?|coins?|memecoins?|altcoins?|cryptos?)\\s+(?:ranking|leaderboard|tier list)s?\\b',
  '\\brank(?:ing|ed|s)?\\s+(?:of\\s+)?(?:the\\s+)?(?:tokens?|coins?|memecoins?|altcoins?|cryptos?)\\b',
];

const RANKING_RE = new RegExp(RANKING.join('|'), 'iu');
const cache = new WeakMap<readonly string[], RegExp>();

/** Token against token; case is spelled out per form, so the flags stay without `i`. */
function comparison(tokens: readonly string[]): RegExp {
  const hit = cache.get(tokens);
  if (hit) return hit;
  const forms = tokens.flatMap((t) => [`\\$${ci(t)}`, esc(t.toUpperCase()), ...(t.length >= 5 ? [ci(t)] : [])]);
  const token = `(?<![\\p{L}\\p{N}$])(?:${forms.join('|')})(?![\\p{L}\\p{N}])`;
  const compare = `${token}\\s+(?:${COMPARE.map((c) => c.replace(/ /g, '\\s+')).join('|')})\\s+${token}`;
  const re = new RegExp(compare, 'u');
  cache.set(tokens, re);
  return re;
}

/** The phrase that ranks or compares tokens, or null. */
export function tokenRanking(text: string, tokens: readonly string[]): string | null {
  return comparison(tokens).exec(text)?.[0] ?? RANKING_RE.exec(text)?.[0] ?? null;
}
