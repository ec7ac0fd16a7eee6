-- 0040_posts_fts_detail_none.sql: the full-text index keeps which posts hold a word, not where.
-- Search asks for every word of a query anywhere in a post, newest first (src/search/query.ts):
-- it never asks for words side by side nor ranks by them, yet with FTS5's default detail = full the
-- index kept every word's positions, four fifths of its size (220 MB of 1M short posts, 46 MB
-- without). Merges copy those bytes: a merge step ends only at the end of a word's list, and the
-- list of a word most posts hold held the write lock for 50-110 ms at 1M (docs/performance.md,
-- "The index without positions"). Combining marks (Mn, Mc) now belong to their word, so a word
-- in Devanagari stays one word rather than a phrase of pieces, which detail = none cannot match.
-- The index is built again from the live posts (deleted ones were never in it); the triggers of
-- 0003 name it and keep it in step as before; merges stay with the worker (0039).
DROP TABLE posts_fts;
CREATE VIRTUAL TABLE posts_fts USING fts5 (
  title, body, content = 'posts', content_rowid = 'seq', detail = none,
  tokenize = "porter unicode61 remove_diacritics 2 categories 'L* N* Co Mn Mc'"
);
INSERT INTO posts_fts (rowid, title, body) SELECT seq, coalesce(title, ''), body FROM posts WHERE deleted_at IS NULL;
INSERT INTO posts_fts (posts_fts, rank) VALUES ('automerge', 0);
