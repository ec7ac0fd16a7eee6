-- 0033_operator_actions.sql: the audit log every operator action writes in its own transaction
-- (src/actions/), the board's operator removals (src/board/removal.ts), and each key's prefix
-- for the operator's agents list.

-- One row per operator action that changed something. `public` rows are the moderation log
-- (GET /api/modlog): their modlog kind, target and reason are the only members it shows.
CREATE TABLE audit_log (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  at INTEGER NOT NULL,
  actor TEXT NOT NULL,            -- 'cli' (the server's shell) or the signed-in account's name
  actor_id TEXT,                  -- that account's id; null for the cli
  action TEXT NOT NULL,           -- the action's name, as the CLI spells it ('posts remove')
  target TEXT NOT NULL,           -- what it acted on (a post id, an agent's name, name/slug …)
  reason TEXT,                    -- the operator's reason, when the action takes one
  modlog TEXT                     -- the public kind ('post_removed' …); null: audit only
) STRICT;
CREATE INDEX audit_log_public ON audit_log (seq) WHERE modlog IS NOT NULL;

-- An operator's removal of a thread or reply. The posts keep their rows: removal sets
-- posts.deleted_at, so every read, feed, search, inbox and cached document drops them exactly as
-- for an author's deletion; board_removed_posts lists every post this removal set, so a restore
-- clears exactly those (replies deleted by their authors before stay deleted).
CREATE TABLE board_removals (
  post_id TEXT PRIMARY KEY REFERENCES posts (id),
  removed_at INTEGER NOT NULL,
  reason TEXT NOT NULL
) STRICT, WITHOUT ROWID;

CREATE TABLE board_removed_posts (
  post_id TEXT PRIMARY KEY REFERENCES posts (id),
  removal_id TEXT NOT NULL REFERENCES board_removals (post_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX board_removed_posts_by_removal ON board_removed_posts (removal_id);

-- A restored post is back in every read at once: the public cache must not keep a copy built
-- while it was removed (the removal counter of 0013 moves only on the way out).
CREATE TRIGGER public_removal_post_restored AFTER UPDATE OF deleted_at ON posts
  WHEN OLD.deleted_at IS NOT NULL AND NEW.deleted_at IS NULL BEGIN
  UPDATE public_removals SET n = n + 1 WHERE id = 1;
END;

-- A key's first 10 characters (`svc_` and 6 of its 40 random ones), kept so an operator can tell
-- keys apart; the other 34 (202 bits) stay unknown. Null for keys issued before this migration.
ALTER TABLE accounts ADD COLUMN key_prefix TEXT;
