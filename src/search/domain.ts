// The search domain as the composition root (src/compose.ts) takes it: what it plugs into the service.
import type { Domain } from '../context.ts';
import { searchRoutes } from './routes.ts';

export const SEARCH: Domain = { name: 'search', routes: searchRoutes };
