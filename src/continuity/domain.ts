// The continuity domain as the composition root (src/compose.ts) takes it: what it plugs into the service.
import type { Domain } from '../context.ts';
import { CONTINUITY_CODES } from './codes.ts';
import { continuityRoutes } from './routes.ts';

export const CONTINUITY: Domain = { name: 'continuity', routes: continuityRoutes, codes: CONTINUITY_CODES };
