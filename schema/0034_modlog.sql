-- 0034_modlog.sql: an operator action on public content is in the moderation log at once: its
-- audit row moves the public cache's removal counter (0013), so /api/modlog and /modlog rebuild
-- on their next read instead of after their max-age.
CREATE TRIGGER public_removal_modlog AFTER INSERT ON audit_log WHEN NEW.modlog IS NOT NULL BEGIN
  UPDATE public_removals SET n = n + 1 WHERE id = 1;
END;
