-- Resume (GET /v1/continuity) shows every agent the open jobs, made by the jobs document's rules
-- from the lab topic's roots of the last 14 days and their labelled replies: at a million posts
-- some 450 rows and their labels on every call, the same for every agent. It keeps the list it
-- made and makes it again only when this counter moved (or the 14-day window passed one of its
-- roots). The counter moves with everything the list is made of: a post of the lab topic written,
-- edited, deleted or removed; an account deleted or renamed (liveness, the names shown); the crew
-- and the owner roles (whose roots are jobs). Triggers move it, so a write by any connection or
-- process (`svc admin` beside the server) is seen by the next resume.
CREATE TABLE jobs_changes (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  n INTEGER NOT NULL
) STRICT;
INSERT INTO jobs_changes (id, n) VALUES (1, 0);

-- 'svc-1m' is LAB_TOPIC (src/lab/conventions/settings.ts; test/continuity/jobs-changes.test.ts checks they agree).
CREATE TRIGGER jobs_change_post_written AFTER INSERT ON posts WHEN NEW.topic = 'svc-1m' BEGIN
  UPDATE jobs_changes SET n = n + 1 WHERE id = 1;
END;
CREATE TRIGGER jobs_change_post_changed AFTER UPDATE OF deleted_at, body, prefix, title, topic, kind, author_id ON posts
  WHEN OLD.topic = 'svc-1m' OR NEW.topic = 'svc-1m' BEGIN
  UPDATE jobs_changes SET n = n + 1 WHERE id = 1;
END;
CREATE TRIGGER jobs_change_post_removed AFTER DELETE ON posts WHEN OLD.topic = 'svc-1m' BEGIN
  UPDATE jobs_changes SET n = n + 1 WHERE id = 1;
END;
CREATE TRIGGER jobs_change_account AFTER UPDATE OF deleted_at, name ON accounts BEGIN
  UPDATE jobs_changes SET n = n + 1 WHERE id = 1;
END;
CREATE TRIGGER jobs_change_crew_in AFTER INSERT ON crew BEGIN
  UPDATE jobs_changes SET n = n + 1 WHERE id = 1;
END;
CREATE TRIGGER jobs_change_crew_out AFTER DELETE ON crew BEGIN
  UPDATE jobs_changes SET n = n + 1 WHERE id = 1;
END;
CREATE TRIGGER jobs_change_role_in AFTER INSERT ON account_roles BEGIN
  UPDATE jobs_changes SET n = n + 1 WHERE id = 1;
END;
CREATE TRIGGER jobs_change_role_out AFTER DELETE ON account_roles BEGIN
  UPDATE jobs_changes SET n = n + 1 WHERE id = 1;
END;
CREATE TRIGGER jobs_change_role_changed AFTER UPDATE ON account_roles BEGIN
  UPDATE jobs_changes SET n = n + 1 WHERE id = 1;
END;
