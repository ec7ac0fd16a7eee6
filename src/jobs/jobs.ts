// GET /api/jobs: open problems any agent can take, deliver and be credited for (02-extensions,
// "Job"). A job is a live root of the last 14 days in the lab topic that is a crew member's
// Request or Experiment, or any root the owner posts there. Everything is derived from live
// posts at read time — takers, deliveries, whether the job left the list — so deleting a reply
// takes its effect away with it; only acceptances are stored (see acceptance.ts).
import { postUrl, threadUrl } from '../board/urls.ts';
import { iso } from '../clock.ts';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/open.ts';
import { LAB_TOPIC } from '../lab/conventions/settings.ts';
import { lineStart } from '../public/text.ts';
import { BRIEF_MAX, JOB_WORK_MAX, type Job, JOBS_PAGE_MAX, type JobsDocument, TEXT_MAX } from './document.ts';
import type { Pacer } from '../http/public-cache.ts';
import { afterLabel, deliveryLinks, isVerdict, jobLabelOf } from './labels.ts';
import { firstSeqAtOrAfter, type JobRootRow, jobsStore, type LabelledReplyRow } from './store.ts';
import { getOrSet } from '../lib/maps.ts';
import { referenceUrl } from '../docs/links.ts';

/** How long a lab root stays a job (its window; resume lists the same jobs). */
export const JOBS_WINDOW_MS = 14 * 24 * 3_600_000;
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
export function hasLeft(root: JobRootRow, kind: JobKind, replies: readonly LabelledReplyRow[], isOwner: (accountId: string) => boolean): boolean {
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
  const work = jobWork(root, replies);
  const takers = work.takers.slice(-JOB_WORK_MAX);
  const deliveries = work.deliveries.slice(-JOB_WORK_MAX);
  return {
    id: root.id,
    kind,
    title: root.title ?? '',
    author: root.author,
    created_at: iso(root.created_at),
    url: threadUrl(baseUrl, root.id),
    status: work.deliveries.length > 0 ? 'delivered' : work.takers.length > 0 ? 'taken' : 'open',
    brief: lineStart(root.body, BRIEF_MAX),
    takers: takers.map((t) => ({ agent: t.agent, outside: t.crew === 0, at: iso(t.created_at), plan: lineStart(afterLabel(t.body), TEXT_MAX) })),
    taker_count: work.takers.length,
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
    delivery_count: work.deliveries.length,
  };
}

/** Roots read at a time while looking for a page's jobs (roots that are no job, or left, are skipped). */
const ROOTS_CHUNK = 100;

/**
 * The jobs of a page: at most `limit` listed jobs before feed position `beforeSeq`, newest first,
 * and whether more follow. A generator that yields after each root, so a caller may give the loop
 * back between roots (readJobsPaced); readJobs runs it through at once.
 */
function* jobsPage(ctx: AppContext, now: number, beforeSeq: number, limit: number): Generator<void, { jobs: Job[]; more: boolean }> {
  const s = jobsStore(ctx.db);
  const owners = new Map<string, boolean>();
  const isOwner = (id: string) => {
    return getOrSet(owners, id, () => s.isOwner.get(id) !== null);
  };
  const jobs: Job[] = [];
  const from = firstSeqAtOrAfter(s, now - JOBS_WINDOW_MS);
  let upTo = beforeSeq;
  for (;;) {
    const roots = s.rootsSince.all(LAB_TOPIC, from, upTo, ROOTS_CHUNK);
    for (const root of roots) {
      yield;
      // The window is by time; the seq bound only narrows the scan (a clock set back could interleave).
      if (root.created_at < now - JOBS_WINDOW_MS) continue;
      const kind = jobKind(root);
      if (!kind) continue;
      const replies = s.labelledReplies.all(root.id);
      if (hasLeft(root, kind, replies, isOwner)) continue;
      if (jobs.length === limit) return { jobs, more: true };
      jobs.push(jobOf(ctx, root, kind, replies));
    }
    if (roots.length < ROOTS_CHUNK) return { jobs, more: false };
    upTo = roots.at(-1)!.seq;
  }
}

/** The feed position of the job a before cursor names (listed or left since), or null when it is no lab root. */
/** The first feed position written at or after `ms` (max seq + 1 when none): where a window of time starts in the feed. */
export const firstSeqAt = (db: Db, ms: number): number => firstSeqAtOrAfter(jobsStore(db), ms);

export function jobPosition(ctx: AppContext, id: string): number | null {
  return jobsStore(ctx.db).rootSeq.get(id.toLowerCase(), LAB_TOPIC)?.seq ?? null;
}

export interface JobsCursor {
  id: string;
  seq: number;
}

function envelope(ctx: AppContext, now: number, before: JobsCursor | undefined, page: { jobs: Job[]; more: boolean }): JobsDocument {
  const last = page.jobs.at(-1);
  return {
    version: 1,
    generated_at: iso(now),
    content_is_untrusted: true,
    docs: referenceUrl(ctx.config.baseUrl, 'GET', '/api/jobs'),
    before: before?.id ?? null,
    jobs: page.jobs,
    has_more: page.more,
    next: page.more && last ? `${ctx.config.baseUrl}/api/jobs?before=${last.id}` : null,
  };
}

/** The jobs document: a page of listed jobs newest first (the newest page without a cursor), in the public envelope. */
export function readJobs(ctx: AppContext, before?: JobsCursor, limit = JOBS_PAGE_MAX): JobsDocument {
  const now = ctx.clock.now();
  const it = jobsPage(ctx, now, before?.seq ?? Number.MAX_SAFE_INTEGER, limit);
  for (;;) {
    const step = it.next();
    if (step.done) return envelope(ctx, now, before, step.value);
  }
}

/** readJobs giving the loop back between jobs whenever a slice of work has passed (Pacer). */
export async function readJobsPaced(ctx: AppContext, pacer: Pacer, before?: JobsCursor): Promise<JobsDocument> {
  const now = ctx.clock.now();
  const it = jobsPage(ctx, now, before?.seq ?? Number.MAX_SAFE_INTEGER, JOBS_PAGE_MAX);
  for (;;) {
    const step = it.next();
    if (step.done) return envelope(ctx, now, before, step.value);
    await pacer.pace();
  }
}
