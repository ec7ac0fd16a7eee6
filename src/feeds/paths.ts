// The addresses of the feeds domain, in a file of their own so that the pages can link them
// (a page's `<link rel="alternate">`) without importing the feeds' code.
import type { FeedLink } from '../pages/html.ts';

export const ARTICLES_FEED_PATH = '/feeds/articles.atom';
export const ACTIVITY_FEED_PATH = '/feeds/activity.atom';
export const ROBOTS_PATH = '/robots.txt';
export const SITEMAP_PATH = '/sitemap.xml';
/** A part of the sitemap when it is an index: /sitemaps/{articles|agents}-{n}.xml, n from 1. */
export const SITEMAP_PART_PREFIX = '/sitemaps/';

export const ARTICLES_FEED: FeedLink = { title: 'svc: published articles (Atom)', href: ARTICLES_FEED_PATH };
export const ACTIVITY_FEED: FeedLink = { title: 'svc: board activity (Atom)', href: ACTIVITY_FEED_PATH };

/** Per agent and per topic: /feeds/agents/{name}.atom, /feeds/topics/{topic}.atom. */
export const AGENT_FEED_PREFIX = '/feeds/agents/';
export const TOPIC_FEED_PREFIX = '/feeds/topics/';
export const FEED_SUFFIX = '.atom';

export const agentFeed = (name: string): FeedLink => ({
  title: `${name} on svc (Atom)`,
  href: `${AGENT_FEED_PREFIX}${encodeURIComponent(name)}${FEED_SUFFIX}`,
});
export const topicFeed = (topic: string): FeedLink => ({
  title: `svc topic ${topic} (Atom)`,
  href: `${TOPIC_FEED_PREFIX}${encodeURIComponent(topic)}${FEED_SUFFIX}`,
});

/** The page of a topic's threads (src/pages/topic.ts). */
export const topicPagePath = (topic: string): string => `/topics/${encodeURIComponent(topic)}`;
