// The OAuth authorization server's statements (schema/0022_mcp.sql, 0027_mcp_scopes.sql), prepared once per database.
import { type Db, perDatabase } from '../db/open.ts';

export interface ClientRow {
  client_id: string;
  kind: 'registered' | 'document';
  client_name: string | null;
  client_uri: string | null;
  redirect_uris: string;
  metadata: string;
  created_at: number;
  fetched_at: number | null;
}

export interface PendingRow {
  id: string;
  csrf_hash: string;
  client_id: string;
  redirect_uri: string;
  state: string | null;
  code_challenge: string;
  resource: string;
  scope: string | null;
  expires_at: number;
}

export interface CodeRow {
  code_hash: string;
  connection_id: string;
  client_id: string;
  redirect_uri: string;
  code_challenge: string;
  resource: string;
  expires_at: number;
  used_at: number | null;
}

export interface ConnectionRow {
  id: string;
  client_id: string;
  account_id: string;
  resource: string;
  /** Granted scopes, space-separated (board:read, board:write). */
  scope: string | null;
  /** Granted toolsets, space-separated; null = every toolset. */
  toolsets: string | null;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
}

/** A token with its connection, and the hash of the key the connection was linked with (accounts says whether it still works). */
export interface TokenRow {
  token_hash: string;
  kind: 'access' | 'refresh';
  expires_at: number;
  used_at: number | null;
  token_revoked_at: number | null;
  connection_id: string;
  client_id: string;
  account_id: string;
  resource: string;
  scope: string | null;
  toolsets: string | null;
  last_used_at: number | null;
  connection_revoked_at: number | null;
  key_hash: string;
}

const CLIENT_COLS = 'client_id, kind, client_name, client_uri, redirect_uris, metadata, created_at, fetched_at';
const CONNECTION_COLS = 'c.id, c.client_id, c.account_id, c.resource, c.scope, c.toolsets, c.created_at, c.last_used_at, c.revoked_at';

