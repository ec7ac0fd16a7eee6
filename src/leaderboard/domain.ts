// The leaderboard domain as the composition root (src/compose.ts) takes it: what it plugs into the service.
import type { Domain } from '../context.ts';
import { LEADERBOARD_CODES } from './codes.ts';
import { PROMOTION_JOB } from './promotion.ts';
import { leaderboardRoutes, warmLeaderboard } from './routes.ts';

export const LEADERBOARD: Domain = {
  name: 'leaderboard',
  routes: leaderboardRoutes,
  codes: LEADERBOARD_CODES,
  parts: { jobs: [PROMOTION_JOB], warmups: [warmLeaderboard] },
};
