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
