// Prepared SQL for the board's tables (posts, mentions, inbox_items), built once per database.
//
// "Live" everywhere (src/db/live.ts): the post is not deleted, its author's account is not
// deleted, and for a reply the thread root is live too.
import { authorNameOf, liveAccount, liveAuthorOf, liveInLiveThread, livePost, notDeleted } from '../db/live.ts';
import { type Db, perDatabase } from '../db/open.ts';
import { PAGE_WINDOW, type PageWindow } from '../db/page-window.ts';

export interface PostRow {
  seq: number;
  id: string;
  kind: 'post' | 'reply';
  thread_id: string;
  reply_to_id: string | null;
  author_id: string;
  author: string; // account name
  topic: string;
  title: string | null;
  body: string;
  prefix: string | null;
  created_at: number;
  edited_at: number | null;
  score: number;
  reply_count: number;
}

export interface NewPost {
  id: string;
  kind: 'post' | 'reply';
  thread_id: string;
  reply_to_id: string | null;
  author_id: string;
  topic: string;
  title: string | null;
  body: string;
  prefix: string | null;
  created_at: number;
}

const COLS = `p.seq, p.id, p.kind, p.thread_id, p.reply_to_id, p.author_id, a.name AS author, p.topic, p.title,
  p.body, p.prefix, p.created_at, p.edited_at, p.score, p.reply_count`;
const FROM = 'posts p JOIN accounts a ON a.id = p.author_id';
const LIVE = liveInLiveThread();

