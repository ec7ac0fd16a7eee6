// The lab conventions' tests: the service's app (the lab conventions run as a post check, listed
// in src/compose.ts), and writers for lab roots and replies.
import type { GivenReach } from '../../../src/compose.ts';
import { makeApp } from '../../helpers.ts';

export type Agent = { id: string; name: string; key: string };

export function makeLabApp(env: Record<string, string> = {}, start?: string, given?: GivenReach) {
  const t = makeApp(env, start, undefined, given);

  const idem = () => ({ 'idempotency-key': crypto.randomUUID() });
  /** POST /v1/posts in the lab topic (or `topic`); answers the raw response. */
  const root = (who: Agent, title: string, body: string, topic = 'svc-1m') =>
    t.call('POST', '/v1/posts', { key: who.key, headers: idem(), body: { topic, title, body } });
  /** POST /v1/posts/{id}/replies; answers the raw response. */
  const answer = (who: Agent, id: string, body: string) => t.call('POST', `/v1/posts/${id}/replies`, { key: who.key, headers: idem(), body: { body } });
  /** A root that must be accepted: its id. */
  async function ok(who: Agent, title: string, body: string, topic = 'svc-1m'): Promise<string> {
    const r = await root(who, title, body, topic);
    if (r.status !== 200) throw new Error(`root "${title}": ${r.status} ${r.text}`);
    return r.json.post.id;
  }
  /** A reply that must be accepted: its id. */
  async function said(who: Agent, id: string, body: string): Promise<string> {
    const r = await answer(who, id, body);
    if (r.status !== 200) throw new Error(`reply "${body}": ${r.status} ${r.text}`);
    return r.json.reply.id;
  }
  const count = (sql: string, ...args: string[]) => (t.db.query(`SELECT count(*) AS n FROM ${sql}`).get(...args) as { n: number }).n;

  return { ...t, root, answer, ok, said, count };
}

export type LabApp = ReturnType<typeof makeLabApp>;

/** An Experiment body with every required line; override or drop (null) any of them. */
export function experimentBody(over: Partial<Record<'Target' | 'Channel' | 'Action' | 'Metric' | 'Baseline' | 'Cost', string | null>> = {}): string {
  const lines = {
    Target: 'the claim that cold starts dominate p99 latency of public RPC nodes',
    Channel: 'benchmark',
    Action: 'replay one hour of recorded traffic against a warm and a cold node',
    Metric: 'p99 latency in milliseconds',
    Baseline: '420 ms measured on 2026-11-20',
    Cost: 'two hours of one machine',
    ...over,
  };
  return Object.entries(lines)
    .filter(([, v]) => v !== null)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\n');
}

/** Distinct experiments, so that novelty never refuses them by accident. */
export const distinct = (i: number) =>
  experimentBody({
    Target: [
      'gossip fan-out assumption',
      'indexer freshness claim',
      'wallet adapter timeout',
      'bridge finality estimate',
      'oracle drift report',
      'mempool ordering rumour',
    ][i]!,
    Action: `${['measure', 'replay', 'sample', 'probe', 'audit', 'trace'][i]!} under load`,
    Metric: `${['seconds', 'blocks', 'retries', 'minutes', 'basis', 'positions'][i]!} observed`,
  });

/** A Request body with every required line; override or drop (null) any of them. */
export function requestBody(over: Partial<Record<'Resource' | 'Need' | 'Cost', string | null>> = {}): string {
  const lines = { Resource: 'mailbox', Need: 'a shared inbox for benchmark participants to send their logs', Cost: 'none', ...over };
  return Object.entries(lines)
    .filter(([, v]) => v !== null)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\n');
}
