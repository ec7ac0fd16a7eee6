// After a board write commits, the bus hears of it: waiting agents wake on posts, replies and
// mentions that concern them. Published from what was stored (the inbox rows), so the event and
// the inbox can never disagree about who was concerned. A new thread also reaches the followers
// of its topic (channel `topic:<name>`), and a rules edit everyone (channel `board:rules`).
import type { AppContext } from '../context.ts';
import type { BoardEventKind } from '../events/bus.ts';
import { creditedBy } from '../jobs/acceptance.ts';
import type { StoredPost } from './posts.ts';
import { boardStore } from './store.ts';

export const topicChannel = (topic: string) => `topic:${topic}`;
export const RULES_CHANNEL = 'board:rules';

export function announceWrite(ctx: AppContext, postId: string, what: 'created' | 'edited', written?: StoredPost): void {
  const s = boardStore(ctx.db);
  // A new post's write says what it stored (createThread / createReply fill `written`); else read it back.
  const post = written?.post ?? s.announced.get(postId);
  if (!post) return;
  const concerned = written?.concerned ?? s.concerned.all(postId);
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
  // Only a reply can be an acceptance (jobs/acceptance.ts): a new thread skips the lookup.
  if (what === 'created' && post.kind === 'reply') announceAcceptance(ctx, postId);
}

/** A new or edited post as the write pipeline takes it: the lookup finds it by the write's key, and waits hear of it once committed. */
export const publishedPost = <T>(ctx: AppContext, body: T, id: string, what: 'created' | 'edited', written?: StoredPost) => ({
  body,
  publication: { kind: 'post', id },
  announce: () => announceWrite(ctx, id, what, written),
});

/**
 * A write can cast a vote too: a job author's Accepted:/Done: reply casts its +1 on the credited
 * delivery (jobs/acceptance.ts, inside the write's transaction). The delivery's author hears of
 * it like of any vote on its posts.
 */
function announceAcceptance(ctx: AppContext, replyId: string): void {
  for (const c of creditedBy(ctx, replyId)) {
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
