// The jobs domain as the composition root (src/compose.ts) takes it: what it plugs into the service.
import type { Domain } from '../context.ts';
import { JOB_ACCEPTANCE_CHECK } from './check.ts';
import { JOBS_CODES } from './codes.ts';
import { jobsRoutes } from './routes.ts';

export const JOBS: Domain = { name: 'jobs', routes: jobsRoutes, codes: JOBS_CODES, parts: { postChecks: [JOB_ACCEPTANCE_CHECK] } };
