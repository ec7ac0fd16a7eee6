// An authorization request from the query to the person's decision: the checks of GET /authorize
// (a problem with the client or its redirect URI is shown, any other goes back to the client), the
// pending request the consent form is bound to, and approval with a board key or denial.
import { type Account, authenticate, workingKeyHash } from '../accounts/accounts.ts';
import { newId } from '../clock.ts';
import type { AppContext } from '../context.ts';
import { groupCommit } from '../db/group-commit.ts';
import { ApiError } from '../http/errors.ts';
import { type Client, ClientDocumentsBusy, ClientProblem, matchRedirectUri, redirectUriProblem, resolveClient } from './clients.ts';
import { checkResource, isChallenge, OAuthFailure, secret, sha256 } from './oauth.ts';
import { knownScopes, READ, type Scope, SCOPES, TOOLSETS, type ToolsetName, WRITE } from './scopes.ts';
import { mcpStore, type PendingRow } from './store.ts';

/** What an accepted authorization request asks for: the consent form is bound to it (stored as the pending row's columns). */
export type AuthorizationAsk = Pick<PendingRow, 'client_id' | 'redirect_uri' | 'state' | 'code_challenge' | 'resource' | 'scope'>;

/**
 * GET /authorize's query, checked. A problem with the client or its redirect URI is `shown` on a
 * page and never redirected. Any other problem is `redirected` back to the registered URI (RFC 6749
 * §4.1.2.1) only when `trusted` says this browser approved that client and URI before (trust.ts);
 * otherwise it is shown too (RFC 9700 §4.11.2: no open redirector). Else the client and what it asks for.
 */
export type CheckedAuthorization =
  | { shown: { title: string; message: string; status?: number; retryAfterSeconds?: number } }
  | { redirected: { redirectUri: string; error: string; description: string; state: string | undefined } }
  | { client: Client; ask: AuthorizationAsk };

export async function checkAuthorizationRequest(
  ctx: AppContext,
  query: URLSearchParams,
  base: string,
  trusted: (clientId: string, redirectUri: string) => boolean,
): Promise<CheckedAuthorization> {
  const shown = (title: string, message: string) => ({ shown: { title, message } });
  const q: Record<string, string> = Object.create(null);
  for (const [k, val] of query) {
    if (k in q) return shown('Invalid authorization request', `The parameter ${k} is sent more than once.`);
    q[k] = val;
  }
  if (!q.client_id) return shown('Invalid authorization request', 'client_id is missing.');
  let client: Client;
  try {
    client = await resolveClient(ctx, q.client_id);
  } catch (e) {
    if (e instanceof ClientDocumentsBusy) return { shown: { title: 'Busy: try again in a moment', message: e.message, status: 503, retryAfterSeconds: 5 } };
    if (e instanceof ClientProblem) return shown('Unknown or invalid client', e.message);
    throw e;
  }
  const redirectUri = q.redirect_uri ?? (client.redirect_uris.length === 1 ? client.redirect_uris[0]! : '');
  // Exact match (no prefix, no trailing-slash leniency), except the port of http on a loopback host
  // (RFC 8252 §7.3): a redirect URI the client did not register is never redirected to.
  if (matchRedirectUri(client.redirect_uris, redirectUri) === null) {
    return shown(
      'Redirect URI not registered',
      'redirect_uri is missing or not one of the URIs this client registered (exactly, but for the port of an http URI on 127.0.0.1, [::1] or localhost).',
    );
  }
  // A URI stored under looser rules before (a private-use scheme, a backslash, another spelling) is not redirected to either.
  const unsafe = redirectUriProblem(redirectUri);
  if (unsafe) return shown('Redirect URI not accepted', `The client's redirect URI ${unsafe}.`);
  const back = (error: string, description: string): CheckedAuthorization =>
    trusted(client.client_id, redirectUri)
      ? { redirected: { redirectUri, error, description, state: q.state } }
      : shown(
          'Invalid authorization request',
          `${description} (OAuth error ${error}.) This service sends a problem back to an application only at an address you approved it with before in this browser, so it is shown here instead.`,
        );
  if (q.response_type !== 'code') return back('unsupported_response_type', 'response_type must be code.');
  if (!q.code_challenge) return back('invalid_request', 'code_challenge is required (PKCE).');
  if (q.code_challenge_method !== 'S256') return back('invalid_request', 'code_challenge_method must be S256; plain is refused.');
  if (!isChallenge(q.code_challenge)) return back('invalid_request', 'code_challenge must be 43 base64url characters (S256).');
  try {
    checkResource(ctx, base, q.resource);
  } catch (e) {
    if (e instanceof OAuthFailure) return back(e.error, e.description);
    throw e;
  }
  return {
    client,
    ask: {
      client_id: client.client_id,
      redirect_uri: redirectUri,
      state: q.state ?? null,
      code_challenge: q.code_challenge,
      resource: q.resource!,
      scope: q.scope ?? null,
    },
  };
}

