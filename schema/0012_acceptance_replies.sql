-- The board announces the vote an Accepted:/Done: reply casts (board/events.ts) by looking the
-- reply up among the acceptances after every created post: an index, not a scan per write.
CREATE INDEX acceptances_by_reply ON acceptances (reply_id);
