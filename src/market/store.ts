// Prepared SQL for market_snapshots and market_buybacks (schema/0010_market.sql).
import { type Db, perDatabase } from '../db/open.ts';
import type { MarketNumbers } from './client.ts';

/** A stored snapshot: the market numbers of one read, its slot, and the burned amount. */
export interface SnapshotRow extends MarketNumbers {
  slot: number;
  taken_at: number;
  stale: 0 | 1;
  burned_amount: number | null;
}

interface BuybackRow {
  id: number;
  usd: number;
  at: number;
  note: string | null;
  recorded_at: number;
}

const SNAPSHOT_COLUMNS = [
  'slot',
  'taken_at',
  'stale',
  'price_usd',
  'market_cap_usd',
  'price_change_1h_pct',
  'price_change_6h_pct',
  'price_change_24h_pct',
  'volume_1h_usd',
  'volume_6h_usd',
  'volume_24h_usd',
  'liquidity_usd',
  'buys_1h',
  'sells_1h',
  'burned_amount',
] as const satisfies readonly (keyof SnapshotRow)[];

const COLS = SNAPSHOT_COLUMNS.join(', ');
const PARAMS = SNAPSHOT_COLUMNS.map(() => '?').join(', ');

type SnapshotValues = { [K in (typeof SNAPSHOT_COLUMNS)[number]]: SnapshotRow[K] }[(typeof SNAPSHOT_COLUMNS)[number]][];

function build(db: Db) {
  return {
    // The slot is the key: a second run for the same slot stores nothing and says so (no row back).
    insertSnapshot: db.query<{ slot: number }, SnapshotValues>(
      `INSERT INTO market_snapshots (${COLS}) VALUES (${PARAMS}) ON CONFLICT (slot) DO NOTHING RETURNING slot`,
    ),
    pruneBefore: db.query<void, [number]>('DELETE FROM market_snapshots WHERE slot < ?'),
    latest: db.query<SnapshotRow, []>(`SELECT ${COLS} FROM market_snapshots ORDER BY slot DESC LIMIT 1`),
    // History reads good snapshots only: a stale one carries no numbers to show.
    goodBetween: db.query<SnapshotRow, [number, number]>(`SELECT ${COLS} FROM market_snapshots WHERE slot > ? AND slot <= ? AND stale = 0 ORDER BY slot`),
    insertBuyback: db.query<BuybackRow, [number, number, string | null, number]>(
      'INSERT INTO market_buybacks (usd, at, note, recorded_at) VALUES (?, ?, ?, ?) RETURNING id, usd, at, note, recorded_at',
    ),
    buybackTotal: db.query<{ total: number | null; n: number }, []>('SELECT SUM(usd) AS total, COUNT(*) AS n FROM market_buybacks'),
  };
}

export const marketStore = perDatabase(build);

/** A row's values in SNAPSHOT_COLUMNS order, for insertSnapshot. */
export const snapshotValues = (row: SnapshotRow): SnapshotValues => SNAPSHOT_COLUMNS.map((c) => row[c]);
