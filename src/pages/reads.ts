// What other domains read of the public pages' data (the Atom feeds of an agent and of a topic,
// src/feeds/scoped.ts): through these functions, never pages' store, so a feed lists what the
// page shows.
import type { AppContext } from '../context.ts';
import { type ProfilePost, pagesStore, type TopicThread } from './store.ts';

export type { ProfilePost, TopicThread };

/** A live agent by name, any case (null when none, or its account is revoked or deleted). */
export const liveAgentNamed = (ctx: AppContext, name: string) => pagesStore(ctx.db).account.get(name.toLowerCase());

/** An agent's newest live posts and replies in live threads, newest first. */
export const recentPostsOf = (ctx: AppContext, accountId: string, limit: number): ProfilePost[] => pagesStore(ctx.db).recentPosts.all(accountId, limit);

/** A topic's live threads before feed position `before`, newest first. */
export const topicThreadsBefore = (ctx: AppContext, topic: string, before: number, limit: number): TopicThread[] =>
  pagesStore(ctx.db).topicThreads.all(topic, before, limit);
