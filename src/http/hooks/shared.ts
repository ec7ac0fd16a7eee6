// What the shared conventions' hooks (one a file, composed by ../plugin.ts) share for one app: the
// route tables they read the declared needs from, the client address, the request log, and what
// one hook leaves for another (the hot path's read-limit count, the error hook's answered set).
import type { Server } from 'bun';
import type { AppContext } from '../../context.ts';
import { clientAddress } from '../client.ts';
import { errorResponse } from '../error-answer.ts';
import { type ApiError, retryError } from '../errors.ts';
import { FamilyIndex } from '../families.ts';
import { memberGuard } from '../members.ts';
import { MethodIndex } from '../methods.ts';
import { answeredIn } from '../metrics.ts';
import type { DocumentCache } from '../public-cache.ts';
import { logRequest } from '../request-log.ts';
import { BudgetIndex } from '../route-needs.ts';

export type Routes = () => readonly { method: string; path: string; hooks?: unknown }[];

export interface Shared {
  ctx: AppContext;
  methods: MethodIndex;
  families: FamilyIndex;
  budgets: BudgetIndex;
  refuseUnknownMembers: ReturnType<typeof memberGuard>;
  /** Requests answered by the error hook: logged there once, with their real status. */
  answeredByError: WeakSet<Request>;
  /** The public document cache, opened on first use. */
  documents: DocumentCache | undefined;
  /**
   * Bun's server, for the client address (server.requestIP): the hot path runs before Elysia's
   * context exists, so it keeps the one the first routed request saw (none under app.handle).
   */
  server: Server<unknown> | null;
  /** Requests the hot path already counted against the read limit before it stepped aside. */
  limitCounted: WeakSet<Request>;
  /** The client's address for the read limit: the socket's, from Bun, unless a trusted proxy's X-Forwarded-For names it. */
  clientOf(request: Request): string;
  /** logRequest with the client's address as the limits see it (unless SVC_LOG_ADDRESSES=0). */
  log(request: Request, status: number, code?: string, at?: number): void;
  limitError(retryAt: number, now: number): ApiError;
  /** An error answered before Elysia saw the request: logged and counted as the error hook does. */
  refuseHere(request: Request, err: ApiError, family: string, at: number): Response;
}

export function sharedState(ctx: AppContext, routes: Routes): Shared {
  const limits = ctx.limiters.publicReads;
  const trustProxy = ctx.config.trustProxy;
  /** The socket's address, from Bun (a getpeername system call each time: the hot path's largest fixed cost). */
  const socketAddress = (request: Request): string => shared.server?.requestIP(request)?.address ?? 'local';
  const shared: Shared = {
    ctx,
    methods: new MethodIndex(routes),
    families: new FamilyIndex(routes),
    budgets: new BudgetIndex(routes),
    refuseUnknownMembers: memberGuard(routes),
    answeredByError: new WeakSet(),
    documents: undefined,
    server: null,
    limitCounted: new WeakSet(),
    clientOf: (request) => (trustProxy ? clientAddress(request, () => socketAddress(request), true) : socketAddress(request)),
    log: (request, status, code, at) => logRequest(request, status, code, { client: ctx.config.logAddresses ? shared.clientOf(request) : undefined, at }),
    limitError: (retryAt, now) => retryError('EDGE_RATE_LIMIT', retryAt, now, { limit: limits.limit, window_seconds: 60 }),
    refuseHere(request, err, family, at) {
      if (ctx.config.logRequests !== 'off') shared.log(request, err.status, err.code, at);
      answeredIn(family, err.status, at);
      return errorResponse(ctx, err, family, request);
    },
  };
  return shared;
}
