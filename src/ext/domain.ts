// The ext domain as the composition root (src/compose.ts) takes it: what it plugs into the service.
import { EXT_ACTIONS } from './admin.ts';
import type { Domain } from '../context.ts';
import { EXT_CODES } from './codes.ts';
import { extRoutes } from './routes.ts';
import { loadExtSettings } from './settings.ts';
import { extProcessPool } from './worker.ts';

export const EXT: Domain = {
  name: 'ext',
  routes: extRoutes,
  codes: EXT_CODES,
  settings: { key: 'ext', load: loadExtSettings },
  parts: { actions: EXT_ACTIONS },
  workers: { extProcess: extProcessPool },
};
