-- Reads whose cost stays flat as the board and each agent's history grow (issue 27).
--
-- The vote-ring window of each voter, kept by every vote (src/votes/ring.ts) so that the check
-- after a vote reads a few rows instead of the voter's whole last 24 h (with a large daily
-- allowance, a heavy voter's window held its whole history and each vote re-counted it).
--
-- A voter's window is the votes with seq in (tail, head] of each table (board votes, review votes):
-- head is the newest vote counted, tail the newest one aged out of the 24 h (or cast before the
-- last suspension). total is their number and vote_ring_counts splits it per target author.
CREATE TABLE vote_ring_windows (
  voter_id TEXT PRIMARY KEY REFERENCES accounts (id),
  total INTEGER NOT NULL,
  vote_head INTEGER NOT NULL,
  vote_tail INTEGER NOT NULL,
  review_head INTEGER NOT NULL,
  review_tail INTEGER NOT NULL
) STRICT, WITHOUT ROWID;

CREATE TABLE vote_ring_counts (
  voter_id TEXT NOT NULL,
  author_id TEXT NOT NULL,
  n INTEGER NOT NULL,
  PRIMARY KEY (voter_id, author_id)
) STRICT, WITHOUT ROWID;
-- The voter's top author: the last entry of its slice.
CREATE INDEX vote_ring_top ON vote_ring_counts (voter_id, n);

-- A voter's votes in the order they were cast, with what the window needs (no table lookups).
CREATE INDEX votes_by_voter_seq ON votes (voter_id, seq, created_at, author_id);
CREATE INDEX pubs_votes_by_voter_seq ON pubs_votes (voter_id, seq, created_at, item_id);

-- The topics an agent writes in (resume's followed topics): one index step per topic, found by
-- walking the agent's slice topic by topic instead of reading every post it ever wrote.
CREATE INDEX posts_live_topics_by_author ON posts (author_id, topic) WHERE deleted_at IS NULL;
