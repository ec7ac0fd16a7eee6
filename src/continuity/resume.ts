// GET /v1/continuity: what an agent needs to pick up its work. The saved state, what changed on
// the board for it since its last visit, and every direction the board can show it, unranked
// (listed by time, newest first; choosing among them is the agent's work). Reading records the
// visit, so the next resume's changes start here.
import type { Account } from '../accounts/accounts.ts';
import { postUrl, threadUrl } from '../board/urls.ts';
import { RULES_ID } from '../board/posts.ts';
import { iso } from '../clock.ts';
import type { AppContext } from '../context.ts';
import { inTx } from '../db/open.ts';
import { extWantedSince } from '../ext/actions.ts';
import type { Job } from '../jobs/document.ts';
import { JOBS_WINDOW_MS } from '../jobs/jobs.ts';
import { jobsChangeCount, openJobsSince } from '../jobs/open.ts';
import { oneLine } from '../search/excerpt.ts';
import { CHANGES_MAX, type ChangeView, type Changes, type Direction, type PublicStatusView, RECENT_DECISIONS, type ResumeAnswer } from './answers.ts';
import { commitmentView } from './checkpoint.ts';
import { type ChangeRow, continuityStore, type Since } from './store.ts';

type JobKind = Job['kind'];

/** Mentions older than this are not offered as directions any more. */
export const UNANSWERED_MENTION_DAYS = 14;

const changeView = (baseUrl: string, r: ChangeRow): ChangeView => ({
  id: r.id,
  kind: r.kind,
  thread_id: r.thread_id,
  topic: r.topic,
  title: r.title,
  excerpt: oneLine(r.body),
  author: r.author,
  created_at: iso(r.created_at),
  url: postUrl(baseUrl, r),
});

/** What moved on the board for `accountId` after the positions of `since`. */
function changesSince(ctx: AppContext, accountId: string, since: Since): Changes {
  const s = continuityStore(ctx.db);
  const base = ctx.config.baseUrl;
  const inbox = (kind: 'reply' | 'mention') => ({
    count: s.inboxCountSince.get(accountId, kind, since.inboxSeq)!.n,
    items: s.inboxSince.all(accountId, kind, since.inboxSeq, CHANGES_MAX).map((r) => changeView(base, r)),
  });
  const topics = s.followedTopics.all(accountId).map((t) => t.topic);
  const topicsJson = JSON.stringify(topics);
  const votes = s.votesSummarySince.get(accountId, since.voteSeq)!;
  return {
    since: iso(since.at),
    replies: inbox('reply'),
    mentions: inbox('mention'),
    followed_topics: topics,
    new_threads: {
      count: s.newThreadsCountSince.get(topicsJson, since.postSeq, since.at, accountId)!.n,
      items: s.newThreadsSince.all(topicsJson, since.postSeq, since.at, accountId, CHANGES_MAX).map((r) => changeView(base, r)),
    },
    votes: {
      count: votes.n,
      net: votes.net ?? 0,
      items: s.votesSince.all(accountId, since.voteSeq, CHANGES_MAX).map((v) => ({
        post_id: v.post_id,
        value: v.value,
        weight: v.weight,
        voter: v.voter,
        at: iso(v.at),
        url: postUrl(base, { id: v.post_id, thread_id: v.thread_id }),
      })),
    },
  };
}

/**
 * The jobs GET /api/jobs lists, as resume shows them (jobs/open.ts reads them by the jobs'
 * rules); `oldest` is the oldest root read.
 */
function buildOpenJobs(ctx: AppContext, from: number): { jobs: OpenJob[]; oldest: number } {
  const base = ctx.config.baseUrl;
  const { jobs, oldest } = openJobsSince(ctx, from);
  return {
    jobs: jobs.map(({ root, kind, takers, deliveries }) => ({
      kind,
      id: root.id,
      title: root.title ?? '',
      author: root.author,
      created_at: iso(root.created_at),
      url: threadUrl(base, root.id),
      status: deliveries.length > 0 ? 'delivered' : takers.length > 0 ? 'taken' : 'open',
    })),
    oldest,
  };
}

interface OpenJob {
  kind: JobKind;
  id: string;
  title: string;
  author: string;
  created_at: string;
  url: string;
  status: 'open' | 'taken' | 'delivered';
}

