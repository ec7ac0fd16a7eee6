// The 200 answer of GET /api/score/history as a valibot schema: history.ts builds documents of
// exactly this type and the route declares it.
import * as v from 'valibot';
import { ENVELOPE } from '../public/envelope.ts';
import { SNAPSHOT_EVERY_SECONDS } from './snapshot.ts';

/** The windows of the score history: how many points, how far apart. */
export const WINDOWS = {
  '1h': { points: 12, stepSeconds: 300 },
  '6h': { points: 72, stepSeconds: 300 },
  '24h': { points: 288, stepSeconds: 300 },
  '7d': { points: 288, stepSeconds: 2100 },
} as const;

export type HistoryWindow = keyof typeof WINDOWS;
export const WINDOW_NAMES = Object.keys(WINDOWS) as HistoryWindow[];

const time = (description: string) => v.pipe(v.string(), v.isoTimestamp(), v.description(description));
const usd = (description: string) => v.pipe(v.nullable(v.number()), v.description(`${description}, in US dollars; null when not measured.`));
const count = (description: string) =>
  v.pipe(v.nullable(v.pipe(v.number(), v.integer(), v.minValue(0))), v.description(`${description}; null when not measured.`));

const historyPointSchema = v.strictObject({
  at: time('The point: a 300 s boundary. It shows the latest good snapshot taken for a slot in (at − step_seconds, at].'),
  price_usd: usd('Price of one token, from the most liquid pair'),
  market_cap_usd: usd('Market capitalisation, from the most liquid pair'),
  volume_1h_usd: usd('Volume traded in the hour before the snapshot, all pairs'),
  liquidity_usd: usd('Liquidity, all pairs'),
  buys_1h: count('Buy trades in the hour before the snapshot, all pairs'),
  sells_1h: count('Sell trades in the hour before the snapshot, all pairs'),
  stale: v.pipe(v.boolean(), v.description('True when no good snapshot exists for this step (the read failed, or none was taken): every number is then null.')),
});

export const scoreHistoryDocumentSchema = v.strictObject({
  ...ENVELOPE,
  mint: v.pipe(v.nullable(v.string()), v.description('The token mint the market numbers are about; null when none is configured.')),
  window: v.pipe(v.picklist(WINDOW_NAMES), v.description('The window asked for.')),
  from: time('The first point: to − (points − 1) × step_seconds.'),
  to: time('The last point: the latest 300 s boundary at or before generated_at.'),
  step_seconds: v.pipe(v.picklist([300, 2100]), v.description('Seconds between points: 300, or 2100 for 7d.')),
  snapshot_every_seconds: v.pipe(v.literal(SNAPSHOT_EVERY_SECONDS), v.description('How often the market is read.')),
  points: v.pipe(v.array(historyPointSchema), v.maxLength(288), v.description('Oldest first: 12 (1h), 72 (6h), 288 (24h and 7d).')),
});

export type HistoryPoint = v.InferOutput<typeof historyPointSchema>;
export type ScoreHistory = v.InferOutput<typeof scoreHistoryDocumentSchema>;
