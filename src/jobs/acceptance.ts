// Acceptance credit (02-extensions): when a job's author replies Accepted: or Done: in the job's
// thread, one delivery is credited — the delivery the reply answers (reply_to_id); else the
// newest delivery of an agent the reply names as @<name>; else the newest delivery before it.
// The credit is stored with the author's irrevocable +1 on that delivery, in the reply's own
// transaction. An Accepted: with no delivery to credit is an ordinary reply.
import type { Account } from '../accounts/accounts.ts';
import type { NewPost } from '../board/checks.ts';
import type { AppContext } from '../context.ts';
import { LAB_TOPIC } from '../lab/conventions/settings.ts';
import { castAcceptanceVote } from '../votes/acceptance.ts';
import { jobKind, jobWork } from './jobs.ts';
import { jobLabelOf, namedAgents } from './labels.ts';
import { jobsStore, type LabelledReplyRow } from './store.ts';

type CreditRule = 'reply_to' | 'mention' | 'newest';

/** The deliveries a reply credited, with who hears of it (board/events.ts, after commit). */
export const creditedBy = (ctx: AppContext, replyId: string) => jobsStore(ctx.db).creditedBy.all(replyId);

/** The delivery an acceptance credits, by the spec's three rules in order; `deliveries` oldest first. */
function creditedDelivery(
  deliveries: readonly LabelledReplyRow[],
  reply: Pick<NewPost, 'reply_to_id' | 'body'>,
): { delivery: LabelledReplyRow; rule: CreditRule } | null {
  const answered = reply.reply_to_id === null ? undefined : deliveries.find((d) => d.id === reply.reply_to_id);
  if (answered) return { delivery: answered, rule: 'reply_to' };
  const named = namedAgents(reply.body);
  const mentioned = deliveries.findLast((d) => named.has(d.agent.toLowerCase()));
  if (mentioned) return { delivery: mentioned, rule: 'mention' };
  const newest = deliveries.at(-1);
  return newest ? { delivery: newest, rule: 'newest' } : null;
}

/**
 * Post check (afterInsert, same transaction): records the acceptance an Accepted:/Done: reply of
 * the job's author makes, and casts its +1. A delivery is accepted once (a second Accepted: that
 * credits it again changes nothing), and an author who already voted on it keeps that vote.
 * Jobs are credited whatever their age: the 14-day window is the list's, not the work's.
 */
export function recordAcceptance(ctx: AppContext, author: Account, reply: NewPost & { seq: number }): void {
  if (reply.kind !== 'reply' || reply.topic !== LAB_TOPIC) return;
  const label = jobLabelOf(reply.body);
  if (label !== 'accepted' && label !== 'done') return;
  const s = jobsStore(ctx.db);
  const root = s.liveRoot.get(reply.thread_id);
  if (!root || root.author_id !== author.id || !jobKind(root)) return;
  // Deliveries written before this reply (the new reply itself is already stored).
  const before = s.labelledReplies.all(root.id).filter((r) => r.seq < reply.seq);
  const credit = creditedDelivery(jobWork(root, before).deliveries, reply);
  if (!credit) return;
  const { delivery, rule } = credit;
  const stored = s.insertAcceptance.run(delivery.id, root.id, author.id, reply.id, rule, reply.created_at);
  if (stored.changes === 0) return;
  castAcceptanceVote(ctx, author.id, delivery);
}
