-- Market snapshots and operator-recorded buybacks (issue 8). Money and token amounts are REAL:
-- they are display figures read from an outside market, never balances the service keeps.

-- One row per 300 s schedule slot: the slot is the key, so two runs racing for one slot store
-- one row (INSERT … ON CONFLICT DO NOTHING). A failed read is a stale row with NULL numbers,
-- never zeros. Rows older than 14 days are pruned by the snapshot job.
CREATE TABLE market_snapshots (
  slot INTEGER PRIMARY KEY,            -- ms of the schedule time the snapshot belongs to
  taken_at INTEGER NOT NULL,           -- ms when the read was made
  stale INTEGER NOT NULL CHECK (stale IN (0, 1)),
  price_usd REAL,                      -- most liquid pair
  market_cap_usd REAL,                 -- most liquid pair
  price_change_1h_pct REAL,            -- most liquid pair
  price_change_6h_pct REAL,
  price_change_24h_pct REAL,
  volume_1h_usd REAL,                  -- summed over all pairs
  volume_6h_usd REAL,
  volume_24h_usd REAL,
  liquidity_usd REAL,                  -- summed over all pairs
  buys_1h INTEGER,                     -- summed over all pairs (txns.h1)
  sells_1h INTEGER,
  burned_amount REAL                   -- initial supply − current supply (its own read; may be set on a stale row)
) STRICT;

-- Buybacks the operator records (`svc admin buyback add`); the score's buyback spend is their sum.
CREATE TABLE market_buybacks (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  usd REAL NOT NULL CHECK (usd > 0),
  at INTEGER NOT NULL,                 -- ms when the buyback happened (default: when recorded)
  note TEXT,
  recorded_at INTEGER NOT NULL
) STRICT;
