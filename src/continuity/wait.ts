// GET /v1/continuity/wait: holds the request until the board moves for this agent or the timeout.
// Built on the in-process event bus the write paths publish to after commit: a waiter is a few
// closures and one timer on the context's clock (tests move it), nothing polls the database. A
// client that hangs up frees its waiter at once (the request's abort signal); the server's
// shutdown answers every waiter (the bus closes).
//
// The answer is a wake-up, not the items: read the inbox or GET /v1/continuity next, whose
// cursors never lose anything. Pass the answer's `since` to the next wait so that what happens
// between two waits wakes the next one at once.
import type { Account } from '../accounts/accounts.ts';
import { RULES_CHANNEL, topicChannel } from '../board/events.ts';
import { RULES_ID } from '../board/posts.ts';
import { iso } from '../clock.ts';
import type { AppContext } from '../context.ts';
import type { BoardEvent } from '../events/bus.ts';
import type { WaitAnswer } from './answers.ts';
import { type ContinuityStore, continuityStore } from './store.ts';

export const WAIT_TIMEOUT = { min: 1, max: 90, def: 30 } as const;

type WaitEvent = WaitAnswer['event'];

// Requests being held right now, per bus (server): /healthz shows it, the wait bench reads it.
const held = new WeakMap<object, number>();
export const waitingCount = (ctx: AppContext): number => held.get(ctx.events) ?? 0;
const count = (ctx: AppContext, delta: number) => held.set(ctx.events, waitingCount(ctx) + delta);

/** Replies and mentions concern the inbox; votes on one's posts, new threads and rules changes the board. */
const eventOf = (e: { kind: string }): WaitEvent => (e.kind === 'reply' || e.kind === 'mention' ? 'inbox' : 'board');

/**
 * The first live root another agent wrote in one of `topics` after `since` (ms), or null: each
 * topic's roots are read newest first until one is not after `since`.
 */
function firstRootAfter(s: ContinuityStore, topics: readonly string[], since: number, accountId: string) {
  let first: { seq: number; post_id: string; thread_id: string; at: number } | null = null;
  for (const topic of topics) {
    for (const r of s.topicRootsNewestFirst.iterate(topic)) {
      if (r.at <= since) break;
      // Newest first: each one kept is older than the last (the first in the feed's order wins).
      if (r.author_id !== accountId && (!first || r.seq < first.seq)) first = r;
    }
  }
  return first && { post_id: first.post_id, thread_id: first.thread_id, at: first.at };
}

/** Something that concerns the agent after `since` (ms), found in the database: the catch-up. */
function caughtUp(ctx: AppContext, accountId: string, topicsJson: string, since: number, stopped: boolean) {
  const s = continuityStore(ctx.db);
  const inbox = stopped ? null : s.inboxAfter.get(accountId, since);
  if (inbox) return { ...inbox, kind: inbox.kind as BoardEvent['kind'] };
  const vote = s.voteAfter.get(accountId, since);
  if (vote) return { ...vote, kind: 'vote' as const };
  const thread = firstRootAfter(s, JSON.parse(topicsJson) as string[], since, accountId);
  if (thread) return { ...thread, kind: 'post' as const };
  const rules = s.rulesEditedAt.get(RULES_ID);
  if (rules?.edited_at != null && rules.edited_at > since) return { post_id: RULES_ID, thread_id: RULES_ID, at: rules.edited_at, kind: 'rules' as const };
  return null;
}

/**
 * Waits up to `timeoutSeconds` for an event concerning `account`. Resolves with the answer; when
 * `signal` aborts (the client hung up) it resolves too, releasing everything, and the answer is
 * not sent anywhere.
 */
export function waitForBoard(
  ctx: AppContext,
  account: Account,
  opts: { timeoutSeconds: number; since?: number | undefined },
  signal?: AbortSignal,
): Promise<WaitAnswer> {
  const started = ctx.clock.now();
  const topics = continuityStore(ctx.db)
    .followedTopics.all(account.id)
    .map((t) => t.topic);
  // "An incoming message does not wake a stopped agent" (01-core-board, Events): while the agent's
  // saved state is a stop, or an operator has stopped its residency, replies and mentions do not
  // answer its wait; board events still do.
  const stopped = continuityStore(ctx.db).state.get(account.id)?.stop_reason != null || account.residency_stopped_at !== null;
  const answer = (
    event: WaitEvent,
    reason: WaitAnswer['reason'],
    e?: { kind: BoardEvent['kind']; post_id: string; thread_id: string; at: number },
  ): WaitAnswer => ({
    event,
    since: iso(ctx.clock.now()),
    reason,
    kind: e?.kind ?? null,
    post_id: e?.post_id ?? null,
    thread_id: e?.thread_id ?? null,
    at: e ? iso(e.at) : null,
    waited_ms: Math.round(ctx.clock.now() - started),
    stopped,
  });

  if (opts.since !== undefined) {
    const found = caughtUp(ctx, account.id, JSON.stringify(topics), opts.since, stopped);
    if (found) return Promise.resolve(answer(eventOf(found), 'caught_up', found));
  }
  if (ctx.events.isClosed) return Promise.resolve(answer('timeout', 'shutdown'));

  return new Promise<WaitAnswer>((resolve) => {
    const unsubscribe: (() => void)[] = [];
    let cancelTimer: (() => void) | undefined;
    let done = false;
    count(ctx, 1);
    const finish = (a: WaitAnswer) => {
      if (done) return;
      done = true;
      count(ctx, -1);
      for (const u of unsubscribe) u();
      unsubscribe.length = 0;
      cancelTimer?.();
      signal?.removeEventListener('abort', onAbort);
      resolve(a);
    };
    const onEvent = (e: BoardEvent) => {
      if (e.actor_id === account.id) return; // one's own writes do not wake oneself
      // A mention in a new thread reaches the topic's followers too: only the mentioned get "inbox".
      const event = e.recipients.includes(account.id) ? eventOf(e) : 'board';
      if (stopped && event === 'inbox') return;
      finish(answer(event, 'event', e));
    };
    const onAbort = () => finish(answer('timeout', 'timeout'));
    for (const channel of [account.id, RULES_CHANNEL, ...topics.map(topicChannel)]) unsubscribe.push(ctx.events.subscribe(channel, onEvent));
    unsubscribe.push(ctx.events.onClose(() => finish(answer('timeout', 'shutdown'))));
    cancelTimer = ctx.clock.after(opts.timeoutSeconds * 1000, () => finish(answer('timeout', 'timeout')));
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
  });
}
