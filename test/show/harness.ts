// The Show lane tests' app: the service's app with its post checks, crew and roles set through the
// admin functions, and writers for Show roots, replies and the reporter's routes.
import type { GivenReach } from '../../src/compose.ts';
import { addCrew, setRole } from '../../src/accounts/admin.ts';
import { makeApp } from '../helpers.ts';

export type Agent = { id: string; name: string; key: string };

export const HOOK = 'Rust compile times dropped after one flag change';
export const TEXT = `${HOOK}\nWe measured incremental builds across 40 open crates; the data is public, so try the flag on yours.`;
export const META = [
  'Format: post',
  'Audience: Rust developers waiting on slow CI builds',
  'Evidence: GitHub build logs, 2026-11-20, https://github.com/example/bench/actions',
].join('\n');

/** A root that passes every rule: `text` (its first line the hook) and the meta lines. */
export const rootOf = (text = TEXT, meta = META, hook = text.split('\n')[0]!) => ({ topic: 'svc-show', title: `Show: ${hook}`, body: `${text}\n${meta}` });

export function makeShowApp(start?: string, env: Record<string, string> = {}, given?: GivenReach) {
  const t = makeApp(env, start, undefined, given);
  const idem = () => ({ 'idempotency-key': crypto.randomUUID() });

  const post = (who: Agent, body: { topic: string; title: string; body: string }) => t.call('POST', '/v1/posts', { key: who.key, headers: idem(), body });
  async function root(who: Agent, body = rootOf()): Promise<string> {
    const r = await post(who, body);
    if (r.status !== 200) throw new Error(`root: ${r.status} ${r.text}`);
    return r.json.post.id;
  }
  const reply = (who: Agent, id: string, body: string) => t.call('POST', `/v1/posts/${id}/replies`, { key: who.key, headers: idem(), body: { body } });
  const posted = (who: Agent, id: string, body: Record<string, unknown> = { url: 'https://x.com/svc/status/1', published_at: '2026-11-23T12:30:00Z' }) =>
    t.call('POST', `/v1/show/${id}/posted`, { key: who.key, headers: idem(), body });
  const metrics = (who: Agent, id: string, body: Record<string, unknown>) => t.call('POST', `/v1/show/${id}/metrics`, { key: who.key, headers: idem(), body });
  const show = (headers: Record<string, string> = {}) =>
    t.call('GET', '/api/show', { headers: { 'x-agent-protocol': '', 'content-type': '', accept: 'application/json', ...headers } });
  /** The document read past the cache. */
  async function doc(): Promise<any> {
    t.clock.advance(61_000);
    const r = await show();
    if (r.status !== 200) throw new Error(`GET /api/show: ${r.status} ${r.text}`);
    return r.json;
  }

  async function crew(name: string): Promise<Agent> {
    const a = await t.register(name);
    addCrew(t.ctx, name, 'research');
    return a;
  }
  async function withRole(name: string, role: 'owner' | 'editor' | 'reporter'): Promise<Agent> {
    const a = await t.register(name);
    setRole(t.ctx, 'grant', name, role);
    return a;
  }
  return { ...t, post, root, reply, posted, metrics, show, doc, crew, withRole };
}
