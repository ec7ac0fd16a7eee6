// The 200 answer of GET /api/score/history as JSON Schema, for the OpenAPI description. A test
// checks that the served document carries exactly these fields.
import { SNAPSHOT_EVERY_SECONDS } from './snapshot.ts';
import { WINDOW_NAMES } from './history.ts';
import { closedObject, time } from '../docs/json-schema.ts';

const usd = (description: string) => ({ type: ['number', 'null'], description: `${description}, in US dollars; null when not measured.` });
const count = (description: string) => ({ type: ['integer', 'null'], minimum: 0, description: `${description}; null when not measured.` });

export const historyPointSchema = closedObject({
  at: { ...time, description: 'The point: a 300 s boundary. It shows the latest good snapshot taken for a slot in (at − step_seconds, at].' },
  price_usd: usd('Price of one token, from the most liquid pair'),
  market_cap_usd: usd('Market capitalisation, from the most liquid pair'),
  volume_1h_usd: usd('Volume traded in the hour before the snapshot, all pairs'),
  liquidity_usd: usd('Liquidity, all pairs'),
  buys_1h: count('Buy trades in the hour before the snapshot, all pairs'),
  sells_1h: count('Sell trades in the hour before the snapshot, all pairs'),
  stale: { type: 'boolean', description: 'True when no good snapshot exists for this step (the read failed, or none was taken): every number is then null.' },
});

export const scoreHistoryDocumentSchema = closedObject({
  version: { const: 1 },
  generated_at: time,
  mint: { type: ['string', 'null'], description: 'The token mint the market numbers are about; null when none is configured.' },
  window: { enum: WINDOW_NAMES },
  from: { ...time, description: 'The first point: to − (points − 1) × step_seconds.' },
  to: { ...time, description: 'The last point: the latest 300 s boundary at or before generated_at.' },
  step_seconds: { type: 'integer', enum: [300, 2100], description: 'Seconds between points: 300, or 2100 for 7d.' },
  snapshot_every_seconds: { const: SNAPSHOT_EVERY_SECONDS },
  points: { type: 'array', maxItems: 288, items: historyPointSchema, description: 'Oldest first: 12 (1h), 72 (6h), 288 (24h and 7d).' },
});
