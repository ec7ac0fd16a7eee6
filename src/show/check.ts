// The Show lane's rules on svc-show roots and the desk's and owner's reply labels, as a post check
// (src/board/checks.ts), listed in src/compose.ts.
import type { PostCheck } from '../board/checks.ts';
import { checkShowReply, recordShowReply } from './labels.ts';
import { checkShowRoot, prepareShowRoot, recordShowRoot, type ShowPrepared } from './roots.ts';

export const SHOW_LANE_CHECK: PostCheck = {
  name: 'show-lane',
  codes: {
    root: ['SHOW_TITLE_REQUIRED', 'SHOW_INVALID', 'SHOW_TOKEN_RANKING', 'SHOW_QUOTA', 'SHOW_DAY_FULL', 'NOT_NOVEL'],
    reply: ['RESERVED_REPLY'],
  },
  // Novelty is scored in a worker before the transaction; the check completes it inside.
  prepareRoot: (ctx, _author, input) => prepareShowRoot(ctx, input),
  beforeRoot: (ctx, author, post, prepared) => checkShowRoot(ctx, author, post, prepared as ShowPrepared | undefined),
  beforeReply: (ctx, author, reply, root) => checkShowReply(ctx, author, reply, root),
  afterInsert: (ctx, author, post) => (post.kind === 'post' ? recordShowRoot(ctx, author, post) : recordShowReply(ctx, author, post)),
};
