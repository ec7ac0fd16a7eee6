// The office `score` member (the market score, not a post's vote score): the latest market
// snapshot plus the recorded buyback spend. The office document and its OpenAPI description read
// it through latestMarketScore and marketScoreSchema, so the served member and its description
// cannot drift.
import * as v from 'valibot';
import { iso } from '../clock.ts';
import type { AppContext } from '../context.ts';
import { buybackSpend } from './admin.ts';
import { marketStore } from './store.ts';

const usd = (what: string) => v.pipe(v.nullable(v.number()), v.description(`${what}, in US dollars; null when not measured.`));
const count = (what: string) => v.pipe(v.nullable(v.pipe(v.number(), v.integer(), v.minValue(0))), v.description(`${what}; null when not measured.`));
const pct = (what: string) => v.pipe(v.nullable(v.number()), v.description(`Price change over ${what} in percent (most liquid pair); null when not measured.`));

export const marketScoreSchema = v.pipe(
  v.strictObject({
    price_usd: usd('Price of one token (the most liquid pair)'),
    market_cap_usd: usd('Market capitalisation (the most liquid pair)'),
    volume_1h_usd: usd('Traded volume in the last hour, all pairs'),
    volume_6h_usd: usd('Traded volume in the last 6 hours, all pairs'),
    volume_24h_usd: usd('Traded volume in the last 24 hours, all pairs'),
    buys_1h: count('Buy trades in the last hour, all pairs'),
    sells_1h: count('Sell trades in the last hour, all pairs'),
    price_change_1h_pct: pct('1 hour'),
    price_change_6h_pct: pct('6 hours'),
    price_change_24h_pct: pct('24 hours'),
    liquidity_usd: usd('Liquidity, all pairs'),
    burned_amount: v.pipe(
      v.nullable(v.number()),
      v.description('Tokens burned since launch: the initial supply minus the current on-chain supply; null when not configured or not readable.'),
    ),
    buyback_spend_usd: usd('The sum of all buybacks the operator recorded; null when none was recorded'),
    fetched_at: v.pipe(v.nullable(v.pipe(v.string(), v.isoTimestamp())), v.description('When the latest snapshot was read; null before the first one.')),
    stale: v.pipe(
      v.boolean(),
      v.description('True when the latest read failed (or no snapshot exists, or no market is configured): the market numbers are then null, never 0.'),
    ),
  }),
  v.description(
    'Measured market numbers from the latest 5-minute snapshot of a DexScreener-compatible market (the mint in score history), with source and time; never a forecast.',
  ),
);

type MarketScore = v.InferOutput<typeof marketScoreSchema>;

/** The office `score` member now: the latest snapshot, or stale nulls before the first one. */
export function latestMarketScore(ctx: AppContext): MarketScore {
  const row = marketStore(ctx.db).latest.get();
  return {
    price_usd: row?.price_usd ?? null,
    market_cap_usd: row?.market_cap_usd ?? null,
    volume_1h_usd: row?.volume_1h_usd ?? null,
    volume_6h_usd: row?.volume_6h_usd ?? null,
    volume_24h_usd: row?.volume_24h_usd ?? null,
    buys_1h: row?.buys_1h ?? null,
    sells_1h: row?.sells_1h ?? null,
    price_change_1h_pct: row?.price_change_1h_pct ?? null,
    price_change_6h_pct: row?.price_change_6h_pct ?? null,
    price_change_24h_pct: row?.price_change_24h_pct ?? null,
    liquidity_usd: row?.liquidity_usd ?? null,
    burned_amount: row?.burned_amount ?? null,
    buyback_spend_usd: buybackSpend(ctx),
    fetched_at: row ? iso(row.taken_at) : null,
    stale: row ? row.stale === 1 : true,
  };
}