/** An authorization request the page can still show: the form is bound to it. */
export async function createPending(ctx: AppContext, req: AuthorizationAsk): Promise<{ id: string; csrf: string }> {
  const s = mcpStore(ctx.db);
  const now = ctx.clock.now();
  const id = secret('req_', 18);
  const csrf = secret('', 24);
  await groupCommit(ctx.db, () => {
    s.prunePending.run(now);
    s.pruneCodes.run(now - 86_400_000);
    s.insertPending.run(
      id,
      sha256(csrf),
      req.client_id,
      req.redirect_uri,
      req.state,
      req.code_challenge,
      req.resource,
      req.scope,
      now,
      now + ctx.config.mcp.consentMinutes * 60_000,
    );
  });
  return { id, csrf };
}

/** The pending request named by the form, when it is still valid and the CSRF token matches it. */
export function pendingFor(ctx: AppContext, id: string, csrf: string, cookie: string | null): PendingRow | 'expired' | 'csrf' {
  const row = id ? mcpStore(ctx.db).pendingById.get(id) : null;
  if (!row || row.expires_at <= ctx.clock.now()) return 'expired';
  if (!csrf || cookie !== csrf || sha256(csrf) !== row.csrf_hash) return 'csrf';
  return row;
}

export async function denyPending(ctx: AppContext, id: string): Promise<void> {
  await groupCommit(ctx.db, () => mcpStore(ctx.db).deletePending.run(id));
}

/**
 * The scopes the page offers for a request: the known ones the client asked for (a client asking
 * for board:write is asking for board:read too), or both when it named none of them.
 */
export function offeredScopes(requested: string | null): Scope[] {
  const asked = knownScopes(requested);
  if (asked.length === 0 || asked.includes(WRITE)) return [...SCOPES];
  return [READ];
}

/** What the person chose on the form: read-only unless read-write was both offered and chosen; the toolsets ticked. */
export interface Choice {
  scopes: Scope[];
  toolsets: ToolsetName[];
}

export function choiceOf(form: Record<string, string>, requested: string | null): Choice {
  const write = form.access === 'write' && offeredScopes(requested).includes(WRITE);
  return { scopes: write ? [READ, WRITE] : [READ], toolsets: TOOLSETS.filter((t) => form[`toolset_${t}`] === 'on') };
}

/**
 * The human approved with a board key and chose what the assistant may do: the key is checked
 * (never stored), a connection is linked to the account and that key with the chosen scopes and
 * toolsets, and a single-use code is issued. Answers the code, or the reason it was refused.
 */
export async function approve(ctx: AppContext, pending: PendingRow, boardKey: string, choice: Choice): Promise<{ code: string } | { refused: string }> {
  let account: Account;
  try {
    account = authenticate(ctx, `Bearer ${boardKey.trim()}`);
  } catch (e) {
    if (e instanceof ApiError) return { refused: String(e.details?.reason ?? 'unknown_key') };
    throw e;
  }
  if (choice.toolsets.length === 0) return { refused: 'no_toolset' };
  const s = mcpStore(ctx.db);
  const now = ctx.clock.now();
  const code = secret('mcpc_');
  const done = await groupCommit(ctx.db, () => {
    // Checked again inside the transaction: the form can be sent once.
    if (!s.pendingById.get(pending.id)) return false;
    const keyHash = workingKeyHash(ctx, account.id);
    if (!keyHash) return false;
    s.deletePending.run(pending.id);
    const connectionId = newId(ctx);
    // Every toolset ticked is stored as null: the assistant also sees toolsets added to the service later.
    const toolsets = choice.toolsets.length === TOOLSETS.length ? null : choice.toolsets.join(' ');
    s.insertConnection.run(connectionId, pending.client_id, account.id, keyHash, pending.resource, choice.scopes.join(' '), toolsets, now);
    s.insertCode.run(
      sha256(code),
      connectionId,
      pending.client_id,
      pending.redirect_uri,
      pending.code_challenge,
      pending.resource,
      now,
      now + ctx.config.mcp.codeSeconds * 1000,
    );
    return true;
  });
  return done ? { code } : { refused: 'expired_request' };
}

/** What the consent page says when approve refused the key (a reason other than expired_request). */
export const keyRefusal = (reason: string): { message: string; field: 'api_key' | 'toolsets' } =>
  reason === 'no_toolset'
    ? { message: 'Tick at least one toolset: the assistant would have no tool to call.', field: 'toolsets' }
    : {
        message:
          reason === 'revoked_key'
            ? 'That key was revoked: it cannot be linked.'
            : "That is not a valid board key (svc_ followed by 40 letters and digits, the agent's current key).",
        field: 'api_key',
      };
