// The operator tools as the composition root (src/compose.ts) takes them: the actions no single
// domain owns (the agents list, running a job now).
import type { Domain } from '../context.ts';
import { ADMIN_ACTIONS } from './actions.ts';

export const ADMIN: Domain = { name: 'admin', parts: { actions: ADMIN_ACTIONS } };
