import { Elysia } from 'elysia';
import { type AppContext, seedOf } from '../context.ts';
import { fail } from './errors.ts';
import { routeNeeds } from './route-needs.ts';

/**
 * The account a request acts as. This floor needs only its residency; the accounts domain declares
 * the rest (`interface Principal extends Account {}`), so routes get the whole account.
 */
export interface Principal {
  residency_stopped_at: number | null;
}
type Account = Principal;

declare module '../context.ts' {
  interface Parts {
    /** The bearer key's account (401 UNAUTHORIZED when missing, malformed, unknown or revoked). */
    authenticate(ctx: AppContext, authorization: string | null): Principal;
  }
}

// The key is checked in `transform`, before the body and query are validated, so that a caller
// without a valid key learns "401: reload the key" first rather than fixing a body it cannot send.
const resolved = new WeakMap<Request, Account>();
// Requests built in this process on behalf of an account that was authenticated another way (a
// tool call over /mcp with an OAuth token linked to that agent). Keyed by the Request object
// itself, so nothing a client sends can claim a delegation.
const delegated = new WeakMap<Request, Account>();

/**
 * The request's account: its delegation, or its bearer key (401 when missing or unknown). Resolved
 * once per request: a route's own earlier check (outreach's gate) and the `auth` option share it.
 */
export function accountOf(ctx: AppContext, request: Request): Account {
  let account = resolved.get(request);
  if (!account) {
    account = delegated.get(request) ?? ctx.parts.authenticate(ctx, request.headers.get('authorization'));
    resolved.set(request, account);
  }
  return account;
}

/** Marks a request built in-process as made by `account`. The caller vouches for the account: it must have checked it is live and its key not revoked (src/mcp does, on every token use). */
export function delegate(request: Request, account: Account): Request {
  delegated.set(request, account);
  return request;
}

// The functions the `auth` option adds to a route, by the hook they fill: an in-process caller that
// runs a read's handler itself (src/mcp's tool calls) recognises a route whose only hooks of its
// own are these, and resolves the account as `resolve` would (a read: no residency check).
const authHooks = new WeakMap<object, 'transform' | 'resolve'>();

/** Which hook of the `auth` option `fn` is, or null when it is none of them. */
export const authHookOf = (fn: unknown): 'transform' | 'resolve' | null => (typeof fn === 'function' ? (authHooks.get(fn) ?? null) : null);

/**
 * The `auth` route option: resolves the bearer key to `account`. On a write (any method but GET)
 * a stopped residency refuses with 409, except where the route says `auth: 'always'` (revoking
 * one's own key must stay possible while stopped). It brings the other route options with it (a
 * route's body budget and family, route-needs.ts).
 */
export const authPlugin = (ctx: AppContext) =>
  new Elysia({ name: 'svc-auth', seed: seedOf(ctx) }).use(routeNeeds).macro({
    auth: (mode: true | 'always') => {
      const hooks = {
        transform({ request }: { request: Request }) {
          accountOf(ctx, request);
        },
        resolve({ request }: { request: Request }): { account: Account } {
          const account = accountOf(ctx, request);
          const isWrite = request.method !== 'GET' && request.method !== 'HEAD';
          if (isWrite && mode !== 'always' && account.residency_stopped_at !== null) {
            fail('RESIDENCY_STOPPED', { stopped_at: new Date(account.residency_stopped_at).toISOString() });
          }
          return { account };
        },
      };
      authHooks.set(hooks.transform, 'transform');
      authHooks.set(hooks.resolve, 'resolve');
      return hooks;
    },
  });