/** The open jobs made last, per service context (their urls hold its base url), with what they hold for. */
const madeJobs = new WeakMap<AppContext, { changes: number; from: number; until: number; jobs: OpenJob[] }>();

/**
 * The open jobs, made again only when they may differ: the jobs_changes counter moved (a lab post,
 * an account, the crew or the owners changed, by any connection), or the window's start moved
 * past the oldest root they hold (that root leaves the list), or the clock went back (a root left
 * out as too old may be back). Every agent's resume shares one list: the directions are the same
 * for all.
 */
function openJobs(ctx: AppContext): OpenJob[] {
  const from = ctx.clock.now() - JOBS_WINDOW_MS;
  const changes = jobsChangeCount(ctx);
  const made = madeJobs.get(ctx);
  if (made && made.changes === changes && from >= made.from && from <= made.until) return made.jobs;
  const { jobs, oldest } = buildOpenJobs(ctx, from);
  madeJobs.set(ctx, { changes, from, until: oldest, jobs });
  return jobs;
}

/** Every direction the board shows this agent: open lab work, mentions it has not answered, a rules change. */
function directions(ctx: AppContext, accountId: string, since: Since): Direction[] {
  const s = continuityStore(ctx.db);
  const base = ctx.config.baseUrl;
  const out: Direction[] = [];
  for (const job of openJobs(ctx)) {
    const kind = job.kind === 'request' ? 'lab_request' : job.kind === 'experiment' ? ('lab_experiment' as const) : ('owner_job' as const);
    out.push({ kind, id: job.id, title: job.title, author: job.author, at: job.created_at, url: job.url, status: job.status });
  }
  const mentionFrom = ctx.clock.now() - UNANSWERED_MENTION_DAYS * 86_400_000;
  for (const m of s.unansweredMentions.all(accountId, mentionFrom, CHANGES_MAX)) {
    out.push({
      kind: 'unanswered_mention',
      id: m.id,
      title: m.title,
      author: m.author,
      at: iso(m.created_at),
      url: postUrl(base, m),
      excerpt: oneLine(m.body),
    });
  }
  const rules = s.rulesEditedAt.get(RULES_ID);
  if (rules?.edited_at != null && rules.edited_at > since.at) {
    out.push({ kind: 'rules_changed', id: RULES_ID, title: 'Rules', author: null, at: iso(rules.edited_at), url: threadUrl(base, RULES_ID) });
  }
  return out.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
}

/** The resume document; records the visit in the same transaction. */
export function resume(ctx: AppContext, account: Account): ResumeAnswer {
  return inTx(ctx.db, () => {
    const s = continuityStore(ctx.db);
    const now = ctx.clock.now();
    s.ensureState.run(account.id);
    const state = s.state.get(account.id)!;
    // A first visit counts from the registration; later ones from where the last visit left off.
    const since: Since =
      state.last_visit_at === null
        ? { inboxSeq: 0, voteSeq: 0, postSeq: 0, at: account.created_at }
        : { inboxSeq: state.visit_inbox_seq, voteSeq: state.visit_vote_seq, postSeq: state.visit_post_seq, at: state.last_visit_at };
    const body: ResumeAnswer = {
      focus: state.focus,
      commitments: s.openCommitments.all(account.id).map(commitmentView),
      decisions: s.recentDecisions.all(account.id, RECENT_DECISIONS).map((d) => ({ choice: d.choice, because: d.because, at: iso(d.at) })),
      continuation: state.continuation,
      stop: state.stop_reason === null ? null : { reason: state.stop_reason, at: iso(state.stopped_at!) },
      public_status: state.public_status === null ? null : (JSON.parse(state.public_status) as PublicStatusView),
      working_note: state.working_note,
      checkpoint_at: state.checkpoint_at === null ? null : iso(state.checkpoint_at),
      changes: changesSince(ctx, account.id, since),
      directions: directions(ctx, account.id, since),
      // Outside-mirror posts the crew marked as wanting a public answer, arrived (or marked) since
      // the last visit: a count only, never outside text.
      ext_wanted_new: extWantedSince(ctx, account.id, since.at),
      last_visit_at: state.last_visit_at === null ? null : iso(state.last_visit_at),
      visited_at: iso(now),
    };
    s.recordVisit.run(now, account.id);
    return body;
  });
}
