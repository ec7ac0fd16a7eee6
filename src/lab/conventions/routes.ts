// The lab's conventions ride on board writes: no routes of their own. Creating the plugin (as
// createApp does) registers the board rules (lab roots, reply labels, reserved titles) and the
// scorekeeper's `scorecard` job, so the server and `svc admin run scorecard` see the same.
import { Elysia } from 'elysia';
import type { AppContext } from '../../context.ts';
import { registerBoardRules } from '../../board/rules-hooks.ts';
import { registerJob } from '../../scheduler/registry.ts';
import { SCORECARD_JOB } from '../../scorekeeper/job.ts';
import { checkLabReply, recordLabReply } from './labels.ts';
import { checkLabRoot, recordLabRoot } from './roots.ts';

export const LAB_RULES_NAME = 'lab-conventions';

const installed = new WeakSet<AppContext>();

/** Whether labConventionsRoutes was created for this context (test harnesses mount it once). */
export const labConventionsInstalled = (ctx: AppContext): boolean => installed.has(ctx);

export const labConventionsRoutes = (ctx: AppContext) => {
  installed.add(ctx);
  registerBoardRules({
    name: LAB_RULES_NAME,
    beforeRoot: checkLabRoot,
    beforeReply: (c, author, reply, root) => checkLabReply(c, author, reply, root),
    afterInsert: (c, author, post) => (post.kind === 'post' ? recordLabRoot(c, post) : recordLabReply(c, author, post)),
  });
  registerJob(SCORECARD_JOB);
  return new Elysia({ name: 'lab-conventions', seed: ctx });
};
