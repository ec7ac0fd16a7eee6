// A read's tool call without a second trip through the HTTP layer. The /mcp request already went
// through it (its own hooks, the bearer check, the body read); the route's own Request then made a
// second pass (request id, hooks, header parsing, a Response built and read back) that added
// nothing a read needs. For a GET agent route whose only hooks of its own are `auth`, the handler
// is run here with what that pass would give it: the path parameters and query the call was made
// of, run through the route's own schemas as the router runs them; the linked agent as `account`;
// the route's Request (marked as the agent's, src/http/auth.ts delegate), made if the handler reads
// it. Whatever this path would not answer exactly as the route would goes through the whole app
// instead, as every write does: a parameter or query its schemas refuse, a path another route
// would take, a handler that throws (its error answer, code and log line are the app's own; a read
// has nothing to undo), an answer that is not a JSON document with a 2xx status.
import { type AnyElysia, redirect, status } from 'elysia';
import type { AppContext } from '../context.ts';
import { authHookOf } from '../http/auth.ts';
import { clientAddress } from '../http/client.ts';
import { answeredIn } from '../http/metrics.ts';
import { logRequest } from '../http/request-log.ts';
import type { RouteAnswer } from './tool-calls.ts';
import type { ToolRoute } from './tools.ts';

type Json = Record<string, unknown>;
type Standard = { '~standard': { validate(value: unknown): unknown } };
type Hook = { fn?: unknown; scope?: string; subType?: string };
type ElysiaRoute = { method: string; path: string; handler: unknown; hooks?: Record<string, unknown> };

/** A read route whose handler a tool call runs itself. */
export interface DirectRead {
  handler: (c: Json) => unknown;
  params: Standard | null;
  query: Standard | null;
  /** The route's path as the router knows it (/v1/posts/:id). */
  routePath: string;
  /** Other GET routes that could take one of this route's concrete paths (a static one beside a parameter). */
  rivals: RegExp[];
}

const hooksIn = (hooks: Record<string, unknown>, name: string): Hook[] => {
  const h = hooks[name];
  return Array.isArray(h) ? (h as Hook[]) : h === undefined || h === null ? [] : [h as Hook];
};
const isStandard = (s: unknown): s is Standard => typeof s === 'object' && s !== null && '~standard' in s;
const patternOf = (path: string): RegExp =>
  new RegExp(
    `^${path
      .split('/')
      .map((seg) => (seg === '*' ? '.*' : seg.startsWith(':') ? '[^/]+' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/')}$`,
  );

/** Whether some concrete path matches both route patterns. */
function overlaps(a: string, b: string): boolean {
  const x = a.split('/');
  const y = b.split('/');
  for (let i = 0; ; i++) {
    if (x[i] === '*' || y[i] === '*') return true;
    if (i >= x.length || i >= y.length) return x.length === y.length;
    const p = x[i]!;
    const q = y[i]!;
    if (p !== q && !p.startsWith(':') && !q.startsWith(':')) return false;
  }
}

/**
 * Whether `r` is a route whose hooks are the shared conventions' (one each, global: the request,
 * transform, after-handle, after-response and error hooks of src/http/plugin.ts) and `auth`'s, and
 * nothing else: no other transform, resolve, before-handle, mapping, body, header, cookie or
 * response schema. Any more and the call goes through the whole app.
 */
function plainRead(r: ElysiaRoute): DirectRead['handler'] | null {
  const hooks = r.hooks ?? {};
  if (typeof r.handler !== 'function') return null;
  for (const k of ['body', 'headers', 'cookie', 'response', 'standaloneSchema', 'standaloneValidator'])
    if (hooks[k] !== undefined && hooks[k] !== null) return null;
  for (const k of ['mapResponse', 'trace', 'start', 'stop']) if (hooksIn(hooks, k).length) return null;
  if (hooksIn(hooks, 'request').length > 1) return null;
  for (const k of ['afterHandle', 'afterResponse', 'error']) {
    const hs = hooksIn(hooks, k);
    if (hs.length !== 1 || hs[0]!.scope !== 'global') return null;
  }
  const transform = hooksIn(hooks, 'transform');
  const globalTransforms = transform.filter((h) => h.scope === 'global');
  if (globalTransforms.length !== 1 || transform.some((h) => h.scope !== 'global' && authHookOf(h.fn) !== 'transform')) return null;
  if (hooksIn(hooks, 'beforeHandle').some((h) => authHookOf(h.fn) !== 'resolve')) return null;
  return r.handler as DirectRead['handler'];
}

/** Whether reads are run directly (tests compare both ways; the service keeps it on). */
export const directReads = { on: true };

const found = new WeakMap<AnyElysia, WeakMap<ToolRoute, DirectRead | null>>();

