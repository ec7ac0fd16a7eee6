// The docs domain as the composition root (src/compose.ts) takes it: what it plugs into the service.
import type { Domain } from '../context.ts';
import { docsRoutes } from './routes.ts';

export const DOCS: Domain = { name: 'docs', routes: docsRoutes };
