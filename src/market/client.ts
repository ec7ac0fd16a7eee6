// Reads of the outside market: a DexScreener-compatible token endpoint for prices and volumes,
// and Solana JSON-RPC getTokenSupply for the burned amount. Whatever the outside answers (down,
// slow, HTML, malformed, numbers as strings, fields missing), no exception escapes: a failed read
// is a stale reading with every number null, and a missing field is null, never 0 — the board
// reports only measured numbers.
import type { Config } from '../config.ts';

export type FetchFn = (input: string, init?: RequestInit) => Promise<Response>;

export interface MarketNumbers {
  price_usd: number | null;
  market_cap_usd: number | null;
  price_change_1h_pct: number | null;
  price_change_6h_pct: number | null;
  price_change_24h_pct: number | null;
  volume_1h_usd: number | null;
  volume_6h_usd: number | null;
  volume_24h_usd: number | null;
  liquidity_usd: number | null;
  buys_1h: number | null;
  sells_1h: number | null;
}

interface MarketReading extends MarketNumbers {
  stale: boolean;
  pairs: number; // usable pairs the numbers come from (0 when stale)
  error: string | null; // why the reading is stale, for the snapshot summary; null when good
}

const NO_NUMBERS: MarketNumbers = Object.freeze({
  price_usd: null,
  market_cap_usd: null,
  price_change_1h_pct: null,
  price_change_6h_pct: null,
  price_change_24h_pct: null,
  volume_1h_usd: null,
  volume_6h_usd: null,
  volume_24h_usd: null,
  liquidity_usd: null,
  buys_1h: null,
  sells_1h: null,
});

const staleReading = (error: string): MarketReading => ({ ...NO_NUMBERS, stale: true, pairs: 0, error });

/** A finite number from a number or a numeric string; anything else (missing, "", NaN, objects) is null. */
function num(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value);
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

const field = (obj: unknown, key: string): unknown =>
  obj !== null && typeof obj === 'object' && !Array.isArray(obj) ? (obj as Record<string, unknown>)[key] : undefined;

const path = (obj: unknown, ...keys: string[]): number | null => num(keys.reduce(field, obj));

/** The sum over the pairs that report the number; null when none does (an absent figure is not 0). */
function sum(pairs: readonly unknown[], ...keys: string[]): number | null {
  let total: number | null = null;
  for (const p of pairs) {
    const n = path(p, ...keys);
    if (n !== null) total = (total ?? 0) + n;
  }
  return total;
}

const whole = (n: number | null): number | null => (n === null ? null : Math.round(n));

/**
 * The market numbers from a DexScreener `/latest/dex/tokens/{mint}` answer. Only pairs whose base
 * token is the mint count: in a pair where the mint is the quote token, priceUsd is the price of
 * the other token and its buys are our sells. Price, market cap and changes come from the most
 * liquid pair (highest liquidity.usd; a pair without it ranks last; ties keep the answer's order);
 * volumes, liquidity, buys and sells are summed over all of them.
 */
function parseDexAnswer(answer: unknown, mint: string): MarketReading {
  const pairs = field(answer, 'pairs');
  if (!Array.isArray(pairs)) return staleReading('no pairs');
  const usable = pairs.filter((p) => field(field(p, 'baseToken'), 'address') === mint);
  if (usable.length === 0) return staleReading('no pairs');
  let top = usable[0];
  let topLiquidity = path(top, 'liquidity', 'usd') ?? Number.NEGATIVE_INFINITY;
  for (const p of usable.slice(1)) {
    const l = path(p, 'liquidity', 'usd') ?? Number.NEGATIVE_INFINITY;
    if (l > topLiquidity) [top, topLiquidity] = [p, l];
  }
  return {
    price_usd: path(top, 'priceUsd'),
    market_cap_usd: path(top, 'marketCap'),
    price_change_1h_pct: path(top, 'priceChange', 'h1'),
    price_change_6h_pct: path(top, 'priceChange', 'h6'),
    price_change_24h_pct: path(top, 'priceChange', 'h24'),
    volume_1h_usd: sum(usable, 'volume', 'h1'),
    volume_6h_usd: sum(usable, 'volume', 'h6'),
    volume_24h_usd: sum(usable, 'volume', 'h24'),
    liquidity_usd: sum(usable, 'liquidity', 'usd'),
    buys_1h: whole(sum(usable, 'txns', 'h1', 'buys')),
    sells_1h: whole(sum(usable, 'txns', 'h1', 'sells')),
    stale: false,
    pairs: usable.length,
    error: null,
  };
}

