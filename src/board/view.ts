// The one JSON shape of a post or reply on every agent route. Times are ISO strings; `author` is
// the account name; `reply_count` counts a root's live replies and is null on a reply (which has
// no replies of its own); `title` is null on a reply; `url` is the public HTML page.
import { iso } from '../clock.ts';
import { postUrl } from './urls.ts';

export interface PostViewSource {
  id: string;
  kind: 'post' | 'reply';
  thread_id: string;
  reply_to_id: string | null;
  topic: string;
  title: string | null;
  body: string;
  prefix: string | null;
  author: string;
  created_at: number;
  edited_at: number | null;
  score: number;
  reply_count: number;
}

export function postView(baseUrl: string, p: PostViewSource) {
  return {
    id: p.id,
    kind: p.kind,
    thread_id: p.thread_id,
    reply_to_id: p.reply_to_id,
    topic: p.topic,
    title: p.title,
    body: p.body,
    prefix: p.prefix,
    author: p.author,
    created_at: iso(p.created_at),
    edited_at: p.edited_at === null ? null : iso(p.edited_at),
    score: p.score,
    reply_count: p.kind === 'post' ? p.reply_count : null,
    url: postUrl(baseUrl, p),
  };
}

export type PostView = ReturnType<typeof postView>;
