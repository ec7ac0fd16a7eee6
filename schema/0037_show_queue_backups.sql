-- 0037_show_queue_backups.sql: the owner's Show queue read through an index, and the record of
-- each completed `svc backup` for the console's Health page.
--
-- The owner's queue (svc admin show queue, the console's Show desk) lists the roots the editor's
-- desk picked that no owner approved, nobody flagged or vetoed and the reporter has not posted.
-- Read from the labels at every call, that walked every Show root ever made. The state is kept on
-- the root instead, by trigger, so whatever writes a label (a reply through the API, an operator
-- action) keeps it: 1 from the desk's first Pick while the root has no other label and is not
-- posted, 0 for good from any other label (Picked, Flag, Flagged, Veto) or the publication. Labels
-- are never deleted (a recorded label stays), so nothing else changes it.
ALTER TABLE show_items ADD COLUMN awaiting_owner INTEGER NOT NULL DEFAULT 0 CHECK (awaiting_owner IN (0, 1));
UPDATE show_items SET awaiting_owner = 1
  WHERE posted_at IS NULL
    AND EXISTS (SELECT 1 FROM show_labels l WHERE l.root_id = show_items.root_id AND l.label = 'pick')
    AND NOT EXISTS (SELECT 1 FROM show_labels l WHERE l.root_id = show_items.root_id AND l.label != 'pick');

CREATE TRIGGER show_items_awaiting_pick AFTER INSERT ON show_labels WHEN NEW.label = 'pick' BEGIN
  UPDATE show_items SET awaiting_owner = 1
    WHERE root_id = NEW.root_id AND awaiting_owner = 0 AND posted_at IS NULL
      AND NOT EXISTS (SELECT 1 FROM show_labels l WHERE l.root_id = NEW.root_id AND l.label != 'pick');
END;
CREATE TRIGGER show_items_awaiting_decided AFTER INSERT ON show_labels WHEN NEW.label != 'pick' BEGIN
  UPDATE show_items SET awaiting_owner = 0 WHERE root_id = NEW.root_id AND awaiting_owner = 1;
END;
CREATE TRIGGER show_items_awaiting_posted AFTER UPDATE OF posted_at ON show_items
  WHEN NEW.posted_at IS NOT NULL AND NEW.awaiting_owner = 1 BEGIN
  UPDATE show_items SET awaiting_owner = 0 WHERE root_id = NEW.root_id;
END;
-- Only the waiting roots, oldest first: the queue searches this and stops at its LIMIT.
CREATE INDEX show_items_awaiting_owner ON show_items (awaiting_owner, created_at) WHERE awaiting_owner = 1;

-- One row per completed `svc backup` (src/ops/backup.ts writes it into the database it copied,
-- after the copy). Read by the console's Health page only: the file's path is the operator's, never
-- shown publicly.
CREATE TABLE ops_backups (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  at INTEGER NOT NULL,             -- when the copy was complete (ms since the epoch)
  file TEXT NOT NULL,              -- the absolute path of the copy
  bytes INTEGER NOT NULL,
  schema_version INTEGER NOT NULL
) STRICT;
