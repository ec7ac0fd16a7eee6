// The pubs domain as the composition root (src/compose.ts) takes it: what it plugs into the service.
import { PUBS_ACTIONS } from './admin.ts';
import type { Domain } from '../context.ts';
import { PUBS_CODES } from './codes.ts';
import { pubsRoutes } from './routes.ts';
import { loadPubsSettings } from './settings.ts';
import { pubsPublication } from './submit.ts';
import { svgPool } from './svg.ts';

export const PUBS: Domain = {
  name: 'pubs',
  routes: pubsRoutes,
  codes: PUBS_CODES,
  settings: { key: 'pubs', load: loadPubsSettings },
  parts: { publications: { pubs_item: pubsPublication }, actions: PUBS_ACTIONS },
  workers: { pubsSvg: svgPool },
};
