// The schema files are imported as text so that `bun build --compile` embeds them in dist/svc.
// A test checks that every file in schema/ is listed here, in order.
import m0001 from '../../schema/0001_accounts.sql' with { type: 'text' };
import m0002 from '../../schema/0002_platform.sql' with { type: 'text' };
import m0003 from '../../schema/0003_board.sql' with { type: 'text' };
import m0004 from '../../schema/0004_votes.sql' with { type: 'text' };
import m0005 from '../../schema/0005_scheduler.sql' with { type: 'text' };
import m0006 from '../../schema/0006_lab_pages.sql' with { type: 'text' };
import m0007 from '../../schema/0007_lab.sql' with { type: 'text' };
import m0008 from '../../schema/0008_jobs.sql' with { type: 'text' };
import m0009 from '../../schema/0009_continuity.sql' with { type: 'text' };
import m0010 from '../../schema/0010_market.sql' with { type: 'text' };
import m0011 from '../../schema/0011_promotion.sql' with { type: 'text' };
import m0012 from '../../schema/0012_acceptance_replies.sql' with { type: 'text' };
import m0013 from '../../schema/0013_leaderboard_week.sql' with { type: 'text' };
import m0014 from '../../schema/0014_pubs.sql' with { type: 'text' };
import m0015 from '../../schema/0015_ext.sql' with { type: 'text' };
import m0016 from '../../schema/0016_show.sql' with { type: 'text' };
import m0017 from '../../schema/0017_inbox_by_post.sql' with { type: 'text' };
import m0018 from '../../schema/0018_pubs_more.sql' with { type: 'text' };
import m0019 from '../../schema/0019_comments.sql' with { type: 'text' };
import m0020 from '../../schema/0020_preview.sql' with { type: 'text' };
import m0021 from '../../schema/0021_outreach.sql' with { type: 'text' };
import m0022 from '../../schema/0022_mcp.sql' with { type: 'text' };
import m0023 from '../../schema/0023_show_more.sql' with { type: 'text' };
import m0024 from '../../schema/0024_pubs_takedowns.sql' with { type: 'text' };
import m0025 from '../../schema/0025_lab_site_files.sql' with { type: 'text' };
import m0026 from '../../schema/0026_bounded_reads.sql' with { type: 'text' };
import m0027 from '../../schema/0027_mcp_scopes.sql' with { type: 'text' };
import m0028 from '../../schema/0028_idempotency_keys_rowid.sql' with { type: 'text' };
import m0029 from '../../schema/0029_wait_catch_up.sql' with { type: 'text' };
import m0030 from '../../schema/0030_pubs_kept_counts.sql' with { type: 'text' };
import m0031 from '../../schema/0031_labelled_replies.sql' with { type: 'text' };
import m0032 from '../../schema/0032_jobs_changes.sql' with { type: 'text' };
import m0033 from '../../schema/0033_operator_actions.sql' with { type: 'text' };
import m0034 from '../../schema/0034_modlog.sql' with { type: 'text' };
import m0035 from '../../schema/0035_console_sessions.sql' with { type: 'text' };
import m0036 from '../../schema/0036_console_passkeys.sql' with { type: 'text' };
import m0037 from '../../schema/0037_show_queue_backups.sql' with { type: 'text' };
import m0038 from '../../schema/0038_write_indexes.sql' with { type: 'text' };
import m0039 from '../../schema/0039_posts_fts_merges.sql' with { type: 'text' };
import m0040 from '../../schema/0040_posts_fts_detail_none.sql' with { type: 'text' };
import m0041 from '../../schema/0041_posts_fts_crisis_merge.sql' with { type: 'text' };
import m0042 from '../../schema/0042_posts_fts_batched.sql' with { type: 'text' };
import m0043 from '../../schema/0043_vote_ring_top_bound.sql' with { type: 'text' };

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: '0001_accounts.sql', sql: m0001 },
  { version: 2, name: '0002_platform.sql', sql: m0002 },
  { version: 3, name: '0003_board.sql', sql: m0003 },
  { version: 4, name: '0004_votes.sql', sql: m0004 },
  { version: 5, name: '0005_scheduler.sql', sql: m0005 },
  { version: 6, name: '0006_lab_pages.sql', sql: m0006 },
  { version: 7, name: '0007_lab.sql', sql: m0007 },
  { version: 8, name: '0008_jobs.sql', sql: m0008 },
  { version: 9, name: '0009_continuity.sql', sql: m0009 },
  { version: 10, name: '0010_market.sql', sql: m0010 },
  { version: 11, name: '0011_promotion.sql', sql: m0011 },
  { version: 12, name: '0012_acceptance_replies.sql', sql: m0012 },
  { version: 13, name: '0013_leaderboard_week.sql', sql: m0013 },
  { version: 14, name: '0014_pubs.sql', sql: m0014 },
  { version: 15, name: '0015_ext.sql', sql: m0015 },
  { version: 16, name: '0016_show.sql', sql: m0016 },
  { version: 17, name: '0017_inbox_by_post.sql', sql: m0017 },
  { version: 18, name: '0018_pubs_more.sql', sql: m0018 },
  { version: 19, name: '0019_comments.sql', sql: m0019 },
  { version: 20, name: '0020_preview.sql', sql: m0020 },
  { version: 21, name: '0021_outreach.sql', sql: m0021 },
  { version: 22, name: '0022_mcp.sql', sql: m0022 },
  { version: 23, name: '0023_show_more.sql', sql: m0023 },
  { version: 24, name: '0024_pubs_takedowns.sql', sql: m0024 },
  { version: 25, name: '0025_lab_site_files.sql', sql: m0025 },
  { version: 26, name: '0026_bounded_reads.sql', sql: m0026 },
  { version: 27, name: '0027_mcp_scopes.sql', sql: m0027 },
  { version: 28, name: '0028_idempotency_keys_rowid.sql', sql: m0028 },
  { version: 29, name: '0029_wait_catch_up.sql', sql: m0029 },
  { version: 30, name: '0030_pubs_kept_counts.sql', sql: m0030 },
  { version: 31, name: '0031_labelled_replies.sql', sql: m0031 },
  { version: 32, name: '0032_jobs_changes.sql', sql: m0032 },
  { version: 33, name: '0033_operator_actions.sql', sql: m0033 },
  { version: 34, name: '0034_modlog.sql', sql: m0034 },
  { version: 35, name: '0035_console_sessions.sql', sql: m0035 },
  { version: 36, name: '0036_console_passkeys.sql', sql: m0036 },
  { version: 37, name: '0037_show_queue_backups.sql', sql: m0037 },
  { version: 38, name: '0038_write_indexes.sql', sql: m0038 },
  { version: 39, name: '0039_posts_fts_merges.sql', sql: m0039 },
  { version: 40, name: '0040_posts_fts_detail_none.sql', sql: m0040 },
  { version: 41, name: '0041_posts_fts_crisis_merge.sql', sql: m0041 },
  { version: 42, name: '0042_posts_fts_batched.sql', sql: m0042 },
  { version: 43, name: '0043_vote_ring_top_bound.sql', sql: m0043 },
];
