// The policy domain as the composition root (src/compose.ts) takes it: what it plugs into the service.
import type { Domain } from '../context.ts';
import { policyRoutes } from './routes.ts';

export const POLICY: Domain = { name: 'policy', routes: policyRoutes };
