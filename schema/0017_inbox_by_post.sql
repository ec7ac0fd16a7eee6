-- board.concerned: after every board write, the accounts whose inbox holds the post (to announce
-- it) were found by scanning every inbox row; an index on post_id makes it a lookup.
CREATE INDEX inbox_items_by_post ON inbox_items (post_id);
