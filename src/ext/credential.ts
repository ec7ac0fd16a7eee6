// The fetcher's service credential: `svcf_` + 40 base62 characters, shown once by
// `svc admin fetcher create`, stored only as a sha256 hash. It has its own prefix so that it can
// never pass as a board key (the board's key pattern refuses it before any lookup) and a board
// key can never pass as it: the ingest routes read only this table.
import { Elysia } from 'elysia';
import { hashKey, newApiKey } from '../accounts/keys.ts';
import { iso } from '../clock.ts';
import { type AppContext, seedOf } from '../context.ts';
import { newId } from '../clock.ts';
import { fail } from '../http/errors.ts';
import { extStore } from './store.ts';

export const FETCHER_PATTERN = /^svcf_[0-9A-Za-z]{40}$/;

/** Creates a fetcher credential; the credential is returned this once. */
export function createFetcherCredential(ctx: AppContext): { credential_id: string; credential: string; created_at: string } {
  const credential = `svcf_${newApiKey().slice(4)}`;
  const id = newId(ctx);
  const now = ctx.clock.now();
  const s = extStore(ctx.db);
  ctx.db.transaction(() => {
    s.insertCredential.run(id, hashKey(credential), now);
    s.audit.run(now, 'operator-cli', 'fetcher_created', null, JSON.stringify({ credential_id: id }));
  })();
  return { credential_id: id, credential, created_at: iso(now) };
}

/** The credential id of an Authorization header holding a live fetcher credential, or 401. */
export function authenticateFetcher(ctx: AppContext, authorization: string | null): string {
  const m = authorization?.match(/^Bearer\s+(\S+)\s*$/i);
  const key = m?.[1];
  if (!key) fail('UNAUTHORIZED', { reason: authorization ? 'malformed_authorization' : 'missing_key' });
  const message = 'The ingest routes take the fetcher credential only (svc admin fetcher create); board keys do not reach them.';
  if (!FETCHER_PATTERN.test(key)) fail('UNAUTHORIZED', { reason: 'fetcher_credential_required' }, message);
  const row = extStore(ctx.db).credentialByHash.get(hashKey(key));
  if (!row) fail('UNAUTHORIZED', { reason: 'unknown_key' }, message);
  return row.id;
}

// Checked in `transform`, before the body is validated, as the board's key is (src/http/auth.ts).
const resolved = new WeakMap<Request, string>();

/** The `fetcher` route option: resolves the credential to `fetcherId`. */
export const fetcherAuth = (ctx: AppContext) =>
  new Elysia({ name: 'ext-fetcher-auth', seed: seedOf(ctx) }).macro({
    fetcher: (_on: true) => ({
      transform({ request }) {
        resolved.set(request, authenticateFetcher(ctx, request.headers.get('authorization')));
      },
      resolve({ request }): { fetcherId: string } {
        return { fetcherId: resolved.get(request) ?? authenticateFetcher(ctx, request.headers.get('authorization')) };
      },
    }),
  });

/** `svc admin fetcher list`: every fetcher credential, newest first: its id and dates, never the credential or its hash. */
export function listFetcherCredentials(ctx: AppContext) {
  const rows = extStore(ctx.db).credentials.all();
  return {
    credentials: rows.map((r) => ({
      credential_id: r.id,
      created_at: iso(r.created_at),
      state: r.revoked_at === null ? ('active' as const) : ('revoked' as const),
      revoked_at: r.revoked_at === null ? null : iso(r.revoked_at),
    })),
  };
}

/**
 * `svc admin fetcher revoke CREDENTIAL_ID`: the credential stops at once (the ingest routes look up
 * live credentials only, so a lease it holds can no longer be used); revoking again changes nothing.
 */
export function revokeFetcherCredential(ctx: AppContext, id: string) {
  const s = extStore(ctx.db);
  const row = s.credentialById.get(id.toLowerCase());
  if (!row) fail('NOT_FOUND', { credential_id: id }, 'No fetcher credential has this id (svc admin fetcher list).');
  const changed = row.revoked_at === null;
  const at = changed ? ctx.clock.now() : row.revoked_at!;
  if (changed) s.revokeCredential.run(at, row.id);
  return { credential_id: row.id, revoked: true, revoked_at: iso(at), changed };
}
