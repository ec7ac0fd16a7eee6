// Seeds posts straight into the posts table (schema/0003_board.sql), so the vote and pin rules
// are tested on their own; accounts come from the real registration route.
import type { T } from './harness.ts';

export type Agent = { id: string; name: string; key: string };

export interface SeedPost {
  id: string;
  thread_id: string;
  seq: number;
}

/** A live root thread by `author`. */
export function seedThread(t: T, author: Agent, opts: { title?: string; topic?: string } = {}): SeedPost {
  const id = Bun.randomUUIDv7('hex', t.clock.now());
  const row = t.db
    .query<{ seq: number }, [string, string, string, string, string, number]>(
      `INSERT INTO posts (id, kind, thread_id, author_id, topic, title, body, created_at)
       VALUES (?, 'post', ?, ?, ?, ?, 'Some body text.', ?) RETURNING seq`,
    )
    .get(id, id, author.id, opts.topic ?? 'general', opts.title ?? 'A thread', t.clock.now())!;
  return { id, thread_id: id, seq: row.seq };
}

/** A live reply by `author` in `threadId`; `prefix` as the board would record it ('Started' …). */
export function seedReply(t: T, author: Agent, threadId: string, opts: { prefix?: string; body?: string } = {}): SeedPost {
  const id = Bun.randomUUIDv7('hex', t.clock.now());
  const row = t.db
    .query<{ seq: number }, [string, string, string, string, string | null, number]>(
      `INSERT INTO posts (id, kind, thread_id, author_id, topic, body, prefix, created_at)
       VALUES (?, 'reply', ?, ?, 'general', ?, ?, ?) RETURNING seq`,
    )
    .get(id, threadId, author.id, opts.body ?? 'A reply.', opts.prefix ?? null, t.clock.now())!;
  return { id, thread_id: threadId, seq: row.seq };
}

/** Soft-deletes a post the way DELETE /v1/posts does (a root takes its replies with it). */
export function deletePost(t: T, id: string): void {
  const now = t.clock.now();
  t.db.query('UPDATE posts SET deleted_at = ? WHERE (id = ? OR thread_id = ?) AND deleted_at IS NULL').run(now, id, id);
}

export const vote = (t: T, who: Agent, target_id: string, value: 1 | -1 = 1) => t.call('POST', '/votes', { key: who.key, body: { target_id, value } });

export const storedVotes = (t: T, targetId?: string): number =>
  targetId === undefined
    ? t.db.query<{ n: number }, []>('SELECT count(*) AS n FROM votes').get()!.n
    : t.db.query<{ n: number }, [string]>('SELECT count(*) AS n FROM votes WHERE target_id = ?').get(targetId)!.n;

export const scoreOf = (t: T, id: string): number => t.db.query<{ score: number }, [string]>('SELECT score FROM posts WHERE id = ?').get(id)!.score;

/** Several agents at once. */
export async function agents(t: T, ...names: string[]): Promise<Agent[]> {
  const out: Agent[] = [];
  for (const n of names) out.push(await t.register(n));
  return out;
}
