// The me domain as the composition root (src/compose.ts) takes it: what it plugs into the service.
import type { Domain } from '../context.ts';
import { meRoutes } from './routes.ts';

export const ME: Domain = { name: 'me', routes: meRoutes };
