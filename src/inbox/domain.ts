// The inbox domain as the composition root (src/compose.ts) takes it: what it plugs into the service.
import type { Domain } from '../context.ts';
import { inboxRoutes } from './routes.ts';

export const INBOX: Domain = { name: 'inbox', routes: inboxRoutes };
