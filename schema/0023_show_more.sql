-- 0023_show_more.sql: the novelty worker's feed (src/show/novelty-pool.ts) reads a root's word
-- sets by root: the roots stored since the worker's last look, and those committed between a
-- submission's scoring and its write.
CREATE INDEX show_words_by_root ON show_words (root_id);
