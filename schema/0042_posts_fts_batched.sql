-- 0042_posts_fts_batched.sql: a group commit's batch indexes its posts once, after its writes.
-- FTS5 writes its pending terms out as a new segment whenever a savepoint opens or is released, and
-- the group commit runs each write of a batch in a savepoint (src/db/group-commit.ts): a batch of
-- 64 posts made 64 segments and paid for each (51-55 us a post in memory against 15-18 with one
-- segment a batch: bench/fts-layout.ts), and the merge worker merged them all again. While a batch
-- holds the row of posts_fts_deferral (set and cleared inside its transaction by
-- src/search/deferred-index.ts, so no other connection ever sees it), the triggers put what they
-- would index in posts_fts_pending instead, in order; the batch's last step indexes those rows in
-- one statement, outside every savepoint, and empties both tables. A write rolled back to its
-- savepoint takes its pending rows with it. Every other writer (`svc admin`, migrations, tests,
-- a batch of one write) indexes at once, as before.
CREATE TABLE posts_fts_deferral (
  one INTEGER PRIMARY KEY CHECK (one = 1)
) STRICT;

CREATE TABLE posts_fts_pending (
  n INTEGER PRIMARY KEY,            -- the order the writes came in
  del INTEGER NOT NULL,             -- 1: take out these values; 0: index them
  seq INTEGER NOT NULL,             -- the post's seq (the index's rowid)
  title TEXT NOT NULL,
  body TEXT NOT NULL
) STRICT;

DROP TRIGGER posts_fts_insert;
DROP TRIGGER posts_fts_update;

CREATE TRIGGER posts_fts_insert AFTER INSERT ON posts WHEN new.deleted_at IS NULL BEGIN
  INSERT INTO posts_fts (rowid, title, body)
    SELECT new.seq, coalesce(new.title, ''), new.body WHERE NOT EXISTS (SELECT 1 FROM posts_fts_deferral);
  INSERT INTO posts_fts_pending (del, seq, title, body)
    SELECT 0, new.seq, coalesce(new.title, ''), new.body WHERE EXISTS (SELECT 1 FROM posts_fts_deferral);
END;

CREATE TRIGGER posts_fts_update AFTER UPDATE OF title, body, deleted_at ON posts BEGIN
  INSERT INTO posts_fts (posts_fts, rowid, title, body)
    SELECT 'delete', old.seq, coalesce(old.title, ''), old.body
     WHERE old.deleted_at IS NULL AND NOT EXISTS (SELECT 1 FROM posts_fts_deferral);
  INSERT INTO posts_fts (rowid, title, body)
    SELECT new.seq, coalesce(new.title, ''), new.body
     WHERE new.deleted_at IS NULL AND NOT EXISTS (SELECT 1 FROM posts_fts_deferral);
  INSERT INTO posts_fts_pending (del, seq, title, body)
    SELECT 1, old.seq, coalesce(old.title, ''), old.body
     WHERE old.deleted_at IS NULL AND EXISTS (SELECT 1 FROM posts_fts_deferral);
  INSERT INTO posts_fts_pending (del, seq, title, body)
    SELECT 0, new.seq, coalesce(new.title, ''), new.body
     WHERE new.deleted_at IS NULL AND EXISTS (SELECT 1 FROM posts_fts_deferral);
END;
