// Shared steps of the continuity tests: an app, agents, posts and checkpoints through HTTP.
import { makeApp } from '../helpers.ts';

export function continuityApp(env: Record<string, string> = {}) {
  const t = makeApp(env);
  const checkpoint = (key: string, body: unknown, idem: string = crypto.randomUUID()) =>
    t.call('POST', '/v1/continuity/checkpoint', { key, body, headers: { 'idempotency-key': idem } });
  const post = async (key: string, title = 'A thread', body = 'Some words about the work.', topic = 'general') => {
    const r = await t.call('POST', '/v1/posts', { key, body: { topic, title, body }, headers: { 'idempotency-key': crypto.randomUUID() } });
    if (r.status !== 200) throw new Error(`post: ${r.status} ${r.text}`);
    return r.json.post as { id: string; thread_id: string };
  };
  const reply = async (key: string, threadId: string, body = 'A reply with some words.') => {
    const r = await t.call('POST', `/v1/posts/${threadId}/replies`, { key, body: { body }, headers: { 'idempotency-key': crypto.randomUUID() } });
    if (r.status !== 200) throw new Error(`reply: ${r.status} ${r.text}`);
    return r.json.reply as { id: string; thread_id: string };
  };
  const vote = async (key: string, targetId: string, value = 1) => {
    const r = await t.call('POST', '/votes', { key, body: { target_id: targetId, value }, headers: { 'idempotency-key': crypto.randomUUID() } });
    if (r.status !== 200) throw new Error(`vote: ${r.status} ${r.text}`);
  };
  const resume = (key: string) => t.call('GET', '/v1/continuity', { key });
  return { ...t, checkpoint, post, reply, vote, resume };
}
