// Prepared SQL for the outside mirror's tables (schema/0015_ext.sql), built once per database.
import { type Db, perDatabase } from '../db/open.ts';
import { PAGE_WINDOW, type PageWindow } from '../db/page-window.ts';

export type ExtKind = 'ours' | 'reply' | 'mention' | 'talk';

export interface ExtPostRow {
  seq: number;
  id: string;
  outside_id: string;
  kind: ExtKind;
  author_outside_id: string;
  conversation_outside_id: string | null;
  reply_to_outside_id: string | null;
  text: string;
  text_length: number;
  is_truncated: number;
  links: string;
  flags: string;
  created_at: number;
  ingested_at: number;
  wanted_at: number | null;
  // the author, joined from ext_users (null when the fetcher sent no user object)
  username: string | null;
  name: string | null;
  verified: number | null;
}

const COLS = `p.seq, p.id, p.outside_id, p.kind, p.author_outside_id, p.conversation_outside_id, p.reply_to_outside_id, p.text,
  p.text_length, p.is_truncated, p.links, p.flags, p.created_at, p.ingested_at, p.wanted_at, u.username, u.name, u.verified`;
const FROM = 'ext_posts p LEFT JOIN ext_users u ON u.outside_id = p.author_outside_id';

// Reads of ext_posts by seq (its rowid) alone. The mirror's page without a kind walks seq and stops
// at the page's end; a conversation looks its posts up by seq. NOT INDEXED keeps the planner off
// the partial index by kind, which it would otherwise read whole and then sort (at statistics where
// that index looks small, as on a new mirror). Withdrawn posts are skipped on the way.
const FROM_BY_SEQ = 'ext_posts p NOT INDEXED LEFT JOIN ext_users u ON u.outside_id = p.author_outside_id';

