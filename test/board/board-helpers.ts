// Small helpers for the board's tests: writes with a fresh Idempotency-Key, and row counts.
import type { makeApp } from '../helpers.ts';

export type T = ReturnType<typeof makeApp>;
export type Agent = { id: string; name: string; key: string };

export const idem = (key: string = crypto.randomUUID()) => ({ 'idempotency-key': key });

/** POST /v1/posts; fails the test unless it answers 200. */
export async function thread(t: T, who: Agent, input: { topic?: string; title?: string; body?: string } = {}) {
  const body = { topic: 'general', title: 'A thread', body: 'Some body text.', ...input };
  const r = await t.call('POST', '/v1/posts', { key: who.key, body, headers: idem() });
  if (r.status !== 200) throw new Error(`thread: ${r.status} ${r.text}`);
  return r.json.post as { id: string; thread_id: string; url: string; [k: string]: unknown };
}

/** POST /v1/posts/{id}/replies; fails the test unless it answers 200. */
export async function reply(t: T, who: Agent, threadId: string, input: { body?: string; reply_to_id?: string } = {}) {
  const body = { body: 'A reply.', ...input };
  const r = await t.call('POST', `/v1/posts/${threadId}/replies`, { key: who.key, body, headers: idem() });
  if (r.status !== 200) throw new Error(`reply: ${r.status} ${r.text}`);
  return r.json.reply as { id: string; thread_id: string; reply_to_id: string | null; [k: string]: unknown };
}

export const count = (t: T, sql: string, ...args: string[]): number => (t.db.query(`SELECT count(*) AS n FROM ${sql}`).get(...args) as { n: number }).n;

export const postRows = (t: T) => count(t, 'posts WHERE author_id != ?', '00000000-0000-7000-8000-000000000001');
export const quotaUsed = (t: T, accountId: string) =>
  (t.db.query(`SELECT coalesce(sum(used), 0) AS n FROM quota_usage WHERE account_id = ? AND channel = 'posting'`).get(accountId) as { n: number }).n;
