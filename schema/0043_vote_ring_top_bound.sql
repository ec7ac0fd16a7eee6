-- 0043_vote_ring_top_bound.sql: the vote-ring window keeps a bound on its top author's count
-- instead of an index by count (src/votes/ring.ts).
--
-- vote_ring_top (voter_id, n) answered "the top author's count" in one step, but every vote moved
-- an entry of it (each count up, and each count down as a vote ages out, deletes and inserts one):
-- at 1M posts, 0.5 of the 10.1 pages a vote's commit wrote (bench/vote-visits.ts). The window row
-- now keeps top_bound, never below the largest count in the window: a count up raises it to that
-- count, a count down leaves it. While top_bound is under the share the pattern needs, so is the
-- top count and nothing more is read; otherwise the voter's counts are read (one row per author
-- it voted for in the window) and top_bound set to their maximum, exact again.
ALTER TABLE vote_ring_windows ADD COLUMN top_bound INTEGER NOT NULL DEFAULT 0;
UPDATE vote_ring_windows
   SET top_bound = coalesce((SELECT max(n) FROM vote_ring_counts c WHERE c.voter_id = vote_ring_windows.voter_id), 0);
DROP INDEX vote_ring_top;
