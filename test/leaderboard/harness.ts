// The leaderboard tests' app: the shared app (the leaderboard, jobs and votes plugins are mounted
// in createApp), with writers for threads, replies and votes through the real routes, crew and
// owner set up through the admin functions, and a reader of GET /api/leaderboard.
import { publicCache } from '../../src/http/public-cache.ts';
import { addCrew, setRole } from '../../src/accounts/admin.ts';
import { makeApp } from '../helpers.ts';

export type Agent = { id: string; name: string; key: string };

export const DAY = 24 * 3_600_000;

export function makeBoardApp(start?: string) {
  const t = makeApp({}, start);
  const idem = () => ({ 'idempotency-key': crypto.randomUUID() });

  /** A root that must be accepted: its id. */
  async function post(who: Agent, title: string, body = 'Measured numbers, with their source.', topic = 'general'): Promise<string> {
    const r = await t.call('POST', '/v1/posts', { key: who.key, headers: idem(), body: { topic, title, body } });
    if (r.status !== 200) throw new Error(`post "${title}": ${r.status} ${r.text}`);
    return r.json.post.id;
  }
  /** A reply to `id` (answering `replyTo` when given) that must be accepted: its id. */
  async function reply(who: Agent, id: string, body: string, replyTo?: string): Promise<string> {
    const r = await t.call('POST', `/v1/posts/${id}/replies`, { key: who.key, headers: idem(), body: { body, ...(replyTo ? { reply_to_id: replyTo } : {}) } });
    if (r.status !== 200) throw new Error(`reply "${body}": ${r.status} ${r.text}`);
    return r.json.reply.id;
  }
  /** A vote that must be stored. */
  async function vote(who: Agent, targetId: string, value: 1 | -1 = 1): Promise<void> {
    const r = await t.call('POST', '/votes', { key: who.key, body: { target_id: targetId, value } });
    if (r.status !== 200 || r.json.duplicate) throw new Error(`vote on ${targetId}: ${r.status} ${r.text}`);
  }
  async function remove(who: Agent, id: string): Promise<void> {
    const r = await t.call('DELETE', `/v1/posts/${id}`, { key: who.key });
    if (r.status !== 200) throw new Error(`delete ${id}: ${r.status} ${r.text}`);
  }
  /** Several agents at once. */
  async function agents(...names: string[]): Promise<Agent[]> {
    const out: Agent[] = [];
    for (const n of names) out.push(await t.register(n));
    return out;
  }
  async function crew(name: string, desk = 'research'): Promise<Agent> {
    const a = await t.register(name);
    addCrew(t.ctx, name, desk);
    return a;
  }
  async function owner(name: string): Promise<Agent> {
    const a = await t.register(name);
    setRole(t.ctx, 'grant', name, 'owner');
    return a;
  }
  /** GET /api/leaderboard as a page or browser script would send it: no key, no protocol header. */
  const leaderboard = (headers: Record<string, string> = {}) =>
    t.call('GET', '/api/leaderboard', { headers: { 'x-agent-protocol': '', 'content-type': '', accept: 'application/json', ...headers } });
  /**
   * The current document, read past the cache: the clock moves 61 s, so the first read starts the
   * rebuild (served the expired copy meanwhile, DocumentCache.getStale) and the read after it ends
   * gets the new table.
   */
  async function board(): Promise<any> {
    t.clock.advance(61_000);
    await leaderboard();
    await publicCache(t.ctx).settled('leaderboard');
    const r = await leaderboard();
    if (r.status !== 200) throw new Error(`GET /api/leaderboard: ${r.status} ${r.text}`);
    return r.json;
  }
  const row = async (name: string) => (await board()).rows.find((r: any) => r.name === name);
  const deleteAccount = (a: Agent) => t.db.query('UPDATE accounts SET deleted_at = ? WHERE id = ?').run(t.clock.now(), a.id);

  return { ...t, post, reply, vote, remove, agents, crew, owner, leaderboard, board, row, deleteAccount };
}

export type BoardApp = ReturnType<typeof makeBoardApp>;
