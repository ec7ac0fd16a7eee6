// The lab tests' app: the shared harness's setup with a data directory of its own (the lab's files
// live on disk). The lab publish route's larger body budget comes from the shared parser.
import { createApp } from '../../../src/app.ts';
import { ManualClock } from '../../../src/clock.ts';
import { type GivenReach, loadConfig, serviceContext } from '../../../src/compose.ts';
import { migrate } from '../../../src/db/migrate.ts';
import { openMemoryDatabase } from '../../../src/db/open.ts';
import { groupCommit } from '../../../src/db/group-commit.ts';
import { labPagesRoutes } from '../../../src/lab/pages/routes.ts';
import { AGENT_HEADERS, BASE, checkAnswersOf, readResponse } from '../../helpers.ts';
import { tempDir } from '../../temp.ts';

export function makeLabApp(start = '2026-11-23T12:00:00Z', given?: GivenReach) {
  const dataDir = tempDir('svc-lab-');
  const clock = new ManualClock(Date.parse(start));
  const config = loadConfig({ SVC_BASE_URL: 'http://svc.test', SVC_DATA_DIR: dataDir });
  const db = openMemoryDatabase();
  migrate(db);
  const ctx = serviceContext(config, db, clock, undefined, given);
  const app = createApp(ctx);
  if (!app.routes.some((r) => r.path === '/v1/lab/pages')) (app as unknown as { use(p: unknown): void }).use(labPagesRoutes(ctx));
  // Every answer is held to /openapi.json, as in the shared harness (the routes do not depend on
  // the data directory, so one description serves every lab app).
  checkAnswersOf(app, 'lab-pages-harness');

  async function call(method: string, path: string, opts: { key?: string; body?: unknown; headers?: Record<string, string> } = {}) {
    const headers: Record<string, string> = { ...AGENT_HEADERS, ...(opts.key ? { authorization: `Bearer ${opts.key}` } : {}), ...opts.headers };
    for (const [k, v] of Object.entries(headers)) if (v === '') delete headers[k];
    const body = opts.body === undefined ? undefined : JSON.stringify(opts.body);
    return readResponse(await app.handle(new Request(`${BASE}${path}`, { method, headers, body })));
  }

  /** A plain GET as a browser sends it (no agent headers), for the public addresses. */
  async function visit(path: string, headers: Record<string, string> = {}) {
    const res = await app.handle(new Request(`${BASE}${path}`, { headers: { accept: 'text/html', ...headers } }));
    return { status: res.status, headers: res.headers, text: await res.text() };
  }

  async function register(name: string, opts: { lab?: boolean } = { lab: true }) {
    const r = await call('POST', '/v1/agents', { body: { name } });
    if (r.status !== 200) throw new Error(`register ${name}: ${r.status} ${r.text}`);
    const id = r.json.agent.id as string;
    if (opts.lab !== false) db.query('INSERT INTO lab_allowed (account_id, added_at) VALUES (?, ?)').run(id, clock.now());
    return { id, name, key: r.json.api_key as string };
  }

  function publish(key: string, slug: string, body: unknown, idem: string = crypto.randomUUID()) {
    return call('PUT', `/v1/lab/pages/${slug}`, { key, body, headers: { 'idempotency-key': idem } });
  }

  /** Settles once the writes queued so far have committed (a page view's count, the sweep after a publish: both land in the next group commit). */
  const settled = () => groupCommit(db, () => undefined);

  return { app, ctx, clock, db, config, dataDir, call, visit, register, publish, settled };
}

export const html = (body: string, title = 'Tide tables') =>
  `<!doctype html><html><head><title>${title}</title><link rel="stylesheet" href="style.css"></head><body>${body}</body></html>`;
export const cleanSite = (extra: { path: string; content: string; encoding?: string }[] = []) => ({
  title: 'Tide tables',
  files: [
    { path: 'index.html', content: html('<h1>Tide tables</h1><p>A small calculator for tides.</p><script src="app.js"></script>') },
    { path: 'style.css', content: 'body { font-family: serif }' },
    { path: 'app.js', content: "document.querySelector('h1').title = 'tides'" },
    ...extra,
  ],
});
