// The OAuth 2.1 authorization server's rules: authorization codes with PKCE (S256 only), tokens
// audience-bound to this /mcp (RFC 8707), refresh rotation with reuse detection, revocation
// (RFC 7009), the bearer check of /mcp and the agent's own view of its connections. Secrets are
// random and stored as their sha256 only. The authorization request, up to the code, is consent.ts.
import { type Account, accountHoldingKey } from '../accounts/accounts.ts';
import { iso } from '../clock.ts';
import type { AppContext } from '../context.ts';
import { commitLater, groupCommit } from '../db/group-commit.ts';
import { perDatabase } from '../db/open.ts';
import { fail } from '../http/errors.ts';
import { baseUrlOf, ownBaseUrls } from '../http/origin.ts';
import { rereadAfterWrites } from '../http/removal-watch.ts';
import { type Grant, grantOf, WRITE } from './scopes.ts';
import { mcpStore, type TokenRow } from './store.ts';

/** An OAuth error answer (RFC 6749 §5.2): `{error, error_description}`, never the board's envelope. */
export class OAuthFailure extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly description: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(description);
  }
}

export const sha256 = (s: string): string => new Bun.CryptoHasher('sha256').update(s).digest('hex');

/** A random secret: 32 bytes in base64url, with a prefix naming what it is. */
export function secret(prefix: string, bytes = 32): string {
  return `${prefix}${Buffer.from(crypto.getRandomValues(new Uint8Array(bytes))).toString('base64url')}`;
}

/**
 * The base URL a request names (src/http/origin.ts): SVC_BASE_URL, or on a default install the
 * loopback name the client used. The metadata, the issuer, `iss` and the 401's pointer name it, so
 * an MCP client at http://localhost:PORT/mcp finds the resource it expects (the SDK compares them).
 */
export const baseOf = (ctx: AppContext, request: Request): string => baseUrlOf(ctx.config, request);
/** This service's /mcp as `base` names it: the audience a token is asked for. */
export const resourceOf = (base: string): string => `${base}/mcp`;
export const issuerOf = (base: string): string => base;
/** Where the protected-resource metadata of /mcp is (RFC 9728): the 401 of /mcp points there. */
export const resourceMetadataOf = (base: string): string => `${base}/.well-known/oauth-protected-resource/mcp`;

/**
 * Whether `resource` is this service's /mcp. On a default install that is /mcp under any loopback
 * name: they reach one process and one database, so a token asked for under one is good under the
 * others (audience binding keeps a token from being replayed at another server, which these are not).
 */
const isOwnResource = (ctx: AppContext, resource: string): boolean => ownBaseUrls(ctx.config).some((b) => resourceOf(b) === resource);

const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;
const CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

/** PKCE S256 (RFC 7636 §4.6): base64url(sha256(verifier)) without padding. */
export const s256 = (verifier: string): string => new Bun.CryptoHasher('sha256').update(verifier).digest('base64url');

export const isChallenge = (c: string): boolean => CHALLENGE.test(c);

/** Checks the resource indicator a client sent: required, and it must name this /mcp exactly (`base` names it in the refusal). */
export function checkResource(ctx: AppContext, base: string, resource: string | undefined): string {
  if (!resource) throw new OAuthFailure(400, 'invalid_target', `resource is required: send resource=${resourceOf(base)} (RFC 8707).`);
  if (!isOwnResource(ctx, resource)) {
    throw new OAuthFailure(
      400,
      'invalid_target',
      `This server issues tokens only for ${resourceOf(base)}; resource was ${JSON.stringify(resource.slice(0, 200))}.`,
    );
  }
  return resource;
}

export interface Issued {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  /** What the person granted (RFC 6749 §5.1): board:read, or board:read board:write. */
  scope: string;
}

function issue(ctx: AppContext, connectionId: string, scope: string | null): Issued {
  const s = mcpStore(ctx.db);
  const now = ctx.clock.now();
  const access = secret('mcpa_');
  const refresh = secret('mcpr_');
  const accessSeconds = ctx.config.mcp.accessTokenSeconds;
  s.insertToken.run(sha256(access), connectionId, 'access', now, now + accessSeconds * 1000);
  s.insertToken.run(sha256(refresh), connectionId, 'refresh', now, now + ctx.config.mcp.refreshTokenDays * 86_400_000);
  return { access_token: access, token_type: 'Bearer', expires_in: accessSeconds, refresh_token: refresh, scope: grantOf(scope, null).scopes.join(' ') };
}

