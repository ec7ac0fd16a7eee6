// The lab allowance: a number of projects (pages) held at once and a number of publishes per UTC
// day. Every lab response carries the caller's allowance as `quota`.
import * as v from 'valibot';
import { iso, nextUtcMidnight } from '../../clock.ts';
import type { AppContext } from '../../context.ts';
import { consumeDaily, usedToday } from '../../quota/daily.ts';
import { accountOf } from '../../http/auth.ts';
import { ApiError, failRetry } from '../../http/errors.ts';
import { labStore } from './store.ts';

// Fixed until the service gains lab settings (config is not this feature's to extend).
const LAB_PROJECTS_LIMIT = 5;
const LAB_PUBLISHES_PER_DAY = 20;
const LAB_PUBLISH_CHANNEL = 'lab_publish';

const count = (description: string) => v.pipe(v.number(), v.integer(), v.minValue(0), v.description(description));

/** The caller's lab allowance, carried by every lab answer (refusals too, in details.quota). */
export const LabQuotaSchema = v.pipe(
  v.strictObject({
    projects_limit: count('Pages one agent may hold at once.'),
    projects_used: count('Pages held now.'),
    publishes_per_day: count('Publishes per UTC day.'),
    publishes_used: count('Publishes taken today (a refused or failed publish costs none; a delete gives none back).'),
    publishes_remaining: count('Publishes left today.'),
    resets_at: v.pipe(v.string(), v.isoTimestamp(), v.description('The next UTC midnight, when publishes_used starts again from 0.')),
  }),
  v.description('Your lab allowance.'),
);

type LabQuota = v.InferOutput<typeof LabQuotaSchema>;

export function labQuota(ctx: AppContext, accountId: string): LabQuota {
  const now = ctx.clock.now();
  const used = usedToday(ctx.db, accountId, LAB_PUBLISH_CHANNEL, now);
  return {
    projects_limit: LAB_PROJECTS_LIMIT,
    projects_used: labStore(ctx.db).countOfOwner.get(accountId)?.n ?? 0,
    publishes_per_day: LAB_PUBLISHES_PER_DAY,
    publishes_used: used,
    publishes_remaining: Math.max(0, LAB_PUBLISHES_PER_DAY - used),
    resets_at: iso(nextUtcMidnight(now)),
  };
}

/**
 * Refuses a publish the allowance cannot cover. A new project past the limit waits for a delete,
 * not for time: retry_at is then the next daily reset, the earliest moment worth asking again.
 */
export function checkLabQuota(ctx: AppContext, accountId: string, isNewProject: boolean): void {
  const q = labQuota(ctx, accountId);
  const now = ctx.clock.now();
  if (isNewProject && q.projects_used >= q.projects_limit) {
    failRetry('LAB_QUOTA', nextUtcMidnight(now), now, { reason: 'projects', quota: q });
  }
  if (q.publishes_remaining <= 0) failRetry('LAB_QUOTA', nextUtcMidnight(now), now, { reason: 'publishes', quota: q });
}

/** Takes one publish inside the publish transaction: a refused or failed publish costs nothing. */
export function consumeLabPublish(ctx: AppContext, accountId: string): void {
  consumeDaily(ctx.db, { accountId, channel: LAB_PUBLISH_CHANNEL, limit: LAB_PUBLISHES_PER_DAY, now: ctx.clock.now(), code: 'LAB_QUOTA' });
}

/**
 * Every lab answer carries the caller's allowance, refusals included (in details.quota); it is the
 * caller's own state, so no cache keeps it. This covers what the handler answers or throws; a
 * write's refusals raised before its handler runs get theirs from quotaOnRefusals.
 */
export function withLabQuota<T>(ctx: AppContext, accountId: string, set: { headers: Record<string, unknown> }, fn: () => T): T {
  set.headers['cache-control'] = 'no-store';
  try {
    const out = fn();
    if (out instanceof Promise)
      return out.catch((e) => {
        throw addQuota(ctx, accountId, e);
      }) as T;
    return out;
  } catch (e) {
    throw addQuota(ctx, accountId, e);
  }
}

function addQuota(ctx: AppContext, accountId: string, e: unknown): unknown {
  if (!(e instanceof ApiError) || (e.details && 'quota' in e.details)) return e;
  const err = new ApiError(e.code, { ...e.details, quota: labQuota(ctx, accountId) }, e.message);
  err.headers = e.headers;
  return err;
}

// Requests whose key has been checked (the route's transform runs with the `auth` option's): from
// there on the caller is known, and its refusals carry its allowance.
const keyChecked = new WeakSet<Request>();
const refusalHooks = new WeakSet<object>();

/** Whether `fn` is quotaOnRefusals's answer hook (test/lab/pages/quota-everywhere.test.ts holds every lab write to it). */
export const isQuotaOnRefusals = (fn: unknown): boolean => typeof fn === 'function' && refusalHooks.has(fn);

/**
 * Route options for a lab write (PUT, DELETE), so that the refusals raised outside its handler
 * carry `quota` too: the body's validation (LAB_INVALID, LAB_TOO_LARGE, LAB_BAD_PATH from the
 * schema), a stopped residency, and any such check added later. The shared error hook answers
 * them; `mapResponse` adds details.quota to that answer where it is missing, once the key was
 * checked. Refusals before the key check (browser shape, protocol header, Accept, the body's
 * framing and size, unknown members, 401) come before the caller is known, and carry none.
 * The reads need none of this: nothing after their key check can fail outside the handler
 * (test/lab/pages/quota-everywhere.test.ts holds every lab route to that), and a read with a hook
 * of its own would lose the MCP server's direct call (src/mcp/dispatch.ts).
 */
export function quotaOnRefusals(ctx: AppContext) {
  const hooks = {
    transform({ request }: { request: Request }) {
      keyChecked.add(request);
    },
    async mapResponse({ request, response }: { request: Request; response: unknown }) {
      if (!(response instanceof Response) || response.status < 400 || !keyChecked.has(request)) return undefined;
      let accountId: string;
      try {
        accountId = accountOf(ctx, request).id;
      } catch {
        return undefined; // the key was refused (401): no caller, no allowance
      }
      return withQuotaIn(ctx, accountId, response);
    },
  };
  refusalHooks.add(hooks.mapResponse);
  return hooks;
}

/** The error envelope `res` with details.quota added, or undefined to keep it as it is. */
async function withQuotaIn(ctx: AppContext, accountId: string, res: Response): Promise<Response | undefined> {
  if (!(res.headers.get('content-type') ?? '').startsWith('application/json')) return undefined;
  try {
    const body = JSON.parse(await res.clone().text()) as { error?: { details?: Record<string, unknown> } };
    const error = body?.error;
    if (typeof error !== 'object' || error === null || (error.details && 'quota' in error.details)) return undefined;
    error.details = { ...error.details, quota: labQuota(ctx, accountId) };
    const headers = new Headers(res.headers);
    headers.delete('content-length');
    return new Response(JSON.stringify(body), { status: res.status, statusText: res.statusText, headers });
  } catch {
    return undefined; // not an envelope, or the allowance could not be read: the answer stands as it is
  }
}
