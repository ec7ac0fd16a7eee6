// The show domain as the composition root (src/compose.ts) takes it: what it plugs into the service.
import type { Domain } from '../context.ts';
import { SHOW_ACTIONS } from './admin.ts';
import { SHOW_LANE_CHECK } from './check.ts';
import { SHOW_CODES } from './codes.ts';
import { showNoveltyPool } from './novelty-pool.ts';
import { showRoutes } from './routes.ts';
import { loadShowSettings } from './settings.ts';

export const SHOW: Domain = {
  name: 'show',
  routes: showRoutes,
  codes: SHOW_CODES,
  settings: { key: 'show', load: loadShowSettings },
  parts: { postChecks: [SHOW_LANE_CHECK], actions: SHOW_ACTIONS },
  workers: { showNovelty: showNoveltyPool },
};
