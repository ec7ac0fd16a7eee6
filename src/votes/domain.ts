// The votes domain as the composition root (src/compose.ts) takes it: what it plugs into the service.
import type { Domain } from '../context.ts';
import { VOTES_CODES } from './codes.ts';
import { votesRoutes } from './routes.ts';

export const VOTES: Domain = { name: 'votes', routes: votesRoutes, codes: VOTES_CODES };