/**
 * One JSON answer, with a time budget per attempt and one retry. Any failure of an attempt —
 * network error, timeout, non-2xx status, a body that is not JSON — is retried once; the second
 * failure is returned as an error string, never thrown.
 */
async function fetchJson(
  fetchFn: FetchFn,
  url: string,
  init: RequestInit,
  timeoutMs: number,
): Promise<{ ok: true; json: unknown } | { ok: false; error: string }> {
  let error = 'unknown';
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const res = await fetchFn(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
      if (!res.ok) {
        error = `status ${res.status}`;
        await res.body?.cancel().catch(() => {});
        continue;
      }
      const text = await res.text();
      try {
        return { ok: true, json: JSON.parse(text) };
      } catch {
        error = 'not json';
      }
    } catch (e) {
      const name = (e as Error)?.name;
      error = name === 'TimeoutError' || name === 'AbortError' ? 'timeout' : 'unreachable';
    }
  }
  return { ok: false, error };
}

/** The market numbers of the configured mint; without SVC_MARKET_URL or SVC_MINT, a stale reading. */
export async function readMarket(config: Config, fetchFn: FetchFn = fetch): Promise<MarketReading> {
  try {
    if (!config.marketUrl || !config.mint) return staleReading('not configured');
    const url = `${config.marketUrl}/latest/dex/tokens/${encodeURIComponent(config.mint)}`;
    const got = await fetchJson(fetchFn, url, { headers: { accept: 'application/json' } }, config.marketTimeoutMs);
    return got.ok ? parseDexAnswer(got.json, config.mint) : staleReading(got.error);
  } catch (e) {
    // Nothing above should throw; this keeps the promise of the module if something does.
    return staleReading(`failed: ${String((e as Error)?.message ?? e)}`);
  }
}

/**
 * The current supply in tokens from a getTokenSupply result: uiAmountString, else amount scaled
 * by decimals. Null when neither is usable.
 */
function parseSupply(answer: unknown): { supply: number; decimals: number | null } | null {
  const value = field(field(answer, 'result'), 'value');
  const decimals = num(field(value, 'decimals'));
  const ui = num(field(value, 'uiAmountString'));
  if (ui !== null) return { supply: ui, decimals };
  const amount = num(field(value, 'amount'));
  if (amount !== null && decimals !== null && decimals >= 0) return { supply: amount / 10 ** decimals, decimals };
  return null;
}

/**
 * Tokens burned since launch: the configured initial supply minus the current supply. Null when
 * SVC_SOLANA_RPC_URL, SVC_INITIAL_SUPPLY or SVC_MINT is unset, when the read fails, or when the
 * supply grew past the initial one (that is no burn, and the board invents no number).
 */
export async function readBurned(config: Config, fetchFn: FetchFn = fetch): Promise<number | null> {
  try {
    if (!config.solanaRpcUrl || config.initialSupply === null || !config.mint) return null;
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getTokenSupply', params: [config.mint] });
    const init = { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body };
    const got = await fetchJson(fetchFn, config.solanaRpcUrl, init, config.marketTimeoutMs);
    const parsed = got.ok ? parseSupply(got.json) : null;
    if (!parsed) return null;
    const burned = config.initialSupply - parsed.supply;
    if (burned < 0) return null;
    // Rounded to the token's decimals: float subtraction must not show 0.30000000000000004 tokens.
    const scale = 10 ** Math.min(parsed.decimals ?? 9, 12);
    return Math.round(burned * scale) / scale;
  } catch {
    return null;
  }
}
