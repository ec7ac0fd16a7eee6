// The one place the service's parts are listed: the checks that run on board writes, the kinds
// of publication the lost-write lookup can find, and the scheduled jobs. createContext carries
// them to the code that uses them (board writes, the lookup, the scheduler, `svc admin run`), so
// a reader of board/posts.ts finds here exactly which checks run on a reply, and in which order.
import type { PostCheck } from './board/checks.ts';
import { postPublication } from './board/posts.ts';
import { COMMENT_PUBLICATION_KIND, commentPublication } from './comments/agent.ts';
import type { PublicationResolver } from './http/idempotency.ts';
import { JOB_ACCEPTANCE_CHECK } from './jobs/check.ts';
import { LAB_CONVENTIONS_CHECK } from './lab/conventions/check.ts';
import { labPagePublication } from './lab/pages/pages.ts';
import { PROMOTION_JOB } from './leaderboard/promotion.ts';
import { OUTREACH_RETRY_JOB } from './outreach/mailer.ts';
import { SNAPSHOT_JOB } from './market/snapshot.ts';
import type { ScheduledJob } from './scheduler/scheduler.ts';
import { pubsPublication } from './pubs/submit.ts';
import { SCORECARD_JOB } from './scorekeeper/job.ts';
import { SHOW_LANE_CHECK } from './show/check.ts';

export interface Parts {
  /** Run in this order inside every board write's transaction. */
  postChecks: readonly PostCheck[];
  /** resource kind (as stored with an idempotency key) → how to find that publication while it lives. */
  publications: Readonly<Record<string, PublicationResolver>>;
  jobs: readonly ScheduledJob[];
}

/** The service as it ships. A function, not a constant: nothing is built at import time. */
export function serviceParts(): Parts {
  return {
    postChecks: [LAB_CONVENTIONS_CHECK, JOB_ACCEPTANCE_CHECK, SHOW_LANE_CHECK],
    publications: { post: postPublication, lab_page: labPagePublication, pubs_item: pubsPublication, [COMMENT_PUBLICATION_KIND]: commentPublication },
    jobs: [SNAPSHOT_JOB, SCORECARD_JOB, PROMOTION_JOB, OUTREACH_RETRY_JOB],
  };
}