/** The token endpoint: grant_type=authorization_code or refresh_token. */
export async function grantTokens(ctx: AppContext, p: Record<string, string>, base: string): Promise<Issued> {
  if (p.grant_type === 'authorization_code') return exchangeCode(ctx, p, base);
  if (p.grant_type === 'refresh_token') return refresh(ctx, p, base);
  throw new OAuthFailure(400, 'unsupported_grant_type', 'grant_type must be authorization_code or refresh_token.');
}

/** grant_type=authorization_code. */
export async function exchangeCode(ctx: AppContext, p: Record<string, string>, base: string): Promise<Issued> {
  const s = mcpStore(ctx.db);
  for (const f of ['code', 'code_verifier', 'client_id']) {
    if (!p[f]) throw new OAuthFailure(400, 'invalid_request', `${f} is required.`);
  }
  if (!VERIFIER.test(p.code_verifier!))
    throw new OAuthFailure(400, 'invalid_request', 'code_verifier must be 43 to 128 characters of A-Z a-z 0-9 - . _ ~ (RFC 7636).');
  const resource = checkResource(ctx, base, p.resource);
  const now = ctx.clock.now();
  // A refusal that revokes is answered after the revocation commits (a throw would roll it back).
  return settled(
    await groupCommit(ctx.db, (): Issued | OAuthFailure => {
      const code = s.codeByHash.get(sha256(p.code!));
      if (!code) throw new OAuthFailure(400, 'invalid_grant', 'The authorization code is unknown.');
      if (code.used_at !== null) {
        // A code used twice was stolen or replayed: everything issued from it is revoked (RFC 6749 §4.1.2).
        s.revokeConnection.run(now, 'code_reused', code.connection_id);
        return new OAuthFailure(
          400,
          'invalid_grant',
          'The authorization code was already used, or spent by a wrong code_verifier; anything issued from it is revoked: authorize again.',
        );
      }
      if (code.expires_at <= now) throw new OAuthFailure(400, 'invalid_grant', 'The authorization code expired: authorize again.');
      if (code.client_id !== p.client_id) throw new OAuthFailure(400, 'invalid_grant', 'The authorization code was issued to another client.');
      if (p.redirect_uri) {
        if (code.redirect_uri !== p.redirect_uri)
          throw new OAuthFailure(400, 'invalid_grant', 'redirect_uri differs from the one of the authorization request.');
      } else {
        // OAuth 2.1: redirect_uri is required here only when the authorization request had one. A
        // client with a single registered URI may leave it out there (it is then that URI), so it may
        // leave it out here too; a client with several always names it.
        const client = s.clientById.get(code.client_id);
        const registered = client ? (JSON.parse(client.redirect_uris) as string[]) : [];
        if (registered.length !== 1) throw new OAuthFailure(400, 'invalid_request', 'redirect_uri is required: this client has several redirect URIs.');
        // A loopback URI at another port than registered (RFC 8252 §7.3) was named there, so it is named here.
        if (registered[0] !== code.redirect_uri)
          throw new OAuthFailure(400, 'invalid_request', 'redirect_uri is required: the authorization request named one (another port than registered).');
      }
      if (code.resource !== resource) throw new OAuthFailure(400, 'invalid_target', 'resource differs from the one of the authorization request.');
      if (s256(p.code_verifier!) !== code.code_challenge) {
        // A failed PKCE check spends the code (RFC 9700's single-use codes): the holder of a stolen
        // code gets one guess at the verifier, not as many as it likes. Its connection never got a
        // token and never will: it is revoked with it, so it is not listed as linked.
        s.useCode.run(now, code.code_hash);
        s.revokeConnection.run(now, 'pkce_failed', code.connection_id);
        return new OAuthFailure(400, 'invalid_grant', 'code_verifier does not match the code_challenge (PKCE S256); the code is spent: authorize again.');
      }
      s.useCode.run(now, code.code_hash);
      const conn = liveConnection(ctx, code.connection_id);
      if (!conn) throw new OAuthFailure(400, 'invalid_grant', 'The board key this code was approved with is no longer valid.');
      return issue(ctx, code.connection_id, conn.scope);
    }),
  );
}

