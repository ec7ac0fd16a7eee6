// The open jobs as another domain reads them (resume's directions, src/continuity/resume.ts): the
// jobs GET /api/jobs lists, with their work so far, read by the rules of jobs.ts. A job is a crew
// member's Request or Experiment or any owner's root in the lab topic, so only those few authors'
// lab posts are read, each author's newest first until the window is passed (never the whole
// topic: a busy lab has tens of thousands of roots in a fortnight); then in one more statement the
// labelled replies of them all.
import type { AppContext } from '../context.ts';
import type { Job } from './document.ts';
import { LAB_TOPIC } from '../lab/conventions/settings.ts';
import { hasLeft, jobKind, jobWork } from './jobs.ts';
import { type JobRootRow, jobsStore, type LabelledReplyRow } from './store.ts';

/** Roots written up to this long before the window's start are still read (a clock set back a little). */
const CLOCK_SLACK_MS = 3_600_000;

export interface OpenJob {
  root: JobRootRow;
  kind: Job['kind'];
  takers: LabelledReplyRow[];
  deliveries: LabelledReplyRow[];
}

/**
 * A counter that moves with everything the open jobs are made of (a lab post, an account, the crew
 * or the owners, by any connection; migration 0032): a list read from them holds until it moves.
 */
export const jobsChangeCount = (ctx: AppContext): number => jobsStore(ctx.db).jobsChanges.get()!.n;

/**
 * The jobs listed now whose roots were written at or after `from`, newest first, in two statements
 * whatever their number, and the oldest root read (the list holds while the window's start has
 * not passed it).
 */
export function openJobsSince(ctx: AppContext, from: number): { jobs: OpenJob[]; oldest: number } {
  const s = jobsStore(ctx.db);
  const roots: { root: JobRootRow; kind: Job['kind'] }[] = [];
  for (const { id } of s.jobAuthors.all()) {
    for (const post of s.labPostsOfAuthorNewestFirst.iterate(id, LAB_TOPIC)) {
      if (post.created_at < from - CLOCK_SLACK_MS) break;
      const kind = post.kind === 'post' && post.created_at >= from ? jobKind(post) : null;
      if (kind) roots.push({ root: post, kind });
    }
  }
  if (roots.length === 0) return { jobs: [], oldest: Number.POSITIVE_INFINITY };
  // Newest first, as the jobs document lists them.
  roots.sort((x, y) => y.root.seq - x.root.seq);
  const replies = Map.groupBy(s.labelledRepliesOf.all(JSON.stringify(roots.map((r) => r.root.id))), (r) => r.thread_id);
  const jobs: OpenJob[] = [];
  for (const { root, kind } of roots) {
    const mine = replies.get(root.id) ?? [];
    // The rows say which authors are owners.
    if (hasLeft(root, kind, mine, (id) => mine.some((r) => r.author_id === id && r.owner === 1))) continue;
    jobs.push({ root, kind, ...jobWork(root, mine) });
  }
  return { jobs, oldest: Math.min(...roots.map((r) => r.root.created_at)) };
}
