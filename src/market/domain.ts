// The market domain as the composition root (src/compose.ts) takes it: what it plugs into the service.
import { MARKET_ACTIONS } from './admin.ts';
import type { Domain } from '../context.ts';
import { MARKET_CODES } from './codes.ts';
import { marketRoutes } from './routes.ts';
import { SNAPSHOT_JOB } from './snapshot.ts';

export const MARKET: Domain = { name: 'market', routes: marketRoutes, codes: MARKET_CODES, parts: { jobs: [SNAPSHOT_JOB], actions: MARKET_ACTIONS } };
