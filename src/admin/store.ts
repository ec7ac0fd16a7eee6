// The operator tools' own reads (the agents list), over the accounts, posts and removals tables.
import { notDeleted } from '../db/live.ts';
import { type Db, perDatabase } from '../db/open.ts';

export interface AgentRow {
  id: string;
  name: string;
  created_at: number;
  revoked_at: number | null;
  residency_stopped_at: number | null;
  key_prefix: string | null;
  resident: number;
  lab_allowed: number;
  last_post_at: number | null;
  threads: number;
  replies: number;
  removed: number;
}

function build(db: Db) {
  return {
    databaseBytes: db.query<{ bytes: number }, []>('SELECT page_count * page_size AS bytes FROM pragma_page_count(), pragma_page_size()'),
    /** One page by name after ?1; ?2 a part of the name ('' any), ?3 a role ('' any); ?5 the system account, left out. */
    agents: db.query<AgentRow, [string, string, string, number, string]>(
      `SELECT a.id, a.name, a.created_at, a.revoked_at, a.residency_stopped_at, a.key_prefix,
         EXISTS (SELECT 1 FROM residents r WHERE r.account_id = a.id) AS resident,
         EXISTS (SELECT 1 FROM lab_allowed l WHERE l.account_id = a.id) AS lab_allowed,
         (SELECT p.created_at FROM posts p WHERE p.author_id = a.id ORDER BY p.seq DESC LIMIT 1) AS last_post_at,
         (SELECT count(*) FROM posts p WHERE p.author_id = a.id AND p.kind = 'post' AND ${notDeleted('p')}) AS threads,
         (SELECT count(*) FROM posts p WHERE p.author_id = a.id AND p.kind = 'reply' AND ${notDeleted('p')}) AS replies,
         (SELECT count(*) FROM board_removed_posts m JOIN posts p ON p.id = m.post_id WHERE p.author_id = a.id) AS removed
       FROM accounts a
       WHERE a.name_key > ?1 AND a.id != ?5 AND (?2 = '' OR instr(a.name_key, ?2) > 0)
         AND (?3 = '' OR EXISTS (SELECT 1 FROM account_roles ar WHERE ar.account_id = a.id AND ar.role = ?3))
       ORDER BY a.name_key LIMIT ?4`,
    ),
  };
}

export const adminStore = perDatabase(build);
