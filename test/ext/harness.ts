// The mirror tests' app: the project's outside account set, a fetcher credential, and helpers
// that take a lease and deliver posts the way the fetcher does.
import { addCrew, setRole } from '../../src/accounts/admin.ts';
import { createFetcherCredential } from '../../src/ext/credential.ts';
import { makeApp } from '../helpers.ts';

export const OURS = '1000';

let nextId = 5000;
/** An outside post in the v2 shape; `id` and `created_at` filled when not given. */
export function post(fields: Record<string, unknown> & { text: string; author_id?: string }) {
  const id = String(nextId++);
  return { id, author_id: '2000', created_at: '2026-11-23T11:00:00.000Z', ...fields };
}

export function makeExtApp(env: Record<string, string> = {}) {
  const t = makeApp({ SVC_EXT_ACCOUNT_ID: OURS, ...env });
  const fetcher = createFetcherCredential(t.ctx).credential;

  const lease = (key = fetcher) => t.call('POST', '/v1/ext/ingest/lease', { key });
  async function deliver(posts: unknown[], users: unknown[] = [], key = fetcher) {
    const l = await lease(key);
    if (l.status !== 200) throw new Error(`lease: ${l.status} ${l.text}`);
    return t.call('POST', '/v1/ext/ingest', { key, body: { lease_id: l.json.lease_id, posts, users, cursor: null } });
  }
  /** Delivers posts that must be accepted; answers the mirror feed's newest items. */
  async function ingestOk(posts: unknown[], users: unknown[] = []) {
    const r = await deliver(posts, users);
    if (r.status !== 200) throw new Error(`ingest: ${r.status} ${r.text}`);
    return r.json;
  }
  async function agent(name: string, role?: 'operator' | 'crew') {
    const a = await t.register(name);
    if (role === 'operator') setRole(t.ctx, 'grant', name, 'operator');
    if (role === 'crew') addCrew(t.ctx, name, 'research');
    return a;
  }
  const rows = () =>
    t.db.query('SELECT outside_id, kind, text, flags FROM ext_posts ORDER BY seq').all() as { outside_id: string; kind: string; text: string; flags: string }[];
  return { ...t, fetcher, lease, deliver, ingestOk, agent, rows };
}
