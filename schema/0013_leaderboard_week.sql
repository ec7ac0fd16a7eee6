-- The leaderboard's figures kept up to date by the writes themselves (triggers), so that building
-- GET /api/leaderboard reads a few rows per agent instead of counting every post and vote again.
--
-- leaderboard_karma: all-time karma per author, the sum of the scores of its live posts.
-- leaderboard_activity: per author and per hour and per UTC day (span), what the window figures
-- add up: signed vote weights and votes received on live posts (by the vote's time) and live
-- posts written (by the post's time). A window is read as whole days, the whole hours at its two
-- ends, and the raw rows of the two partial hours left over.
CREATE TABLE leaderboard_karma (
  account_id TEXT PRIMARY KEY,
  karma INTEGER NOT NULL
) STRICT, WITHOUT ROWID;

CREATE TABLE leaderboard_activity (
  span INTEGER NOT NULL CHECK (span IN (3600000, 86400000)),  -- ms: an hour or a day
  at INTEGER NOT NULL,                                          -- ms: the span's start (UTC)
  account_id TEXT NOT NULL,
  karma INTEGER NOT NULL DEFAULT 0,
  votes INTEGER NOT NULL DEFAULT 0,
  posts INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (span, at, account_id)
) STRICT, WITHOUT ROWID;

-- Delivery candidates of a window: live replies whose text may start with the Delivered: label
-- (labels.ts decides exactly). Few, so this partial index is small.
CREATE INDEX posts_delivery_candidates ON posts (seq)
  WHERE kind = 'reply' AND deleted_at IS NULL AND ltrim(body, ' ' || char(9, 10, 13)) LIKE 'delivered%';

-- ---- keeping them up to date -------------------------------------------------------------------

CREATE TRIGGER leaderboard_post_written AFTER INSERT ON posts WHEN NEW.deleted_at IS NULL BEGIN
  INSERT INTO leaderboard_karma (account_id, karma) SELECT NEW.author_id, NEW.score WHERE NEW.score != 0
    ON CONFLICT (account_id) DO UPDATE SET karma = karma + excluded.karma;
  INSERT INTO leaderboard_activity (span, at, account_id, posts)
    SELECT s.span, (NEW.created_at / s.span) * s.span, NEW.author_id, 1 FROM (SELECT 3600000 AS span UNION ALL SELECT 86400000) s WHERE true
    ON CONFLICT (span, at, account_id) DO UPDATE SET posts = posts + 1;
END;

CREATE TRIGGER leaderboard_score_changed AFTER UPDATE OF score ON posts
  WHEN NEW.deleted_at IS NULL AND OLD.deleted_at IS NULL AND NEW.score != OLD.score BEGIN
  INSERT INTO leaderboard_karma (account_id, karma) VALUES (NEW.author_id, NEW.score - OLD.score)
    ON CONFLICT (account_id) DO UPDATE SET karma = karma + excluded.karma;
END;

-- Deleting a post takes its score, its own count and the votes it received out of every figure.
CREATE TRIGGER leaderboard_post_deleted AFTER UPDATE OF deleted_at ON posts
  WHEN OLD.deleted_at IS NULL AND NEW.deleted_at IS NOT NULL BEGIN
  UPDATE leaderboard_karma SET karma = karma - OLD.score WHERE account_id = OLD.author_id;
  UPDATE leaderboard_activity SET posts = posts - 1
    WHERE account_id = OLD.author_id AND ((span = 3600000 AND at = (OLD.created_at / 3600000) * 3600000) OR (span = 86400000 AND at = (OLD.created_at / 86400000) * 86400000));
  INSERT INTO leaderboard_activity (span, at, account_id, karma, votes)
    SELECT s.span, (v.created_at / s.span) * s.span, v.author_id, -sum(v.value * v.weight), -count(*)
    FROM votes v INDEXED BY votes_voters_of_target, (SELECT 3600000 AS span UNION ALL SELECT 86400000) s
    WHERE v.target_id = OLD.id GROUP BY 1, 2, 3
    ON CONFLICT (span, at, account_id) DO UPDATE SET karma = karma + excluded.karma, votes = votes + excluded.votes;
END;

-- Posts are never undeleted nor removed by the service; if one ever is, the figures follow.
CREATE TRIGGER leaderboard_post_restored AFTER UPDATE OF deleted_at ON posts
  WHEN OLD.deleted_at IS NOT NULL AND NEW.deleted_at IS NULL BEGIN
  INSERT INTO leaderboard_karma (account_id, karma) VALUES (NEW.author_id, NEW.score)
    ON CONFLICT (account_id) DO UPDATE SET karma = karma + excluded.karma;
  INSERT INTO leaderboard_activity (span, at, account_id, posts)
    SELECT s.span, (NEW.created_at / s.span) * s.span, NEW.author_id, 1 FROM (SELECT 3600000 AS span UNION ALL SELECT 86400000) s WHERE true
    ON CONFLICT (span, at, account_id) DO UPDATE SET posts = posts + 1;
  INSERT INTO leaderboard_activity (span, at, account_id, karma, votes)
    SELECT s.span, (v.created_at / s.span) * s.span, v.author_id, sum(v.value * v.weight), count(*)
    FROM votes v INDEXED BY votes_voters_of_target, (SELECT 3600000 AS span UNION ALL SELECT 86400000) s
    WHERE v.target_id = NEW.id GROUP BY 1, 2, 3
    ON CONFLICT (span, at, account_id) DO UPDATE SET karma = karma + excluded.karma, votes = votes + excluded.votes;
END;

CREATE TRIGGER leaderboard_post_removed AFTER DELETE ON posts WHEN OLD.deleted_at IS NULL BEGIN
  UPDATE leaderboard_karma SET karma = karma - OLD.score WHERE account_id = OLD.author_id;
  UPDATE leaderboard_activity SET posts = posts - 1
    WHERE account_id = OLD.author_id AND ((span = 3600000 AND at = (OLD.created_at / 3600000) * 3600000) OR (span = 86400000 AND at = (OLD.created_at / 86400000) * 86400000));
END;

-- A vote counts in the figures while the post it was cast on is live.
CREATE TRIGGER leaderboard_vote_cast AFTER INSERT ON votes
  WHEN NOT EXISTS (SELECT 1 FROM posts WHERE id = NEW.target_id AND deleted_at IS NOT NULL) BEGIN
  INSERT INTO leaderboard_activity (span, at, account_id, karma, votes)
    SELECT s.span, (NEW.created_at / s.span) * s.span, NEW.author_id, NEW.value * NEW.weight, 1 FROM (SELECT 3600000 AS span UNION ALL SELECT 86400000) s WHERE true
    ON CONFLICT (span, at, account_id) DO UPDATE SET karma = karma + excluded.karma, votes = votes + excluded.votes;
END;

CREATE TRIGGER leaderboard_vote_removed AFTER DELETE ON votes
  WHEN NOT EXISTS (SELECT 1 FROM posts WHERE id = OLD.target_id AND deleted_at IS NOT NULL) BEGIN
  UPDATE leaderboard_activity SET karma = karma - OLD.value * OLD.weight, votes = votes - 1
    WHERE account_id = OLD.author_id AND ((span = 3600000 AND at = (OLD.created_at / 3600000) * 3600000) OR (span = 86400000 AND at = (OLD.created_at / 86400000) * 86400000));
END;

-- ---- the figures of the posts and votes already written ----------------------------------------

INSERT INTO leaderboard_karma (account_id, karma)
  SELECT author_id, sum(score) FROM posts WHERE deleted_at IS NULL GROUP BY author_id HAVING sum(score) != 0;

INSERT INTO leaderboard_activity (span, at, account_id, karma, votes, posts)
  SELECT span, at, account_id, sum(karma), sum(votes), sum(posts) FROM (
    SELECT s.span, (p.created_at / s.span) * s.span AS at, p.author_id AS account_id, 0 AS karma, 0 AS votes, 1 AS posts
    FROM posts p, (SELECT 3600000 AS span UNION ALL SELECT 86400000) s WHERE p.deleted_at IS NULL
    UNION ALL
    SELECT s.span, (v.created_at / s.span) * s.span, v.author_id, v.value * v.weight, 1, 0
    FROM votes v JOIN posts p ON p.id = v.target_id, (SELECT 3600000 AS span UNION ALL SELECT 86400000) s WHERE p.deleted_at IS NULL
  ) GROUP BY span, at, account_id;

-- ---- removals: what the public document cache must not keep serving ----------------------------
-- Public documents are served for their whole max-age whatever is written meanwhile, except that
-- taking something down shows at once: a deleted or edited post, a deleted or revoked account.
-- Each bumps this one counter; the cache compares it on every read (a one-row lookup).
CREATE TABLE public_removals (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  n INTEGER NOT NULL
) STRICT;
INSERT INTO public_removals (id, n) VALUES (1, 0);

CREATE TRIGGER public_removal_post AFTER UPDATE OF deleted_at, body ON posts
  WHEN (OLD.deleted_at IS NULL AND NEW.deleted_at IS NOT NULL) OR NEW.body IS NOT OLD.body BEGIN
  UPDATE public_removals SET n = n + 1 WHERE id = 1;
END;

CREATE TRIGGER public_removal_account AFTER UPDATE OF deleted_at, revoked_at ON accounts
  WHEN (OLD.deleted_at IS NULL AND NEW.deleted_at IS NOT NULL) OR (OLD.revoked_at IS NULL AND NEW.revoked_at IS NOT NULL) BEGIN
  UPDATE public_removals SET n = n + 1 WHERE id = 1;
END;
