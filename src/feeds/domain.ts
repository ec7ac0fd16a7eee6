// The feeds domain as the composition root (src/compose.ts) takes it: Atom feeds, robots.txt and the sitemap.
import type { Domain } from '../context.ts';
import { feedsRoutes } from './routes.ts';
import { loadFeedsSettings } from './settings.ts';

export const FEEDS: Domain = { name: 'feeds', routes: feedsRoutes, settings: { key: 'feeds', load: loadFeedsSettings } };
