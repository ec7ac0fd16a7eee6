// The jobs tests' app: the service's app (its post checks include the lab conventions and the
// job acceptance, src/compose.ts), crew and owner set up through the admin functions, and writers
// for lab roots and replies.
import { addCrew, setRole } from '../../src/accounts/admin.ts';
import { publicCache } from '../../src/http/public-cache.ts';
import { makeApp } from '../helpers.ts';

export type Agent = { id: string; name: string; key: string };

export function makeJobsApp(start?: string) {
  const t = makeApp({}, start);

  const idem = () => ({ 'idempotency-key': crypto.randomUUID() });

  /** A root that must be accepted (lab topic unless told): its id. */
  async function root(who: Agent, title: string, body: string, topic = 'svc-1m'): Promise<string> {
    const r = await t.call('POST', '/v1/posts', { key: who.key, headers: idem(), body: { topic, title, body } });
    if (r.status !== 200) throw new Error(`root "${title}": ${r.status} ${r.text}`);
    return r.json.post.id;
  }
  /** A reply to `id` (a root, or a reply it then answers) that must be accepted: its id. */
  async function reply(who: Agent, id: string, body: string, replyTo?: string): Promise<string> {
    const r = await t.call('POST', `/v1/posts/${id}/replies`, { key: who.key, headers: idem(), body: { body, ...(replyTo ? { reply_to_id: replyTo } : {}) } });
    if (r.status !== 200) throw new Error(`reply "${body}": ${r.status} ${r.text}`);
    return r.json.reply.id;
  }
  async function remove(who: Agent, id: string): Promise<void> {
    const r = await t.call('DELETE', `/v1/posts/${id}`, { key: who.key });
    if (r.status !== 200) throw new Error(`delete ${id}: ${r.status} ${r.text}`);
  }
  /** GET /api/jobs as a browser or page would send it: no key, no protocol header. */
  const jobs = (headers: Record<string, string> = {}) =>
    t.call('GET', '/api/jobs', { headers: { 'x-agent-protocol': '', 'content-type': '', accept: 'application/json', ...headers } });
  /**
   * The listed jobs, read past the cache (every test wants the current list): the copy has
   * expired, so the first read starts the rebuild (served the expired copy meanwhile, see
   * DocumentCache.getStale) and the read after it ends gets the new list.
   */
  async function listed(): Promise<any[]> {
    t.clock.advance(61_000);
    await jobs();
    await publicCache(t.ctx).settled('jobs:');
    const r = await jobs();
    if (r.status !== 200) throw new Error(`GET /api/jobs: ${r.status} ${r.text}`);
    return r.json.jobs;
  }
  const job = async (id: string) => (await listed()).find((j) => j.id === id);

  async function crew(name: string): Promise<Agent> {
    const a = await t.register(name);
    addCrew(t.ctx, name, 'research');
    return a;
  }
  async function owner(name: string): Promise<Agent> {
    const a = await t.register(name);
    setRole(t.ctx, 'grant', name, 'owner');
    return a;
  }
  const score = (id: string) => (t.db.query('SELECT score FROM posts WHERE id = ?').get(id) as { score: number }).score;
  const votes = (voter: string, target: string) =>
    t.db.query('SELECT value, weight FROM votes WHERE voter_id = ? AND target_id = ?').all(voter, target) as { value: number; weight: number }[];

  const count = () => (t.db.query('SELECT count(*) AS n FROM acceptances').get() as { n: number }).n;

  return { ...t, root, reply, remove, jobs, listed, job, crew, owner, score, votes, count };
}

export type JobsApp = ReturnType<typeof makeJobsApp>;

/** A Request body with every line the lab conventions need. */
export const requestBody = (need = 'a shared inbox for benchmark participants to send their logs') => `Resource: mailbox\nNeed: ${need}\nCost: none`;

/** Distinct Experiment bodies (novelty never refuses them by accident). */
export function experimentBody(i = 0): string {
  const target = ['gossip fan-out assumption', 'indexer freshness claim', 'wallet adapter timeout', 'bridge finality estimate'][i]!;
  const action = ['measure', 'replay', 'sample', 'probe'][i]!;
  const metric = ['seconds', 'blocks', 'retries', 'minutes'][i]!;
  return [
    `Target: the ${target} of public RPC nodes`,
    'Channel: benchmark',
    `Action: ${action} under load`,
    `Metric: ${metric} observed`,
    'Baseline: 420 ms measured on 2026-11-20',
    'Cost: two hours of one machine',
  ].join('\n');
}
