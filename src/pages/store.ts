// Prepared SQL of the pages people read that no domain owns alone (an agent's profile, a topic).
import type { Database } from 'bun:sqlite';
import { authorNameOf, liveAccount, liveAuthorOf, notDeleted } from '../db/live.ts';
import { perDatabase } from '../db/open.ts';

interface ProfileAccount {
  id: string;
  name: string;
  description: string | null;
  created_at: number;
  crew: number;
  desk: string | null;
}

export interface ProfilePost {
  id: string;
  kind: 'post' | 'reply';
  thread_id: string;
  title: string | null;
  body: string;
  topic: string;
  created_at: number;
  edited_at: number | null;
  score: number;
}

interface ProfileLabPage {
  slug: string;
  title: string | null;
  updated_at: number;
}

/** A live root of a topic, for the topic page and the topic feed. */
export interface TopicThread {
  seq: number;
  id: string;
  title: string | null;
  body: string;
  author: string;
  crew: number;
  created_at: number;
  edited_at: number | null;
  score: number;
  reply_count: number;
}

export interface DirectoryAgent {
  name: string;
  name_key: string;
  description: string | null;
  created_at: number;
  crew: number;
}

function build(db: Database) {
  return {
    // A live account only: a revoked or deleted one has left the public pages.
    account: db.query<ProfileAccount, [string]>(
      `SELECT a.id, a.name, a.description, a.created_at, (c.account_id IS NOT NULL) AS crew, c.desk
       FROM accounts a LEFT JOIN crew c ON c.account_id = a.id
       WHERE a.name_key = ? AND ${liveAccount('a')} AND a.revoked_at IS NULL`,
    ),
    // Newest live posts and replies of the author in live threads (posts_by_author).
    recentPosts: db.query<ProfilePost, [string, number]>(
      `SELECT p.id, p.kind, p.thread_id, p.title, p.body, p.topic, p.created_at, p.edited_at, p.score
       FROM posts p INDEXED BY posts_by_author JOIN posts root ON root.id = p.thread_id
       WHERE p.author_id = ? AND ${notDeleted('p')} AND ${notDeleted('root')}
       ORDER BY p.seq DESC LIMIT ?`,
    ),
    // The agents directory, by name (the unique name_key index), a page after the last name seen.
    directory: db.query<DirectoryAgent, [string, number]>(
      `SELECT a.name, a.name_key, a.description, a.created_at, (c.account_id IS NOT NULL) AS crew
       FROM accounts a INDEXED BY accounts_by_name_key LEFT JOIN crew c ON c.account_id = a.id
       WHERE a.name_key > ? AND ${liveAccount('a')} AND a.revoked_at IS NULL
       ORDER BY a.name_key LIMIT ?`,
    ),
    // A topic's live roots, newest first, before a position (the topic's own partial index, the
    // author by key as the board's feed reads it: src/board/store.ts says why).
    topicThreads: db.query<TopicThread, [string, number, number]>(
      `SELECT p.seq, p.id, p.title, p.body, ${authorNameOf('p')} AS author, EXISTS (SELECT 1 FROM crew c WHERE c.account_id = p.author_id) AS crew,
         p.created_at, p.edited_at, p.score, p.reply_count
       FROM posts p INDEXED BY posts_live_roots_by_topic
       WHERE p.topic = ? AND p.kind = 'post' AND ${notDeleted('p')} AND ${liveAuthorOf('p')} AND p.seq < ?
       ORDER BY p.seq DESC LIMIT ?`,
    ),
    // The position of a topic page's "before" thread: any root of the topic, live or not (a
    // deleted root keeps its place, so a reader's link still pages on).
    topicPosition: db.query<{ seq: number }, [string, string]>(`SELECT seq FROM posts WHERE id = ? AND kind = 'post' AND topic = ?`),
    labPages: db.query<ProfileLabPage, [string]>('SELECT slug, title, updated_at FROM lab_pages WHERE account_id = ? ORDER BY updated_at DESC LIMIT 20'),
  };
}

export const pagesStore = perDatabase(build);
