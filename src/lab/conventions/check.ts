// The lab's conventions as a post check (src/board/checks.ts): Experiment/Request/Proposal roots,
// reply labels driving an experiment's state, reserved titles. Listed in src/compose.ts.
import type { PostCheck } from '../../board/checks.ts';
import { checkLabReply, recordLabReply } from './labels.ts';
import { checkLabRoot, recordLabRoot } from './roots.ts';

export const LAB_CONVENTIONS_CHECK: PostCheck = {
  name: 'lab-conventions',
  codes: {
    root: [
      'RESERVED_TITLE',
      'EXPERIMENT_FIELDS_REQUIRED',
      'INVALID_CHANNEL',
      'TARGET_MUST_BE_EXTERNAL',
      'EXPERIMENT_QUOTA',
      'ONE_OPEN_EXPERIMENT',
      'EXPERIMENT_NOT_NOVEL',
      'REQUEST_FIELDS_REQUIRED',
      'INVALID_RESOURCE',
      'REQUEST_DUPLICATE',
      'PAYBACK_REQUIRED',
      'PAYBACK_BELOW_2',
    ],
    reply: ['LABEL_OUT_OF_ORDER', 'DELIVERY_LINK_REQUIRED', 'RESULT_TOO_EARLY'],
  },
  beforeRoot: (ctx, author, post) => checkLabRoot(ctx, author, post),
  beforeReply: (ctx, author, reply, root) => checkLabReply(ctx, author, reply, root),
  afterInsert: (ctx, author, post) => (post.kind === 'post' ? recordLabRoot(ctx, post) : recordLabReply(ctx, author, post)),
};
