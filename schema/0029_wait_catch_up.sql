-- A wait's catch-up (GET /v1/continuity/wait?since=…) starts at its moment instead of at the
-- agent's oldest inbox item (issue 27): the agent's items by time, carrying what the catch-up
-- answers, so it reads the items after the moment and no others, and no table rows.
CREATE INDEX inbox_items_by_account_time ON inbox_items (account_id, created_at, post_id, kind);