/** The direct read for a tool's route, or null when its calls go through the whole app. */
export function directReadOf(app: AnyElysia, route: ToolRoute): DirectRead | null {
  let known = found.get(app);
  if (!known) {
    known = new WeakMap();
    found.set(app, known);
  }
  let d = known.get(route);
  if (d !== undefined) return d;
  d = null;
  if (route.method === 'GET' && route.path.startsWith('/v1/')) {
    const routePath = route.path.replace(/\{([^}]+)\}/g, ':$1');
    const routes = app.routes as unknown as ElysiaRoute[];
    const r = routes.find((x) => x.method === 'GET' && x.path === routePath);
    const handler = r ? plainRead(r) : null;
    if (r && handler) {
      const params = r.hooks?.params ?? null;
      const query = r.hooks?.query ?? null;
      if ((params === null || isStandard(params)) && (query === null || isStandard(query))) {
        // A path without parameters is the router's exact match; one with parameters may be taken
        // by another route that also matches it (a static segment wins over a parameter).
        const rivals = routePath.includes(':')
          ? routes.filter((x) => x !== r && (x.method === 'GET' || x.method === 'ALL') && overlaps(x.path, routePath)).map((x) => patternOf(x.path))
          : [];
        d = { handler, params: params as Standard | null, query: query as Standard | null, routePath, rivals };
      }
    }
  }
  known.set(route, d);
  return d;
}

/**
 * What the route's handler gets for `value` (its path parameters or query): the schema's output, as
 * the router's validation gives it (defaults filled in, numbers made of digits); null when the
 * schema refuses it (the route's own pass answers the error), or there is no query schema and a
 * query was sent (the shared conventions refuse a query member a route does not declare).
 */
function validated(schema: Standard | null, value: Record<string, string>): Record<string, unknown> | null {
  if (schema === null) return Object.keys(value).length === 0 ? value : null;
  const result = schema['~standard'].validate(value) as { value?: unknown; issues?: unknown } | Promise<unknown>;
  if (result instanceof Promise || result.issues !== undefined) return null;
  return typeof result.value === 'object' && result.value !== null ? (result.value as Record<string, unknown>) : null;
}

const isPlainJson = (v: unknown): v is object => {
  if (typeof v !== 'object' || v === null) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null || Array.isArray(v);
};

/**
 * Runs a read's handler as its route would, or answers null: then the caller sends the request
 * through the whole app (nothing was counted or logged here).
 */
export async function readDirect(
  ctx: AppContext,
  app: AnyElysia,
  d: DirectRead,
  call: { request: Request; path: string; params: Record<string, string>; query: Record<string, string> },
  account: unknown,
): Promise<RouteAnswer | null> {
  for (const rival of d.rivals) if (rival.test(call.path)) return null;
  // Without a schema the route gets its parameters as the router decoded them.
  const params = d.params === null ? call.params : validated(d.params, call.params);
  // The query as the shared conventions hand it to a route (src/http/plugin.ts queryOf): no prototype.
  const query = params && validated(d.query, Object.assign(Object.create(null), call.query));
  if (!params || !query) return null;
  const at = performance.now();
  const set: { headers: Record<string, string>; status: number | string } = { headers: Object.create(null), status: 200 };
  const c: Json = {
    // The route's Request, made when the handler first reads it (tool-calls.ts toolRequest).
    get request() {
      return call.request;
    },
    store: app.store,
    params,
    query,
    body: undefined,
    set,
    route: d.routePath,
    path: call.path,
    get url() {
      return call.request.url;
    },
    status,
    redirect,
    cookie: {},
    account,
    get headers() {
      return call.request.headers.toJSON();
    },
    get server() {
      return app.server ?? null;
    },
  };
  let r: unknown;
  try {
    r = d.handler(c);
    if (r instanceof Promise) r = await r;
  } catch {
    return null;
  }
  let answer: RouteAnswer;
  if (r instanceof Response) {
    answer = { status: r.status, text: await r.text(), contentType: r.headers.get('content-type'), replayed: r.headers.get('idempotent-replayed') === 'true' };
  } else if (isPlainJson(r) && typeof set.status === 'number') {
    answer = {
      status: set.status,
      text: JSON.stringify(r),
      contentType: set.headers['content-type'] ?? 'application/json',
      replayed: set.headers['idempotent-replayed'] === 'true',
    };
  } else return null;
  if (answer.status < 200 || answer.status >= 300) return null;
  // Counted and logged as the route's own pass would count and log it: an agent request answered.
  answeredIn('agent', answer.status, at);
  if (ctx.config.logRequests === 'all') {
    // The client as the route pass's log names it (src/http/plugin.ts: no socket of its own in-process).
    const client = ctx.config.logAddresses ? clientAddress(call.request, 'local', ctx.config.trustProxy) : undefined;
    logRequest(call.request, answer.status, undefined, { at, client });
  }
  return answer;
}