function build(db: Db) {
  return {
    clientById: db.query<ClientRow, [string]>(`SELECT ${CLIENT_COLS} FROM mcp_clients WHERE client_id = ?`),
    insertRegistered: db.query<void, [string, string | null, string | null, string, string, string, number]>(
      `INSERT INTO mcp_clients (client_id, kind, client_name, client_uri, redirect_uris, metadata, registered_by, created_at)
       VALUES (?, 'registered', ?, ?, ?, ?, ?, ?)`,
    ),
    upsertDocument: db.query<void, [string, string | null, string | null, string, string, number]>(
      `INSERT INTO mcp_clients (client_id, kind, client_name, client_uri, redirect_uris, metadata, created_at, fetched_at)
       VALUES (?1, 'document', ?2, ?3, ?4, ?5, ?6, ?6)
       ON CONFLICT (client_id) DO UPDATE SET client_name = excluded.client_name, client_uri = excluded.client_uri,
         redirect_uris = excluded.redirect_uris, metadata = excluded.metadata, fetched_at = excluded.fetched_at
       WHERE mcp_clients.kind = 'document'`,
    ),
    registrationsSince: db.query<{ n: number }, [string, number]>(
      'SELECT count(*) AS n FROM mcp_clients WHERE registered_by = ? AND created_at >= ? AND registered_by IS NOT NULL',
    ),

    insertPending: db.query<void, [string, string, string, string, string | null, string, string, string | null, number, number]>(
      `INSERT INTO mcp_pending (id, csrf_hash, client_id, redirect_uri, state, code_challenge, resource, scope, created_at, expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    pendingById: db.query<PendingRow, [string]>(
      'SELECT id, csrf_hash, client_id, redirect_uri, state, code_challenge, resource, scope, expires_at FROM mcp_pending WHERE id = ?',
    ),
    deletePending: db.query<void, [string]>('DELETE FROM mcp_pending WHERE id = ?'),
    prunePending: db.query<void, [number]>('DELETE FROM mcp_pending WHERE expires_at < ?'),

    insertConnection: db.query<void, [string, string, string, string, string, string, string | null, number]>(
      'INSERT INTO mcp_connections (id, client_id, account_id, key_hash, resource, scope, toolsets, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    ),
    connectionsOf: db.query<ConnectionRow & { client_name: string | null; client_uri: string | null }, [string]>(
      `SELECT ${CONNECTION_COLS}, m.client_name, m.client_uri FROM mcp_connections c JOIN mcp_clients m ON m.client_id = c.client_id
       WHERE c.account_id = ? AND c.revoked_at IS NULL ORDER BY c.created_at DESC, c.id DESC`,
    ),
    connectionOf: db.query<ConnectionRow, [string, string]>(`SELECT ${CONNECTION_COLS} FROM mcp_connections c WHERE c.id = ? AND c.account_id = ?`),
    /** A connection with the hash of the key it was linked with. */
    connectionById: db.query<ConnectionRow & { key_hash: string }, [string]>(`SELECT ${CONNECTION_COLS}, c.key_hash FROM mcp_connections c WHERE c.id = ?`),
    revokeConnection: db.query<void, [number, string, string]>(
      'UPDATE mcp_connections SET revoked_at = ?, revoked_reason = ? WHERE id = ? AND revoked_at IS NULL',
    ),
    touchConnection: db.query<void, [number, string]>('UPDATE mcp_connections SET last_used_at = ? WHERE id = ?'),

    insertCode: db.query<void, [string, string, string, string, string, string, number, number]>(
      `INSERT INTO mcp_codes (code_hash, connection_id, client_id, redirect_uri, code_challenge, resource, created_at, expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    codeByHash: db.query<CodeRow, [string]>(
      'SELECT code_hash, connection_id, client_id, redirect_uri, code_challenge, resource, expires_at, used_at FROM mcp_codes WHERE code_hash = ?',
    ),
    useCode: db.query<void, [number, string]>('UPDATE mcp_codes SET used_at = ? WHERE code_hash = ? AND used_at IS NULL'),
    pruneCodes: db.query<void, [number]>('DELETE FROM mcp_codes WHERE expires_at < ?'),

    insertToken: db.query<void, [string, string, string, number, number]>(
      'INSERT INTO mcp_tokens (token_hash, connection_id, kind, created_at, expires_at) VALUES (?, ?, ?, ?, ?)',
    ),
    tokenByHash: db.query<TokenRow, [string]>(
      `SELECT t.token_hash, t.kind, t.expires_at, t.used_at, t.revoked_at AS token_revoked_at,
         c.id AS connection_id, c.client_id, c.account_id, c.resource, c.scope, c.toolsets, c.last_used_at, c.revoked_at AS connection_revoked_at, c.key_hash
       FROM mcp_tokens t JOIN mcp_connections c ON c.id = t.connection_id
       WHERE t.token_hash = ?`,
    ),
    /** This connection's writes so far (trigger rows included): no transaction, so checking it costs almost nothing. */
    changes: db.query<{ n: number }, []>('SELECT total_changes() AS n'),
    useRefresh: db.query<void, [number, string]>("UPDATE mcp_tokens SET used_at = ? WHERE token_hash = ? AND kind = 'refresh' AND used_at IS NULL"),
    revokeToken: db.query<void, [number, string]>('UPDATE mcp_tokens SET revoked_at = ? WHERE token_hash = ? AND revoked_at IS NULL'),

    insertManageSession: db.query<void, [string, string, string, string, number, number]>(
      'INSERT INTO mcp_manage_sessions (token_hash, account_id, key_hash, csrf_hash, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)',
    ),
    /** A /connections session with the hash of the key it was opened with. */
    manageSession: db.query<{ account_id: string; csrf_hash: string; expires_at: number; key_hash: string }, [string]>(
      'SELECT account_id, csrf_hash, expires_at, key_hash FROM mcp_manage_sessions WHERE token_hash = ?',
    ),
    pruneManageSessions: db.query<void, [number]>('DELETE FROM mcp_manage_sessions WHERE expires_at < ?'),
  };
}

/** The MCP/OAuth statements, prepared once per database. */
export const mcpStore = perDatabase(build);
