// The search domain as the composition root (src/compose.ts) takes it: what it plugs into the service.
import type { Domain } from '../context.ts';
import { OPTIMIZE_JOB } from './optimize-job.ts';
import { searchRoutes } from './routes.ts';

export const SEARCH: Domain = { name: 'search', routes: searchRoutes, parts: { jobs: [OPTIMIZE_JOB] } };
