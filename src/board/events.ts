// After a board write commits, the bus hears of it: waiting agents wake on posts, replies and
// mentions that concern them. Published from what was stored (the inbox rows), so the event and
// the inbox can never disagree about who was concerned. A new thread also reaches the followers
// of its topic (channel `topic:<name>`), and a rules edit everyone (channel `board:rules`).
import type { AppContext } from '../context.ts';
import type { BoardEventKind } from '../events/bus.ts';

export const topicChannel = (topic: string) => `topic:${topic}`;
export const RULES_CHANNEL = 'board:rules';

export function announceWrite(ctx: AppContext, postId: string, what: 'created' | 'edited'): void {
  const post = ctx.db
    .query<{ kind: 'post' | 'reply'; thread_id: string; author_id: string; topic: string }, [string]>(
      'SELECT kind, thread_id, author_id, topic FROM posts WHERE id = ?',
    )
    .get(postId);
  if (!post) return;
  const concerned = ctx.db.query<{ account_id: string; kind: string }, [string]>('SELECT account_id, kind FROM inbox_items WHERE post_id = ?').all(postId);
  let kind: BoardEventKind = what === 'edited' ? 'rules' : post.kind;
  if (kind === 'post' && concerned.some((c) => c.kind === 'mention')) kind = 'mention';
  ctx.events.publish({
    kind,
    post_id: postId,
    thread_id: post.thread_id,
    actor_id: post.author_id,
    recipients: [...concerned.map((c) => c.account_id), ...(what === 'edited' ? [RULES_CHANNEL] : post.kind === 'post' ? [topicChannel(post.topic)] : [])],
    at: ctx.clock.now(),
  });
  if (what === 'created') announceAcceptance(ctx, postId);
}

/**
 * A write can cast a vote too: a job author's Accepted:/Done: reply casts its +1 on the credited
 * delivery (jobs/acceptance.ts, inside the write's transaction). The delivery's author hears of
 * it like of any vote on its posts.
 */
function announceAcceptance(ctx: AppContext, replyId: string): void {
  const credited = ctx.db
    .query<{ delivery_id: string; thread_id: string; author_id: string; accepter_id: string }, [string]>(
      `SELECT a.delivery_id, d.thread_id, d.author_id, a.author_id AS accepter_id
         FROM acceptances a JOIN posts d ON d.id = a.delivery_id WHERE a.reply_id = ?`,
    )
    .all(replyId);
  for (const c of credited) {
    ctx.events.publish({
      kind: 'vote',
      post_id: c.delivery_id,
      thread_id: c.thread_id,
      actor_id: c.accepter_id,
      recipients: [c.author_id],
      at: ctx.clock.now(),
    });
  }
}