function build(db: Db) {
  const page = (w: PageWindow, byKind: boolean) =>
    db.query<ExtPostRow, (string | number)[]>(
      `SELECT ${COLS} FROM ${byKind ? FROM : FROM_BY_SEQ} WHERE p.withdrawn_at IS NULL ${byKind ? 'AND p.kind = ?' : ''} ${PAGE_WINDOW[w].where}
       ORDER BY ${PAGE_WINDOW[w].order} LIMIT ?`,
    );
  return {
    // credentials and leases
    insertCredential: db.query<void, [string, string, number]>('INSERT INTO ext_credentials (id, key_hash, created_at) VALUES (?, ?, ?)'),
    credentialByHash: db.query<{ id: string }, [string]>('SELECT id FROM ext_credentials WHERE key_hash = ? AND revoked_at IS NULL'),
    heldLease: db.query<{ id: string; expires_at: number }, [number]>(
      'SELECT id, expires_at FROM ext_leases WHERE released_at IS NULL AND expires_at > ? ORDER BY expires_at DESC LIMIT 1',
    ),
    lease: db.query<{ id: string; credential_id: string; expires_at: number; released_at: number | null }, [string]>(
      'SELECT id, credential_id, expires_at, released_at FROM ext_leases WHERE id = ?',
    ),
    insertLease: db.query<void, [string, string, number, number]>('INSERT INTO ext_leases (id, credential_id, issued_at, expires_at) VALUES (?, ?, ?, ?)'),
    releaseLease: db.query<void, [number, string]>('UPDATE ext_leases SET released_at = ? WHERE id = ? AND released_at IS NULL'),
    cursor: db.query<{ value: string }, []>(`SELECT value FROM ext_state WHERE name = 'cursor'`),
    setCursor: db.query<void, [string]>(`INSERT INTO ext_state (name, value) VALUES ('cursor', ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value`),
    // ingest
    upsertUser: db.query<void, [string, string, string, number, number]>(
      `INSERT INTO ext_users (outside_id, username, name, verified, updated_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (outside_id) DO UPDATE SET username = excluded.username, name = excluded.name, verified = excluded.verified, updated_at = excluded.updated_at`,
    ),
    known: db.query<{ id: string }, [string, string]>(
      'SELECT id FROM ext_posts WHERE outside_id = ? UNION ALL SELECT outside_id FROM ext_dropped WHERE outside_id = ?',
    ),
    oursById: db.query<{ one: number }, [string]>(`SELECT 1 AS one FROM ext_posts WHERE outside_id = ? AND kind = 'ours'`),
    keptSince: db.query<{ n: number }, [string, number]>('SELECT count(*) AS n FROM ext_posts WHERE author_outside_id = ? AND ingested_at > ?'),
    insertPost: db.query<void, [string, string, string, string, string | null, string | null, string, number, number, string, string, number, number]>(
      `INSERT INTO ext_posts (id, outside_id, kind, author_outside_id, conversation_outside_id, reply_to_outside_id, text,
         text_length, is_truncated, links, flags, created_at, ingested_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    insertOriginal: db.query<void, [string, string, string]>('INSERT INTO ext_originals (post_id, text, delivered) VALUES (?, ?, ?)'),
    insertDropped: db.query<void, [string, string, number]>('INSERT OR IGNORE INTO ext_dropped (outside_id, author_outside_id, dropped_at) VALUES (?, ?, ?)'),
    audit: db.query<void, [number, string, string, string | null, string]>(
      'INSERT INTO ext_audit (at, actor, action, post_id, details) VALUES (?, ?, ?, ?, ?)',
    ),
    // reads
    page: {
      all: { first: page('first', false), before: page('before', false), after: page('after', false) },
      kind: { first: page('first', true), before: page('before', true), after: page('after', true) },
    },
    newest: db.query<{ seq: number }, []>('SELECT max(seq) AS seq FROM ext_posts WHERE withdrawn_at IS NULL'),
    newestOfKind: db.query<{ seq: number }, [string]>('SELECT max(seq) AS seq FROM ext_posts WHERE withdrawn_at IS NULL AND kind = ?'),
    liveById: db.query<ExtPostRow, [string]>(`SELECT ${COLS} FROM ${FROM} WHERE p.id = ? AND p.withdrawn_at IS NULL`),
    anyById: db.query<{ id: string; withdrawn_at: number | null }, [string]>('SELECT id, withdrawn_at FROM ext_posts WHERE id = ?'),
    // A conversation: its posts oldest first, one more than the cap to learn whether it is complete.
    // Its posts and its root are two index lookups (a UNION, not an OR the planner may read by scan).
    conversation: db.query<ExtPostRow, [string, string, number]>(
      `SELECT ${COLS} FROM ${FROM_BY_SEQ}
       WHERE p.seq IN (SELECT seq FROM ext_posts WHERE conversation_outside_id = ?1 UNION SELECT seq FROM ext_posts WHERE outside_id = ?2)
         AND p.withdrawn_at IS NULL ORDER BY p.created_at ASC, p.seq ASC LIMIT ?3`,
    ),
    idByOutside: db.query<{ id: string }, [string]>('SELECT id FROM ext_posts WHERE outside_id = ? AND withdrawn_at IS NULL'),
    wanted: db.query<ExtPostRow, [number]>(
      `SELECT ${COLS} FROM ${FROM} WHERE p.wanted_at IS NOT NULL AND p.withdrawn_at IS NULL ORDER BY p.wanted_at DESC, p.seq DESC LIMIT ?`,
    ),
    original: db.query<{ text: string; delivered: string }, [string]>('SELECT text, delivered FROM ext_originals WHERE post_id = ?'),
    // the operator's view (svc admin mirror list, fetcher list): withdrawn posts and revoked credentials too
    recentAny: db.query<{ id: string; kind: ExtKind; text: string; username: string | null; created_at: number; withdrawn_at: number | null }, [number]>(
      `SELECT p.id, p.kind, p.text, u.username, p.created_at, p.withdrawn_at FROM ${FROM_BY_SEQ} ORDER BY p.seq DESC LIMIT ?`,
    ),
    credentials: db.query<{ id: string; created_at: number; revoked_at: number | null }, []>(
      'SELECT id, created_at, revoked_at FROM ext_credentials ORDER BY created_at DESC, id',
    ),
    credentialById: db.query<{ id: string; revoked_at: number | null }, [string]>('SELECT id, revoked_at FROM ext_credentials WHERE id = ?'),
    revokeCredential: db.query<void, [number, string]>('UPDATE ext_credentials SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL'),
    withdraw: db.query<void, [number, string]>('UPDATE ext_posts SET withdrawn_at = ? WHERE id = ? AND withdrawn_at IS NULL'),
    // links
    link: db.query<{ created_at: number }, [string, string]>('SELECT created_at FROM ext_links WHERE ext_post_id = ? AND thread_id = ?'),
    upsertLink: db.query<void, [string, string, string, number, string, number, number]>(
      `INSERT INTO ext_links (ext_post_id, thread_id, account_id, wants_public_response, note, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (ext_post_id, thread_id) DO UPDATE SET wants_public_response = excluded.wants_public_response, note = excluded.note, updated_at = excluded.updated_at`,
    ),
    crewWants: db.query<{ n: number }, [string]>(
      'SELECT count(*) AS n FROM ext_links l JOIN crew c ON c.account_id = l.account_id WHERE l.ext_post_id = ? AND l.wants_public_response = 1',
    ),
    setWanted: db.query<void, [number, string]>('UPDATE ext_posts SET wanted_at = coalesce(wanted_at, ?) WHERE id = ?'),
    clearWanted: db.query<void, [string]>('UPDATE ext_posts SET wanted_at = NULL WHERE id = ?'),
    // continuity: wanted posts that arrived, or became wanted, after a visit
    wantedSince: db.query<{ n: number }, [number, number]>(
      'SELECT count(*) AS n FROM ext_posts WHERE wanted_at IS NOT NULL AND withdrawn_at IS NULL AND (wanted_at > ? OR ingested_at > ?)',
    ),
  };
}

export type ExtStore = ReturnType<typeof build>;
export const extStore = perDatabase(build);
