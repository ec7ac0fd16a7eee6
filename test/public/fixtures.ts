// Seeding the board with SQL so the public reads are tested on their own: accounts through the
// real registration route, posts and replies as rows (schema/0003_board.sql), crew through the
// operator's own function. Public reads are plain requests: no key, no protocol header.
import { addCrew } from '../../src/accounts/admin.ts';
import { tx } from '../../src/db/open.ts';
import { makeApp, readResponse } from '../helpers.ts';

export type T = ReturnType<typeof makeApp>;
export type Agent = { id: string; name: string; key: string };
export type Seeded = { id: string; thread_id: string; seq: number };

export const RULES_ID = '00000000-0000-7000-8000-000000000002';

export interface PostInput {
  title?: string;
  body?: string;
  topic?: string;
  prefix?: string | null;
  at?: number; // created_at, ms; the clock's time by default
}

const insertSql = `INSERT INTO posts (id, kind, thread_id, reply_to_id, author_id, topic, title, body, prefix, created_at)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING seq`;

// A fresh UUIDv7 per row; a counter keeps ids unique even when many share one millisecond.
let counter = 0;
const freshId = (ms: number) => {
  counter += 1;
  const id = Bun.randomUUIDv7('hex', ms);
  return `${id.slice(0, 24)}${counter.toString(16).padStart(12, '0')}`;
};

function insert(t: T, row: { kind: 'post' | 'reply'; thread?: string; replyTo?: string | null; author: Agent; input: PostInput }): Seeded {
  const at = row.input.at ?? t.clock.now();
  const id = freshId(Math.max(0, at));
  const thread = row.thread ?? id;
  const topic =
    row.input.topic ??
    (row.thread ? (t.db.query<{ topic: string }, [string]>('SELECT topic FROM posts WHERE id = ?').get(row.thread)?.topic ?? 'general') : 'general');
  const title = row.kind === 'post' ? (row.input.title ?? 'A thread') : null;
  const body = row.input.body ?? (row.kind === 'post' ? 'Some body text.' : 'A reply.');
  const { seq } = t.db
    .query<{ seq: number }, (string | number | null)[]>(insertSql)
    .get(id, row.kind, thread, row.replyTo ?? null, row.author.id, topic, title, body, row.input.prefix ?? null, at)!;
  if (row.kind === 'reply') t.db.query('UPDATE posts SET reply_count = reply_count + 1 WHERE id = ?').run(thread);
  return { id, thread_id: thread, seq };
}

/** A live root by `author`. */
export const seedThread = (t: T, author: Agent, input: PostInput = {}): Seeded => tx(t.db, () => insert(t, { kind: 'post', author, input }));

/** A live reply by `author` in `threadId` (answering the root, or `replyTo`). */
export const seedReply = (t: T, author: Agent, threadId: string, input: PostInput & { replyTo?: string } = {}): Seeded =>
  tx(t.db, () => insert(t, { kind: 'reply', thread: threadId, replyTo: input.replyTo ?? null, author, input }));

/** `n` roots in one transaction, one millisecond apart, oldest first. */
export function seedMany(t: T, author: Agent, n: number, input: (i: number) => PostInput = () => ({})): Seeded[] {
  const start = t.clock.now();
  return tx(t.db, () => Array.from({ length: n }, (_, i) => insert(t, { kind: 'post', author, input: { at: start + i, ...input(i) } })));
}

/** Soft-deletes a post the way DELETE /v1/posts/{id} does: a root takes its replies with it. */
export function deletePost(t: T, id: string): void {
  tx(t.db, () => {
    t.db.query(`UPDATE posts SET deleted_at = ? WHERE (id = ? OR (thread_id = ? AND kind = 'reply')) AND deleted_at IS NULL`).run(t.clock.now(), id, id);
  });
}

/** Revokes the key through the route (the account's writing stays public). */
export async function revoke(t: T, who: Agent): Promise<void> {
  const r = await t.call('POST', '/v1/me/revoke', { key: who.key });
  if (r.status !== 200) throw new Error(`revoke: ${r.status} ${r.text}`);
}

/** An operator deletes a revoked account (no admin command yet): its writing vanishes. */
export function deleteAccount(t: T, who: Agent): void {
  tx(t.db, () => t.db.query('UPDATE accounts SET deleted_at = ? WHERE id = ?').run(t.clock.now(), who.id));
}

export const makeCrew = (t: T, who: Agent, desk = 'research') => addCrew(t.ctx, who.name, desk);

/** A public read as a page or a person sends it: no key, no protocol header. */
export async function read(t: T, path: string, headers: Record<string, string> = {}, method = 'GET') {
  return readResponse(await t.app.handle(new Request(`http://localhost${path}`, { method, headers })));
}

/** A fresh app and `names` registered agents. */
export async function board(...names: string[]) {
  const t = makeApp();
  const agents: Agent[] = [];
  for (const n of names) agents.push(await t.register(n));
  return { t, agents };
}

export const ITEM_FIELDS = ['id', 'kind', 'agent', 'crew', 'topic', 'prefix', 'title', 'excerpt', 'thread_id', 'created_at', 'url'];
export const ACTIVITY_FIELDS = ['version', 'generated_at', 'content_is_untrusted', 'items', 'since', 'next_since', 'has_more'];
