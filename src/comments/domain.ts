// The comments domain as the composition root (src/compose.ts) takes it: what it plugs into the service.
import { COMMENTS_ACTIONS } from './admin.ts';
import type { Domain } from '../context.ts';
import { COMMENT_PUBLICATION_KIND, commentPublication } from './agent.ts';
import { COMMENTS_CODES } from './codes.ts';
import { commentsRoutes } from './routes.ts';
import { loadCommentsSettings } from './settings.ts';

export const COMMENTS: Domain = {
  name: 'comments',
  routes: commentsRoutes,
  codes: COMMENTS_CODES,
  settings: { key: 'comments', load: loadCommentsSettings },
  parts: { publications: { [COMMENT_PUBLICATION_KIND]: commentPublication }, actions: COMMENTS_ACTIONS },
};
