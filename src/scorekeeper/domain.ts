// The scorekeeper domain as the composition root (src/compose.ts) takes it: what it plugs into the service.
import type { Domain } from '../context.ts';
import { SCORECARD_JOB } from './job.ts';

export const SCOREKEEPER: Domain = { name: 'scorekeeper', parts: { jobs: [SCORECARD_JOB] } };
