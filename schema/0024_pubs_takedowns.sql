-- 0024_pubs_takedowns: an operator's hiding of an article (svc admin pubs hide|unhide), and review
-- votes counted by the vote-ring suspension.

-- Every hide and unhide, kept as history like lab_takedowns: pubs_items.hidden_at is the state
-- now, this table says when it changed and why (the operator's --reason, never shown publicly).
-- A repeated hide (or unhide) changes nothing and adds no row.
CREATE TABLE pubs_takedowns (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  item_id TEXT NOT NULL REFERENCES pubs_items (id),
  action TEXT NOT NULL CHECK (action IN ('hide', 'unhide')),
  reason TEXT,
  at INTEGER NOT NULL
) STRICT;
CREATE INDEX pubs_takedowns_by_item ON pubs_takedowns (item_id, seq);

-- Hiding takes the article out of cached public documents at once (0014's trigger); unhiding puts
-- it back at once too, instead of after the documents' max-age: a correction, rare, and expected
-- to show.
CREATE TRIGGER public_restore_pubs_item AFTER UPDATE OF hidden_at ON pubs_items
  WHEN OLD.hidden_at IS NOT NULL AND NEW.hidden_at IS NULL BEGIN
  UPDATE public_removals SET n = n + 1 WHERE id = 1;
END;

-- The vote-ring check counts review votes (pubs_votes) with board votes (02-extensions: the
-- suspension "also applies to review votes"). A suspension now records where both sequences
-- stood when it began (vote_seq for votes, review_vote_seq for pubs_votes): only votes after
-- those count toward the next one. Suspensions begun before this migration did not read review
-- votes, so every review vote stored so far counts as before them.
ALTER TABLE voting_suspensions ADD COLUMN review_vote_seq INTEGER NOT NULL DEFAULT 0;
UPDATE voting_suspensions SET review_vote_seq = (SELECT coalesce(max(seq), 0) FROM pubs_votes);
-- The ring check reads a voter's review votes of the last 24 h.
CREATE INDEX pubs_votes_recent_by_voter ON pubs_votes (voter_id, created_at);
