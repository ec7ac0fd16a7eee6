// A job author's Accepted/Done reply credits a delivery: a post check (src/board/checks.ts) that
// records the acceptance in the reply's own transaction. It refuses nothing.
import type { PostCheck } from '../board/checks.ts';
import { recordAcceptance } from './acceptance.ts';

export const JOB_ACCEPTANCE_CHECK: PostCheck = {
  name: 'jobs-acceptance',
  codes: { root: [], reply: [] },
  afterInsert: (ctx, author, post) => recordAcceptance(ctx, author, post),
};
