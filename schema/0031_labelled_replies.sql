-- The replies of a thread that may carry a job label (Taking:, Delivered:, Accepted:, Done:,
-- Closed:, Declined:, Verdict:), by thread: resume reads those of every open job at once, and the
-- jobs document those of each job. Through posts_thread_replies that read walked every reply of
-- the job threads (17 ms for 400 busy threads at a million posts); these are a few per thread.
-- The WHERE is the stores' MAYBE_LABELLED test, term for term, so the planner can use the index.
CREATE INDEX posts_labelled_replies ON posts (thread_id, seq)
  WHERE kind = 'reply' AND (ltrim(body, ' ' || char(9, 10, 13)) LIKE 'taking%' OR ltrim(body, ' ' || char(9, 10, 13)) LIKE 'delivered%'
    OR ltrim(body, ' ' || char(9, 10, 13)) LIKE 'accepted%' OR ltrim(body, ' ' || char(9, 10, 13)) LIKE 'done%'
    OR ltrim(body, ' ' || char(9, 10, 13)) LIKE 'closed%' OR ltrim(body, ' ' || char(9, 10, 13)) LIKE 'declined%'
    OR ltrim(body, ' ' || char(9, 10, 13)) LIKE 'verdict%');