function settled(result: Issued | OAuthFailure): Issued {
  if (result instanceof OAuthFailure) throw result;
  return result;
}

/** The connection when it and its account's key are still good. */
function liveConnection(ctx: AppContext, connectionId: string) {
  const s = mcpStore(ctx.db);
  const conn = s.connectionById.get(connectionId);
  if (!conn || conn.revoked_at !== null || !accountHoldingKey(ctx, conn.account_id, conn.key_hash)) return null;
  return conn;
}

/** grant_type=refresh_token: rotated on use; a used one presented again revokes the family. */
export async function refresh(ctx: AppContext, p: Record<string, string>, base: string): Promise<Issued> {
  const s = mcpStore(ctx.db);
  if (!p.refresh_token) throw new OAuthFailure(400, 'invalid_request', 'refresh_token is required.');
  if (!p.client_id) throw new OAuthFailure(400, 'invalid_request', 'client_id is required.');
  // RFC 8707 §2.2: on a refresh, resource may be left out (the grant's own, /mcp, is kept); one sent must be /mcp.
  if (p.resource !== undefined) checkResource(ctx, base, p.resource);
  const now = ctx.clock.now();
  return settled(
    await groupCommit(ctx.db, (): Issued | OAuthFailure => {
      const t = s.tokenByHash.get(sha256(p.refresh_token!));
      if (t?.kind !== 'refresh') throw new OAuthFailure(400, 'invalid_grant', 'The refresh token is unknown.');
      if (t.client_id !== p.client_id) throw new OAuthFailure(400, 'invalid_grant', 'The refresh token was issued to another client.');
      if (t.used_at !== null) {
        s.revokeConnection.run(now, 'refresh_reused', t.connection_id);
        return new OAuthFailure(
          400,
          'invalid_grant',
          'The refresh token was already used: every token of this connection is revoked. Link the assistant again.',
        );
      }
      if (t.token_revoked_at !== null || t.connection_revoked_at !== null)
        throw new OAuthFailure(400, 'invalid_grant', 'The connection was revoked: link the assistant again.');
      if (!accountHoldingKey(ctx, t.account_id, t.key_hash))
        throw new OAuthFailure(400, 'invalid_grant', 'The board key this connection was linked with is no longer valid.');
      if (t.expires_at <= now) throw new OAuthFailure(400, 'invalid_grant', 'The refresh token expired: link the assistant again.');
      s.useRefresh.run(now, t.token_hash);
      return issue(ctx, t.connection_id, t.scope);
    }),
  );
}

/** RFC 7009: always 200 for a well-formed request; a refresh token takes its whole connection with it. */
export async function revoke(ctx: AppContext, p: Record<string, string>): Promise<void> {
  if (!p.token) throw new OAuthFailure(400, 'invalid_request', 'token is required.');
  const s = mcpStore(ctx.db);
  const now = ctx.clock.now();
  await groupCommit(ctx.db, () => {
    const t = s.tokenByHash.get(sha256(p.token!));
    // Another client's token is left alone (and the answer says nothing about it).
    if (!t || (p.client_id && p.client_id !== t.client_id)) return;
    if (t.kind === 'refresh') s.revokeConnection.run(now, 'revoked_by_client', t.connection_id);
    else s.revokeToken.run(now, t.token_hash);
  });
}

export interface Bearer {
  account: Account;
  connectionId: string;
  clientId: string;
  token: string;
  expiresAt: number;
  /** What the person granted: the scopes and toolsets the token's tools are limited to. */
  grant: Grant;
}

/** last_used_at is kept to the minute: a token used again within it writes nothing. */
const TOUCH_MS = 60_000;

/**
 * How long a token's lookup is trusted without asking the database again when this process wrote
 * nothing meanwhile: a revocation made by another process (`svc admin` beside the server) is seen
 * within it; one made through this process (revoking a connection or a key, a refresh token's
 * reuse) by the very next call.
 */
export const BEARER_WINDOW_MS = 250;
/** The window in force (tests set it; the service keeps BEARER_WINDOW_MS). */
export const bearerWindow = { ms: BEARER_WINDOW_MS };
const LOOKUPS_KEPT = 4096;

/** A token's row (null: unknown), its account while the connection's key still works (else null) and grant, as last read. */
interface Lookup {
  t: TokenRow | null;
  account: Account | null;
  grant: Grant | null;
}

