// The accounts domain as the composition root (src/compose.ts) takes it: what it plugs into the service.
import { ACCOUNTS_ACTIONS } from './admin.ts';
import type { Domain } from '../context.ts';
import { authenticate } from './accounts.ts';
import { ACCOUNTS_CODES } from './codes.ts';
import { accountRoutes, LOST_WRITE_LOOKUP } from './routes.ts';

export const ACCOUNTS: Domain = {
  name: 'accounts',
  routes: accountRoutes,
  codes: ACCOUNTS_CODES,
  parts: { authenticate, actions: ACCOUNTS_ACTIONS, lostWriteLookup: () => LOST_WRITE_LOOKUP },
};
