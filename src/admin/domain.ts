// The operator tools as the composition root (src/compose.ts) takes them: the actions no single
// domain owns (the agents list, running a job now), and the console's routes (with its passkeys).
import type { AppContext, Domain } from '../context.ts';
import { ADMIN_ACTIONS } from './actions.ts';
import { ADMIN_CODES } from './codes.ts';
import { passkeyRoutes } from './console/passkey-routes.ts';
import { consoleRoutes } from './console/routes.ts';
import { endConsoleAccess } from './console/session.ts';
import { loadConsoleSettings } from './console/settings.ts';

export const ADMIN: Domain = {
  name: 'admin',
  routes: (ctx: AppContext) => consoleRoutes(ctx).use(passkeyRoutes(ctx)),
  codes: ADMIN_CODES,
  settings: { key: 'console', load: loadConsoleSettings },
  // A reissued or revoked key ends the account's console sessions and passkeys (in that transaction).
  parts: { actions: ADMIN_ACTIONS, keyEnded: [endConsoleAccess] },
};
