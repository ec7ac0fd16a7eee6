// Shared test harness: a fresh database and app per call, a manual clock, and request helpers
// that send the headers a plain agent client sends.
import { brotliDecompressSync } from 'node:zlib';
import { createApp } from '../src/app.ts';
import { ManualClock } from '../src/clock.ts';
import { type GivenReach, loadConfig, serviceContext } from '../src/compose.ts';
import type { Parts } from '../src/context.ts';
import { openMemoryDatabase } from '../src/db/open.ts';
import { migrate } from '../src/db/migrate.ts';
import { checkAnswer, describedRoutes } from './contract.ts';

export const BASE = 'http://localhost';
export const AGENT_HEADERS = { 'x-agent-protocol': 'svc/1', accept: 'application/json', 'content-type': 'application/json' };

/** A response as tests read it: status, headers, the text and its JSON (null when not JSON). */
export async function readResponse(res: Response) {
  const text = await res.text();
  let json: any = null;
  try {
    json = JSON.parse(text);
  } catch {}
  return { status: res.status, headers: res.headers, json, text };
}

/** An answer's text as a client reads it: a compressed answer (br, gzip) decoded first. */
function decodedText(coding: string | null, bytes: Uint8Array): string {
  if (bytes.byteLength === 0) return '';
  const plain = coding === 'br' ? brotliDecompressSync(bytes) : coding === 'gzip' ? Bun.gunzipSync(bytes as Uint8Array<ArrayBuffer>) : bytes;
  return new TextDecoder().decode(plain);
}

/**
 * Wraps app.handle so that every answer a test receives is checked against /openapi.json
 * (test/contract.ts): an answer the description does not promise fails the test that got it.
 */
export function checkAnswersOf(app: { handle(req: Request): Promise<Response> }, configKey: string): void {
  const handle = app.handle.bind(app);
  const described = () => describedRoutes(configKey, async () => (await handle(new Request(`${BASE}/openapi.json`))).json() as never);
  app.handle = async (req: Request) => {
    const res = await handle(req);
    const url = new URL(req.url);
    if (url.pathname === '/openapi.json') return res;
    const { routes } = await described();
    const text = decodedText(res.headers.get('content-encoding'), new Uint8Array(await res.clone().arrayBuffer()));
    checkAnswer(routes, req.method, url.pathname, res.status, res.headers.get('content-type'), text);
    return res;
  };
}

/**
 * A fresh app on a fresh in-memory database under a manual clock at `start`. `parts` replaces the
 * service's parts; `given` gives worker pools or outbound adapters of the test's own (a pool with a
 * tiny budget, a resolver naming a loopback server), the rest being the service's.
 */
export function makeApp(env: Record<string, string> = {}, start = '2026-11-23T12:00:00Z', parts?: Parts, given?: GivenReach) {
  const clock = new ManualClock(Date.parse(start));
  const config = loadConfig({ SVC_BASE_URL: 'http://svc.test', SVC_LOG_REQUESTS: 'off', ...env });
  const db = openMemoryDatabase();
  migrate(db);
  const ctx = serviceContext(config, db, clock, parts, given);
  const app = createApp(ctx);
  // The description depends on the settings and on the parts' declared codes.
  checkAnswersOf(app, JSON.stringify({ config, checks: ctx.parts.postChecks.map((c) => [c.name, c.codes]) }));

  async function call(method: string, path: string, opts: { key?: string; body?: unknown; raw?: string | Uint8Array; headers?: Record<string, string> } = {}) {
    const headers: Record<string, string> = { ...AGENT_HEADERS, ...(opts.key ? { authorization: `Bearer ${opts.key}` } : {}), ...opts.headers };
    for (const [k, v] of Object.entries(headers)) if (v === '') delete headers[k];
    const body = (opts.raw as BodyInit | undefined) ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body));
    return readResponse(await app.handle(new Request(`${BASE}${path}`, { method, headers, body })));
  }

  async function register(name: string) {
    const r = await call('POST', '/v1/agents', { body: { name } });
    if (r.status !== 200) throw new Error(`register ${name}: ${r.status} ${r.text}`);
    return { id: r.json.agent.id as string, name, key: r.json.api_key as string };
  }

  return { app, ctx, clock, db, config, call, register };
}