/**
 * The token lookups of one database, kept while this connection wrote nothing (SQLite's
 * total_changes(), no transaction) and for at most BEARER_WINDOW_MS of monotonic time: the two
 * statements of a bearer check (the token with its connection, and the account holding the key) cost more than the rest of an
 * MCP tool call's own work. What moves with the clock (expiry, last_used_at) is checked every call.
 */
const lookupsOf = perDatabase((db) => ({
  stale: rereadAfterWrites(() => mcpStore(db).changes.get()!.n, { windowMs: () => bearerWindow.ms }),
  rows: new Map<string, Lookup>(),
}));

function lookupToken(ctx: AppContext, token: string): Lookup {
  const s = mcpStore(ctx.db);
  const kept = lookupsOf(ctx.db);
  if (kept.stale() || kept.rows.size >= LOOKUPS_KEPT) kept.rows.clear();
  // Kept by the token's hash, as stored: any token sent, however long, costs 64 characters here.
  const hash = sha256(token);
  let found = kept.rows.get(hash);
  if (!found) {
    const t = s.tokenByHash.get(hash);
    const account = t ? accountHoldingKey(ctx, t.account_id, t.key_hash) : null;
    found = { t, account, grant: t ? grantOf(t.scope, t.toolsets) : null };
    kept.rows.set(hash, found);
  }
  return found;
}

/** The /mcp bearer check: an access token of this resource, unexpired, unrevoked, its key still good. */
export function checkBearer(ctx: AppContext, authorization: string | null): Bearer | { error: 'missing' | 'invalid'; description: string } {
  const m = authorization?.match(/^Bearer\s+(\S+)\s*$/i);
  if (!m) return { error: 'missing', description: 'This endpoint needs an OAuth access token: follow resource_metadata in WWW-Authenticate.' };
  const token = m[1]!;
  const { t, account, grant } = lookupToken(ctx, token);
  const now = ctx.clock.now();
  if (t?.kind !== 'access') return { error: 'invalid', description: 'The access token is unknown.' };
  if (t.expires_at <= now) return { error: 'invalid', description: 'The access token expired: refresh it.' };
  if (t.token_revoked_at !== null || t.connection_revoked_at !== null) return { error: 'invalid', description: 'The access token was revoked.' };
  if (!account) return { error: 'invalid', description: 'The board key this connection was linked with is no longer valid.' };
  if (!isOwnResource(ctx, t.resource)) return { error: 'invalid', description: 'The access token was issued for another resource.' };
  // When the connection was last used: written later, in the next group commit (never a commit of the request's own).
  if (t.last_used_at === null || now - t.last_used_at >= TOUCH_MS)
    commitLater(ctx.db, () => mcpStore(ctx.db).touchConnection.run(now, t.connection_id), 'mcp_connection_seen');
  return { account, connectionId: t.connection_id, clientId: t.client_id, token, expiresAt: t.expires_at, grant: grant! };
}

/** The agent's live connections (one per approval), newest first. */
export function connectionsOf(ctx: AppContext, accountId: string) {
  return mcpStore(ctx.db)
    .connectionsOf.all(accountId)
    .map((c) => ({
      id: c.id,
      client_id: c.client_id,
      client_name: c.client_name,
      client_uri: c.client_uri,
      scope: grantOf(c.scope, c.toolsets).scopes.includes(WRITE) ? ('board:read board:write' as const) : ('board:read' as const),
      toolsets: grantOf(c.scope, c.toolsets).toolsets,
      created_at: iso(c.created_at),
      last_used_at: c.last_used_at === null ? null : iso(c.last_used_at),
    }));
}

/** The agent revokes one of its connections: every token of it stops working at once. */
export function revokeConnectionOf(ctx: AppContext, accountId: string, id: string) {
  const s = mcpStore(ctx.db);
  const conn = s.connectionOf.get(id.toLowerCase(), accountId);
  if (!conn || conn.revoked_at !== null) fail('NOT_FOUND', { connection_id: id }, 'No live connection with that id is yours.');
  const now = ctx.clock.now();
  s.revokeConnection.run(now, 'revoked_by_agent', conn.id);
  return { connection_id: conn.id, revoked: true as const, revoked_at: iso(now) };
}
