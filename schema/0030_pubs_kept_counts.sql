-- 0030_pubs_kept_counts.sql: two reads of the publication layer that grew with the published
-- articles (issue 27) read kept values instead.
--
-- The quorum rule counts published articles at every review vote: the count is kept here by
-- trigger. "Published" is what people can read: a published revision, not withdrawn, not hidden
-- (src/pubs/store.ts PUBLIC).
CREATE TABLE pubs_published_count (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  n INTEGER NOT NULL
) STRICT;
INSERT INTO pubs_published_count (id, n)
  SELECT 1, count(*) FROM pubs_items WHERE published_revision_id IS NOT NULL AND withdrawn_at IS NULL AND hidden_at IS NULL;

CREATE TRIGGER pubs_published_count_insert AFTER INSERT ON pubs_items
  WHEN NEW.published_revision_id IS NOT NULL AND NEW.withdrawn_at IS NULL AND NEW.hidden_at IS NULL BEGIN
  UPDATE pubs_published_count SET n = n + 1 WHERE id = 1;
END;
CREATE TRIGGER pubs_published_count_update AFTER UPDATE OF published_revision_id, withdrawn_at, hidden_at ON pubs_items
  WHEN (NEW.published_revision_id IS NOT NULL AND NEW.withdrawn_at IS NULL AND NEW.hidden_at IS NULL)
    <> (OLD.published_revision_id IS NOT NULL AND OLD.withdrawn_at IS NULL AND OLD.hidden_at IS NULL) BEGIN
  UPDATE pubs_published_count
    SET n = n + (NEW.published_revision_id IS NOT NULL AND NEW.withdrawn_at IS NULL AND NEW.hidden_at IS NULL)
              - (OLD.published_revision_id IS NOT NULL AND OLD.withdrawn_at IS NULL AND OLD.hidden_at IS NULL)
    WHERE id = 1;
END;
CREATE TRIGGER pubs_published_count_delete AFTER DELETE ON pubs_items
  WHEN OLD.published_revision_id IS NOT NULL AND OLD.withdrawn_at IS NULL AND OLD.hidden_at IS NULL BEGIN
  UPDATE pubs_published_count SET n = n - 1 WHERE id = 1;
END;

-- The top feed orders by the published revision's score, then by first publication: the score is
-- kept on the article too (null while none is published), so one index holds the feed's order
-- and a page reads its rows and stops.
ALTER TABLE pubs_items ADD COLUMN published_score INTEGER;
UPDATE pubs_items SET published_score = (SELECT r.score FROM pubs_revisions r WHERE r.id = pubs_items.published_revision_id)
  WHERE published_revision_id IS NOT NULL;

CREATE TRIGGER pubs_published_score_insert AFTER INSERT ON pubs_items WHEN NEW.published_revision_id IS NOT NULL BEGIN
  UPDATE pubs_items SET published_score = (SELECT r.score FROM pubs_revisions r WHERE r.id = NEW.published_revision_id) WHERE id = NEW.id;
END;
CREATE TRIGGER pubs_published_score_item AFTER UPDATE OF published_revision_id ON pubs_items
  WHEN NEW.published_revision_id IS NOT OLD.published_revision_id BEGIN
  UPDATE pubs_items SET published_score = (SELECT r.score FROM pubs_revisions r WHERE r.id = NEW.published_revision_id) WHERE id = NEW.id;
END;
CREATE TRIGGER pubs_published_score_revision AFTER UPDATE OF score ON pubs_revisions
  WHEN NEW.score IS NOT OLD.score BEGIN
  UPDATE pubs_items SET published_score = NEW.score WHERE id = NEW.item_id AND published_revision_id = NEW.id;
END;
CREATE INDEX pubs_items_public_top ON pubs_items (published_score, published_seq)
  WHERE published_revision_id IS NOT NULL AND withdrawn_at IS NULL AND hidden_at IS NULL;

-- After a withdrawal the review checks each candidate's last qualifying vote: by revision, not by
-- a walk of every review vote.
CREATE INDEX pubs_votes_by_revision ON pubs_votes (revision_id, qualifying, seq);
