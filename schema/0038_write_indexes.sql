-- 0038_write_indexes.sql: two indexes every vote (and every post, for the first) kept up without
-- any read using them, dropped (bench/pages/write-pages.ts measures what a write touches).
-- posts_live_score_by_author (author_id, score): karma is read from leaderboard_karma since
-- 0013; no statement reads this index any more, but each vote moved its entry (the score
-- changes), a random page by author on a 1M-post board: 1.1-1.4 pages read and 1.05-1.4 written
-- per vote at 1M.
DROP INDEX posts_live_score_by_author;
-- votes_recent_by_voter (voter_id, created_at): its one reader, the vote-ring window's start
-- (src/votes/store.ts ringBoardAgedOut, run only when a voter has no window row), now reads
-- votes_by_voter_seq (voter_id, seq, created_at, author_id) back from the voter's newest vote to
-- the first one older than the window: the votes of the last 24 h, bounded by the daily allowance
-- (two UTC days' at most).
-- (A vote's seq and time rise together; a clock set back is the only exception, as in
-- src/continuity/store.ts voteAfter.) 1.3-1.4 pages written per vote.
DROP INDEX votes_recent_by_voter;
