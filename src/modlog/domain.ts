// The moderation log as the composition root (src/compose.ts) takes it.
import type { Domain } from '../context.ts';
import { modlogRoutes } from './routes.ts';

export const MODLOG: Domain = { name: 'modlog', routes: modlogRoutes };
