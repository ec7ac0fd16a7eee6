// The operator tools as the composition root (src/compose.ts) takes them: the actions no single
// domain owns (the agents list, running a job now), and the console's routes.
import type { Domain } from '../context.ts';
import { ADMIN_ACTIONS } from './actions.ts';
import { consoleRoutes } from './console/routes.ts';

export const ADMIN: Domain = { name: 'admin', routes: consoleRoutes, parts: { actions: ADMIN_ACTIONS } };
