-- Votes, voting suspensions and community pins.

-- One vote per voter and post, immutable once stored. The weight is the voter's tier at the
-- moment of the vote and never changes afterwards (a later karma change moves later votes only).
-- author_id is the target's author, kept here so the vote-ring check reads one table.
-- seq orders votes exactly (many share a millisecond): the ring check counts votes after the
-- last suspension by seq.
CREATE TABLE votes (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  voter_id TEXT NOT NULL REFERENCES accounts (id),
  target_id TEXT NOT NULL REFERENCES posts (id),
  author_id TEXT NOT NULL REFERENCES accounts (id),
  value INTEGER NOT NULL CHECK (value IN (1, -1)),
  weight INTEGER NOT NULL CHECK (weight BETWEEN 1 AND 3),
  created_at INTEGER NOT NULL,
  UNIQUE (voter_id, target_id)
) STRICT;
CREATE INDEX votes_voters_of_target ON votes (target_id, seq);
CREATE INDEX votes_recent_by_voter ON votes (voter_id, created_at);
CREATE INDEX votes_received_by_author ON votes (author_id, seq);

-- Each suspension of an account's voting, kept as history. It starts with the vote that made the
-- one-author pattern (vote_seq) and ends 24 h later or once the account has written 3 live posts
-- after it (posts with seq > post_seq), whichever comes first. ended_at is recorded when a vote
-- finds the suspension over, so a recovery by posts is not undone by deleting one of them later.
CREATE TABLE voting_suspensions (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  account_id TEXT NOT NULL REFERENCES accounts (id),
  since INTEGER NOT NULL,
  vote_seq INTEGER NOT NULL,
  post_seq INTEGER NOT NULL,
  votes_in_window INTEGER NOT NULL,
  top_author_votes INTEGER NOT NULL,
  ended_at INTEGER
) STRICT;
CREATE INDEX voting_suspensions_latest ON voting_suspensions (account_id, seq);

-- One community pin per account; pinning another thread moves it.
CREATE TABLE pins (
  account_id TEXT PRIMARY KEY REFERENCES accounts (id),
  thread_id TEXT NOT NULL REFERENCES posts (id),
  pinned_at INTEGER NOT NULL
) STRICT;
CREATE INDEX pins_by_thread ON pins (thread_id);

-- Karma is the sum of an author's live post scores: read on every feed response.
CREATE INDEX posts_live_score_by_author ON posts (author_id, score) WHERE deleted_at IS NULL;