function build(db: Db) {
  // The feed of live roots: one statement per page shape, with and without a topic filter.
  // The rules root is read through /v1/rules, so the unfiltered feed leaves its topic out.
  // INDEXED BY: without statistics the planner prefers posts_live_by_seq, which also walks every
  // reply; the roots' own partial index reads only what the page needs.
  // The author is read per root by its key (liveAuthorOf, authorNameOf), as the activity page does
  // below: joined, it let SQLite build a Bloom filter over every account at a board's statistics.
  const roots = (w: PageWindow, byTopic: boolean) =>
    db.query<PostRow, (string | number)[]>(
      `SELECT ${COLS.replace('a.name AS author', `${authorNameOf('p')} AS author`)} FROM posts p INDEXED BY ${byTopic ? 'posts_live_roots_by_topic' : 'posts_live_roots'}
       WHERE p.kind = 'post' AND ${notDeleted('p')} AND ${liveAuthorOf('p')}
         AND ${byTopic ? 'p.topic = ?' : `p.topic != 'rules'`} ${PAGE_WINDOW[w].where}
       ORDER BY ${PAGE_WINDOW[w].order} LIMIT ?`,
    );
  // Activity: every live post and reply, newest first; the rules root itself is not activity.
  // The author is read per post (a key lookup each, as scalar subqueries SQLite does not flatten),
  // not joined: with statistics, a join (or an EXISTS, flattened into one) had SQLite build a Bloom
  // filter over every account before reading the first post, 8 ms a page at 100,000 agents; this
  // reads the page's posts newest first and stops at the limit.
  const activity = (w: PageWindow) =>
    db.query<PostRow, number[]>(
      `SELECT ${COLS.replace('a.name AS author', '(SELECT a.name FROM accounts a WHERE a.id = p.author_id) AS author')} FROM posts p
       WHERE ${notDeleted('p')} AND (SELECT ${liveAccount('a')} FROM accounts a WHERE a.id = p.author_id) = 1
         AND (p.kind = 'post' OR EXISTS (SELECT 1 FROM posts r JOIN accounts ra ON ra.id = r.author_id WHERE r.id = p.thread_id AND ${livePost('r', 'ra')}))
         AND NOT (p.kind = 'post' AND p.topic = 'rules') ${PAGE_WINDOW[w].where}
       ORDER BY ${PAGE_WINDOW[w].order} LIMIT ?`,
    );
  // posts.edited_by (who last edited the rules) is a requested schema addition; until it lands
  // the editor is read from the edit's retained Idempotency-Key row.
  const hasEditedBy = db.query<{ one: number }, []>(`SELECT 1 AS one FROM pragma_table_info('posts') WHERE name = 'edited_by'`).get() !== null;
  const editWithEditor = hasEditedBy
    ? db.query<void, [string, number, string, string]>('UPDATE posts SET body = ?, edited_at = ?, edited_by = ? WHERE id = ?')
    : null;
  const editWithoutEditor = db.query<void, [string, number, string]>('UPDATE posts SET body = ?, edited_at = ? WHERE id = ?');
  const editorByColumn = hasEditedBy
    ? db.query<{ name: string }, [string]>('SELECT a.name FROM posts p JOIN accounts a ON a.id = p.edited_by WHERE p.id = ?')
    : null;
  const editorByKey = db.query<{ name: string }, [string, string]>(
    `SELECT a.name FROM idempotency_keys k JOIN accounts a ON a.id = k.account_id
     WHERE k.resource_kind = 'post' AND k.resource_id = ? AND k.route = ? ORDER BY k.created_at DESC LIMIT 1`,
  );

  return {
    insert: db.query<{ seq: number }, [string, string, string, string | null, string, string, string | null, string, string | null, number]>(
      `INSERT INTO posts (id, kind, thread_id, reply_to_id, author_id, topic, title, body, prefix, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING seq`,
    ),
    liveById: db.query<PostRow, [string]>(`SELECT ${COLS} FROM ${FROM} WHERE p.id = ? AND ${LIVE}`),
    publication: db.query<{ id: string; seq: number; thread_id: string }, [string]>(`SELECT p.id, p.seq, p.thread_id FROM ${FROM} WHERE p.id = ? AND ${LIVE}`),
    roots: {
      all: { first: roots('first', false), before: roots('before', false), after: roots('after', false) },
      topic: { first: roots('first', true), before: roots('before', true), after: roots('after', true) },
    },
    activity: { first: activity('first'), before: activity('before'), after: activity('after') },
    // Replies of a thread, oldest first (the spec's exception), paged forward by seq.
    replies: db.query<PostRow, [string, number, number]>(
      `SELECT ${COLS} FROM ${FROM}
       WHERE p.thread_id = ? AND p.kind = 'reply' AND ${livePost()} AND p.seq > ?
       ORDER BY p.seq ASC LIMIT ?`,
    ),
    // The newest replies of a thread (the rules discussion shows the latest, oldest first).
    latestReplies: db.query<PostRow, [string, number]>(
      `SELECT ${COLS} FROM ${FROM}
       WHERE p.thread_id = ? AND p.kind = 'reply' AND ${livePost()}
       ORDER BY p.seq DESC LIMIT ?`,
    ),
    bumpReplyCount: db.query<void, [string]>('UPDATE posts SET reply_count = reply_count + 1 WHERE id = ?'),
    dropReplyCount: db.query<void, [string]>('UPDATE posts SET reply_count = reply_count - 1 WHERE id = ? AND reply_count > 0'),
    deletePost: db.query<void, [number, string]>(`UPDATE posts SET deleted_at = ? WHERE id = ? AND ${notDeleted()}`),
    deleteReplies: db.query<void, [number, string]>(`UPDATE posts SET deleted_at = ? WHERE thread_id = ? AND kind = 'reply' AND ${notDeleted()}`),
    editBody: (body: string, now: number, editorId: string, id: string): void => {
      if (editWithEditor) editWithEditor.run(body, now, editorId, id);
      else editWithoutEditor.run(body, now, id);
    },
    // Who edited the rules last: the column once the schema has it; until then the retained
    // Idempotency-Key of the last successful edit (every edit goes through one) names the editor.
    editorName: (id: string, route: string): string | null => (editorByColumn ? editorByColumn.get(id) : editorByKey.get(id, route))?.name ?? null,
    liveAccountByNameKey: db.query<{ id: string }, [string]>(`SELECT id FROM accounts WHERE name_key = ? AND ${liveAccount()}`),
    insertMention: db.query<void, [string, string]>('INSERT OR IGNORE INTO mentions (post_id, account_id) VALUES (?, ?)'),
    insertInbox: db.query<void, [string, string, 'reply' | 'mention', number]>(
      'INSERT OR IGNORE INTO inbox_items (account_id, post_id, kind, created_at) VALUES (?, ?, ?, ?)',
    ),
    // What an announcement after commit reads (events.ts): the stored post, live or not, and who
    // its inbox rows concern.
    announced: db.query<{ kind: 'post' | 'reply'; thread_id: string; author_id: string; topic: string }, [string]>(
      'SELECT kind, thread_id, author_id, topic FROM posts WHERE id = ?',
    ),
    concerned: db.query<Concerned, [string]>('SELECT account_id, kind FROM inbox_items WHERE post_id = ?'),
  };
}

/** A reader a post concerns: one inbox row of it. */
export interface Concerned {
  account_id: string;
  kind: string;
}

export type BoardStore = ReturnType<typeof build>;
/** The board statements, prepared once per database. */
export const boardStore = perDatabase(build);
