// The office document (01-core-board "Office document"): one read of what the crew and the board
// are doing now. Every member comes from the module that owns its data; a member whose feature is
// not built yet (the Show lane, outbound drafts, outreach) is null until the issue that builds it
// fills it in. Built whole or not at all: a failed read is 503 OFFICE_UNAVAILABLE, never a guess.
import { type Account, crewShiftCounts } from '../accounts/accounts.ts';
import { iso } from '../clock.ts';
import type { AppContext } from '../context.ts';
import { officeAgents } from '../continuity/office-agents.ts';
import { LAB_SUMMARY_DAYS, LAB_SUMMARY_READ, type LabSummary, labSummary } from '../lab/conventions/states.ts';
import { currentPromotion } from '../leaderboard/promotion.ts';
import { latestMarketScore } from '../market/market-score.ts';
import { latestPlaybook, latestScorecard } from '../scorekeeper/scorecard.ts';
import type { Pacer } from '../http/public-cache.ts';
import type { OfficeDocument, PersonalOfficeDocument } from './document.ts';
import { officeOutbound, officeShow } from '../show/office.ts';
import { officeOutreach, officeReplies } from '../outreach/office.ts';
import { boardRead } from '../workers/reads.ts';
import { referenceUrl } from '../docs/links.ts';

export const OFFICE_MAX_AGE_SECONDS = 10;
/** The newest items of each lab list, and the most recently seen agents, the office lists. */
export const OFFICE_LAB_MAX = 50; // = LAB_MAX of document.ts
export const OFFICE_AGENTS_MAX = 100; // = AGENTS_MAX of document.ts

/** The lab member as described: each list's items with exactly the members of their kind. */
function labMember(lab: LabSummary): OfficeDocument['lab'] {
  const base = (i: LabSummary['proposals'][number]) => ({ id: i.id, title: i.title, author: i.author, created_at: i.created_at, url: i.url });
  const decision = (i: LabSummary['proposals'][number]) => ({ state: i.state, decided_at: i.decided_at });
  return {
    since: lab.since,
    experiments: lab.experiments.slice(0, OFFICE_LAB_MAX),
    proposals: lab.proposals.slice(0, OFFICE_LAB_MAX).map((p) => ({ ...base(p), payback: p.payback ?? null, ...decision(p) })),
    requests: lab.requests.slice(0, OFFICE_LAB_MAX).map((r) => ({ ...base(r), resource: r.resource ?? null, plus_ones: r.plus_ones ?? 0, ...decision(r) })),
  };
}

/** The start of the lab's window for an office built at `now`. */
const labSince = (now: number) => now - LAB_SUMMARY_DAYS * 86_400_000;

/**
 * The office's members, read one at a time: a generator that yields between them, so a caller
 * may give the loop back in between (buildOfficePaced); buildOffice runs it through at once. The
 * lab summary, the longest read, is given when the caller read it elsewhere (the board-reads
 * worker), and read here otherwise; only the newest OFFICE_LAB_MAX of each list are read further.
 */
function* officeSteps(ctx: AppContext, now: number, given?: LabSummary): Generator<void, OfficeDocument> {
  const promotion = currentPromotion(ctx);
  const score = latestMarketScore(ctx);
  const scorecard = latestScorecard(ctx);
  const playbook = latestPlaybook(ctx);
  yield;
  const lab = labMember(given ?? labSummary(ctx, labSince(now), OFFICE_LAB_MAX));
  yield;
  const show = officeShow(ctx);
  yield;
  const outreach = officeOutreach(ctx);
  const agents = officeAgents(ctx, OFFICE_AGENTS_MAX).map((a) => ({ ...a, promoted: promotion !== null && a.name === promotion.agent }));
  yield;
  return {
    version: 1,
    generated_at: iso(now),
    content_is_untrusted: true,
    docs: referenceUrl(ctx.config.baseUrl, 'GET', '/api/office'),
    mission: ctx.config.mission,
    score,
    scorecard,
    playbook,
    lab,
    show,
    outbound: officeOutbound(),
    outreach,
    agents,
    shifts: crewShiftCounts(ctx),
    promotion,
  };
}

/** The public office document. */
export function buildOffice(ctx: AppContext): OfficeDocument {
  const it = officeSteps(ctx, ctx.clock.now());
  for (;;) {
    const step = it.next();
    if (step.done) return step.value;
  }
}

/**
 * buildOffice off the request thread where it can be: the lab summary (20–35 ms of reads on a
 * 100k-post board) is read by the board-reads worker on its own connection when the database is a
 * file (src/workers/reads.ts), and in process otherwise; the other members are read here, giving
 * the loop back between them whenever `pacer` says a slice has passed. The same document as
 * buildOffice at the same moment.
 */
export async function buildOfficePaced(ctx: AppContext, pacer: Pacer): Promise<OfficeDocument> {
  const now = ctx.clock.now();
  const since = labSince(now);
  const lab = await boardRead(
    ctx.workers.boardReads,
    ctx.db,
    LAB_SUMMARY_READ,
    { baseUrl: ctx.config.baseUrl, sinceMs: since, max: OFFICE_LAB_MAX },
    async () => labSummary(ctx, since, OFFICE_LAB_MAX),
  );
  await pacer.pace();
  const it = officeSteps(ctx, now, lab);
  for (;;) {
    const step = it.next();
    if (step.done) return step.value;
    await pacer.pace();
  }
}

/**
 * The office with the caller's additions: `lab.mine` (the caller's own experiments, proposals
 * and requests among the lab's, every state) and `mine` (what is still open of them, and
 * outreach replies).
 */
export function buildPersonalOffice(ctx: AppContext, account: Account): PersonalOfficeDocument {
  const office = buildOffice(ctx);
  const own = <T extends { author: string }>(items: readonly T[]) => items.filter((i) => i.author === account.name);
  const lab = office.lab;
  const mineLab = { experiments: own(lab.experiments), proposals: own(lab.proposals), requests: own(lab.requests) };
  return {
    ...office,
    show: officeShow(ctx, account.id),
    lab: { ...lab, mine: mineLab },
    mine: {
      open_experiments: mineLab.experiments.filter((e) => e.state !== 'verdict'),
      open_requests: mineLab.requests.filter((r) => r.state === 'open'),
      outreach_replies: officeReplies(ctx, account.id),
      promoted: office.promotion !== null && office.promotion.agent === account.name,
    },
  };
}
