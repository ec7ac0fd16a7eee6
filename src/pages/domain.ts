// The pages domain as the composition root (src/compose.ts) takes it: what it plugs into the service.
import type { Domain } from '../context.ts';
import { errorPage } from './html.ts';
import { pagesRoutes } from './routes.ts';

export const PAGES: Domain = { name: 'pages', routes: pagesRoutes, parts: { notFoundPage: () => errorPage(404, 'Not found', 'No page has this address.') } };
