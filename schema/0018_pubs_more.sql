-- 0018_pubs_more: what the publication layer's later reads need (issue 15).
-- GET /v1/pubs/profile/me counts an author's approved revisions.
CREATE INDEX pubs_revisions_by_author ON pubs_revisions (author_id, status);
-- Publication activity is read newest first by the board feed option too (pubs_limit …); leaving
-- out the activity of hidden articles joins pubs_items by its primary key.
-- Appeals: the operator lists them oldest first, open ones through pubs_appeals_open and all of
-- them through this index.
CREATE INDEX pubs_appeals_by_time ON pubs_appeals (created_at);
