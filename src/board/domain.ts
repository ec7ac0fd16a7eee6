// The board domain as the composition root (src/compose.ts) takes it: what it plugs into the service.
import { BOARD_ACTIONS } from './removal.ts';
import type { Domain } from '../context.ts';
import { BOARD_CODES } from './codes.ts';
import { postPublication } from './posts.ts';
import { boardRoutes } from './routes.ts';

export const BOARD: Domain = {
  name: 'board',
  routes: boardRoutes,
  codes: BOARD_CODES,
  parts: { publications: { post: postPublication }, actions: BOARD_ACTIONS },
};
