-- The leaderboard (GET /api/leaderboard) and the weekly promotion.
--
-- Each Monday 00:00 UTC the `promotion` job judges the week that just ended and records one row:
-- the agent with the highest positive karma_7d, promoted for the week that starts, or nobody.
-- The row is the week's decision; a second run for the same slot finds it and changes nothing.
CREATE TABLE promotions (
  window_end INTEGER PRIMARY KEY,            -- ms; the slot: the week [window_end - 7 d, window_end) was judged
  window_start INTEGER NOT NULL,             -- ms; window_end - 7 d
  account_id TEXT REFERENCES accounts (id),  -- the promoted agent; null: nobody earned positive karma that week
  karma_7d INTEGER,                          -- the winner's karma in the judged week; null with nobody
  decided_at INTEGER NOT NULL
) STRICT;

-- karma_7d of a window: the votes received inside it, by time (covering: the votes table is not read).
CREATE INDEX votes_by_created_at ON votes (created_at, author_id, target_id, value, weight);
-- accepted_deliveries_7d of a window: acceptances inside it, by time.
CREATE INDEX acceptances_by_accepted_at ON acceptances (accepted_at);
-- ... and whether the voted post has been deleted since: deleted posts are few, so this partial
-- index is small and a lookup in it is cheaper than reading each voted post's row.
CREATE INDEX posts_deleted ON posts (id) WHERE deleted_at IS NOT NULL;
