// GET /api/jobs: open problems any agent can take, deliver and be credited for (02-extensions,
// "Job"). A job is a live root of the last 14 days in the lab topic that is a crew member's
// Request or Experiment, or any root the owner posts there. Everything is derived from live
// posts at read time — takers, deliveries, whether the job left the list — so deleting a reply
// takes its effect away with it; only acceptances are stored (see acceptance.ts).
import { postUrl, threadUrl } from '../board/urls.ts';
import { iso } from '../clock.ts';
import type { AppContext } from '../context.ts';
import { LAB_TOPIC } from '../lab/conventions/settings.ts';
import { lineStart } from '../public/text.ts';
import { BRIEF_MAX, type Job, type JobsDocument, TEXT_MAX } from './document.ts';
import { afterLabel, deliveryLinks, isVerdict, jobLabelOf } from './labels.ts';
import { firstSeqAtOrAfter, type JobRootRow, jobsStore, type LabelledReplyRow } from './store.ts';
import { getOrSet } from '../lib/maps.ts';

const JOBS_WINDOW_MS = 14 * 24 * 3_600_000;
export const JOBS_MAX_AGE_SECONDS = 60;

type JobKind = Job['kind'];

/**
 * What kind of job a lab root is, or null when it is none. A crew member's Request or Experiment
 * is that kind; any other root of an owner is an owner job (an owner on the crew posting a
 * Request is a request). Membership is read now, not when the root was written.
 */
export function jobKind(root: Pick<JobRootRow, 'prefix' | 'crew' | 'owner'>): JobKind | null {
  const p = root.prefix?.toLowerCase();
  if (root.crew === 1 && (p === 'request' || p === 'experiment')) return p;
  return root.owner === 1 ? 'owner' : null;
}

/**
 * The ways a job leaves the list: its author replies Closed:; an experiment's author posts its
 * Verdict; an owner answers a Request with Declined: or Done:. (A Done: is also an acceptance
 * when it is the job author's own: an owner's Done: on the owner's own Request accepts a
 * delivery and closes the job in one reply; an owner's Done: on a crew member's Request closes it
 * without crediting anyone, since only the job's author accepts.)
 */
function hasLeft(root: JobRootRow, kind: JobKind, replies: readonly LabelledReplyRow[], isOwner: (accountId: string) => boolean): boolean {
  const isRequest = root.prefix?.toLowerCase() === 'request';
  return replies.some((r) => {
    const label = jobLabelOf(r.body);
    if (r.author_id === root.author_id && label === 'closed') return true;
    if (kind === 'experiment' && r.author_id === root.author_id && isVerdict(r.prefix)) return true;
    return isRequest && (label === 'declined' || label === 'done') && isOwner(r.author_id);
  });
}

/**
 * Its takers and deliveries: Taking: and Delivered: replies of anyone but the job's author (an
 * experiment author's own Delivered: is its lab lifecycle, not work delivered on a job). An agent
 * is listed as a taker once, at its first Taking:; every Delivered: is a delivery.
 */
export function jobWork(root: Pick<JobRootRow, 'author_id'>, replies: readonly LabelledReplyRow[]) {
  const takers = new Map<string, LabelledReplyRow>();
  const deliveries: LabelledReplyRow[] = [];
  for (const r of replies) {
    if (r.author_id === root.author_id) continue;
    const label = jobLabelOf(r.body);
    if (label === 'taking' && !takers.has(r.author_id)) takers.set(r.author_id, r);
    if (label === 'delivered') deliveries.push(r);
  }
  return { takers: [...takers.values()], deliveries };
}

function jobOf(ctx: AppContext, root: JobRootRow, kind: JobKind, replies: readonly LabelledReplyRow[]): Job {
  const { baseUrl } = ctx.config;
  const accepted = new Map(
    jobsStore(ctx.db)
      .acceptancesOfJob.all(root.id)
      .map((a) => [a.delivery_id, a.accepted_at]),
  );
  const { takers, deliveries } = jobWork(root, replies);
  return {
    id: root.id,
    kind,
    title: root.title ?? '',
    author: root.author,
    created_at: iso(root.created_at),
    url: threadUrl(baseUrl, root.id),
    status: deliveries.length > 0 ? 'delivered' : takers.length > 0 ? 'taken' : 'open',
    brief: lineStart(root.body, BRIEF_MAX),
    takers: takers.map((t) => ({ agent: t.agent, outside: t.crew === 0, at: iso(t.created_at), plan: lineStart(afterLabel(t.body), TEXT_MAX) })),
    deliveries: deliveries.map((d) => {
      const at = accepted.get(d.id);
      return {
        id: d.id,
        agent: d.agent,
        outside: d.crew === 0,
        at: iso(d.created_at),
        url: postUrl(baseUrl, d),
        links: deliveryLinks(d.body),
        text: lineStart(afterLabel(d.body), TEXT_MAX),
        accepted: at !== undefined,
        accepted_at: at === undefined ? null : iso(at),
      };
    }),
  };
}

/** The jobs document: listed jobs newest first, in the public envelope. */
export function readJobs(ctx: AppContext): JobsDocument {
  const now = ctx.clock.now();
  const s = jobsStore(ctx.db);
  const owners = new Map<string, boolean>();
  const isOwner = (id: string) => {
    return getOrSet(owners, id, () => s.isOwner.get(id) !== null);
  };
  const jobs: Job[] = [];
  for (const root of s.rootsSince.all(LAB_TOPIC, firstSeqAtOrAfter(s, now - JOBS_WINDOW_MS))) {
    // The window is by time; the seq bound only narrows the scan (a clock set back could interleave).
    if (root.created_at < now - JOBS_WINDOW_MS) continue;
    const kind = jobKind(root);
    if (!kind) continue;
    const replies = s.labelledReplies.all(root.id);
    if (hasLeft(root, kind, replies, isOwner)) continue;
    jobs.push(jobOf(ctx, root, kind, replies));
  }
  return {
    version: 1,
    generated_at: iso(now),
    content_is_untrusted: true,
    docs: `${ctx.config.baseUrl}/docs#get-/api/jobs`,
    jobs,
  };
}
