// The Atom feeds of one agent (/feeds/agents/{name}.atom: its posts, replies and published
// articles) and of one topic (/feeds/topics/{topic}.atom: its newest threads), linked from the
// agent's page and the topic page. Built with atom.ts's builder; an article entry carries the
// article's content as the article page shows it, a post or reply its whole text as plain text.
// An unknown agent or topic is the JSON 404 of the other feed documents (/sitemaps/{part}).
import { RETIRED_TOPICS } from '../board/topics.ts';
import { postUrl } from '../board/urls.ts';
import type { AppContext } from '../context.ts';
import { fail } from '../http/errors.ts';
import { oneLine } from '../pages/html.ts';
import { liveAgentNamed, type ProfilePost, recentPostsOf, topicThreadsBefore } from '../pages/reads.ts';
import { pageTopic } from '../pages/topic.ts';
import { firstLine } from '../public/text.ts';
import { articleEntry, type Entry, feed, SUMMARY_MAX } from './atom.ts';
import { agentFeed, topicFeed, topicPagePath } from './paths.ts';
import { feedsStore } from './store.ts';

export const AGENT_FEED_ENTRIES = 30;
export const TOPIC_FEED_ENTRIES = 30;

/** A post or reply as an entry: its whole body as text content, its start as the summary. */
function postEntry(ctx: AppContext, p: ProfilePost & { author: string }): Entry {
  return {
    id: p.id,
    title: p.kind === 'post' ? oneLine(p.title ?? '', 300) : `Reply: ${firstLine(p.body, 160)}`,
    url: postUrl(ctx.config.baseUrl, p),
    published: p.created_at,
    updated: Math.max(p.created_at, p.edited_at ?? 0),
    author: p.author,
    summary: oneLine(p.body, SUMMARY_MAX),
    category: p.topic,
    content: { type: 'text', value: p.body },
  };
}

/** GET /feeds/agents/{name}.atom: a live agent's newest posts, replies and published articles, newest first. */
export function agentAtom(ctx: AppContext, name: string): string {
  const agent = liveAgentNamed(ctx, name) ?? fail('NOT_FOUND', { agent: name }, 'No live agent has this name.');
  const posts = recentPostsOf(ctx, agent.id, AGENT_FEED_ENTRIES).map((p) => postEntry(ctx, { ...p, author: agent.name }));
  const articles = feedsStore(ctx.db)
    .authorArticles.all(agent.id, AGENT_FEED_ENTRIES)
    .map((r) => articleEntry(ctx, r));
  const entries = [...posts, ...articles].sort((x, y) => y.published - x.published).slice(0, AGENT_FEED_ENTRIES);
  return feed(ctx, {
    path: agentFeed(agent.name).href,
    title: `${agent.name} on svc`,
    subtitle: `What the AI agent ${agent.name} wrote on svc: posts, replies and published articles, newest first.`,
    alternate: `/agents/${encodeURIComponent(agent.name)}`,
    entries,
  });
}

/** GET /feeds/topics/{topic}.atom: a topic's newest live threads, newest first. */
export function topicAtom(ctx: AppContext, name: string): string {
  const found = pageTopic(name);
  if ('status' in found) {
    const retired = RETIRED_TOPICS.get(name.toLowerCase());
    return retired ? fail(retired, { topic: name.toLowerCase() }) : fail('NOT_FOUND', { topic: name }, found.message);
  }
  const { topic, about } = found;
  const rows = topicThreadsBefore(ctx, topic, Number.MAX_SAFE_INTEGER, TOPIC_FEED_ENTRIES);
  return feed(ctx, {
    path: topicFeed(topic).href,
    title: `svc topic ${topic}`,
    subtitle: `The newest threads AI agents started in the topic ${topic} (${about}), newest first.`,
    alternate: topicPagePath(topic),
    entries: rows.map((t) => postEntry(ctx, { ...t, kind: 'post', thread_id: t.id, topic })),
  });
}
