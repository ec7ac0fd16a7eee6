// Where each lab item stands, derived from its live label events, and the documents that show it
// (the office's `lab` member, the scorekeeper). An experiment moves
//   proposed → started → delivered → results → verdict
// by its author's Started:, Delivered:, Result …: and Verdict: replies; a Request or Proposal is
// open until the owner's latest Approved:, Declined: or Done: reply says otherwise.
import { iso } from '../../clock.ts';
import type { AppContext } from '../../context.ts';
import { postUrl } from '../../board/urls.ts';
import type { Db } from '../../db/open.ts';
import { dbRead } from '../../workers/db-reads.ts';
import { RESULT_WINDOWS, type Decision, type Verdict } from './settings.ts';
import { type EventRow, type ItemKind, type ItemRow, labStore } from './store.ts';

type ExperimentState = 'proposed' | 'started' | 'delivered' | 'results' | 'verdict';
type DecisionState = 'open' | Decision;

export interface ExperimentFacts {
  state: ExperimentState;
  started_at: number | null;
  delivered_at: number | null;
  results: { label: string; at: number }[]; // in the order posted; each window once
  verdict: Verdict | null;
  verdict_at: number | null;
}

/** Result labels as stored ('result 1h') and as shown ('Result 1h'). */
const RESULT_LABEL = new Map(RESULT_WINDOWS.map((w) => [w.label.toLowerCase(), w.label]));

export function experimentFacts(events: readonly EventRow[]): ExperimentFacts {
  const f: ExperimentFacts = { state: 'proposed', started_at: null, delivered_at: null, results: [], verdict: null, verdict_at: null };
  for (const e of events) {
    if (e.label === 'started') f.started_at ??= e.created_at;
    else if (e.label === 'delivered') f.delivered_at ??= e.created_at;
    else if (e.label === 'verdict' && f.verdict === null) {
      f.verdict = e.value as Verdict;
      f.verdict_at = e.created_at;
    } else {
      const shown = RESULT_LABEL.get(e.label);
      if (shown && !f.results.some((r) => r.label === shown)) f.results.push({ label: shown, at: e.created_at });
    }
  }
  f.state =
    f.verdict !== null ? 'verdict' : f.results.length > 0 ? 'results' : f.delivered_at !== null ? 'delivered' : f.started_at !== null ? 'started' : 'proposed';
  return f;
}

/** The owner's latest live decision on a Request or Proposal, or 'open'. */
function decisionOf(events: readonly EventRow[]): { state: DecisionState; decided_at: number | null } {
  let out: { state: DecisionState; decided_at: number | null } = { state: 'open', decided_at: null };
  for (const e of events) if (e.label === 'approved' || e.label === 'declined' || e.label === 'done') out = { state: e.label, decided_at: e.created_at };
  return out;
}

const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms));

function base(baseUrl: string, item: ItemRow) {
  return {
    id: item.id,
    title: item.title,
    author: item.author,
    created_at: iso(item.created_at),
    url: postUrl(baseUrl, { id: item.id, thread_id: item.thread_id }),
  };
}

/** The newest `max` live items of a kind created since `sinceMs` or moved by a live label since then. */
const activeSince = (db: Db, kind: ItemKind, sinceMs: number, max: number) => labStore(db).itemsActiveSince.all(kind, sinceMs, sinceMs).slice(0, max);

/**
 * Experiments created since `sinceMs`, or with a live label since then (an older experiment still
 * moving), newest first, with their state. Times are ISO strings, or null when not reached.
 */
function experimentStates(db: Db, baseUrl: string, sinceMs: number, max: number) {
  const s = labStore(db);
  return activeSince(db, 'experiment', sinceMs, max).map((item) => {
    const f = experimentFacts(s.events.all(item.id));
    return {
      ...base(baseUrl, item),
      channel: item.channel,
      state: f.state,
      started_at: isoOrNull(f.started_at),
      delivered_at: isoOrNull(f.delivered_at),
      results: f.results.map((r) => ({ label: r.label, at: iso(r.at) })),
      verdict: f.verdict,
      verdict_at: isoOrNull(f.verdict_at),
    };
  });
}

function decided(db: Db, baseUrl: string, kind: 'request' | 'proposal', sinceMs: number, max: number) {
  const s = labStore(db);
  return activeSince(db, kind, sinceMs, max).map((item) => {
    const d = decisionOf(s.events.all(item.id));
    const extra = kind === 'request' ? { resource: item.resource, plus_ones: s.plusOnes.get(item.id)?.n ?? 0 } : { payback: item.payback };
    return { ...base(baseUrl, item), ...extra, state: d.state, decided_at: isoOrNull(d.decided_at) };
  });
}

export const LAB_SUMMARY_DAYS = 14;

/**
 * The lab of the window starting at `sinceMs` (the office's `lab` member) read from `db` alone, so
 * that a worker with its own read connection can build it (workers/board-reads.ts): experiments,
 * proposals and requests created in the window or moved by a label in it, newest first, each with
 * its state; the newest `max` of each kind (only those are read further: their labels, their +1s).
 */
export function labSummaryOf(db: Db, baseUrl: string, sinceMs: number, max = Number.POSITIVE_INFINITY) {
  return {
    since: iso(sinceMs),
    experiments: experimentStates(db, baseUrl, sinceMs, max),
    proposals: decided(db, baseUrl, 'proposal', sinceMs, max),
    requests: decided(db, baseUrl, 'request', sinceMs, max),
  };
}

export type LabSummary = ReturnType<typeof labSummaryOf>;

/** labSummaryOf as a read the board-reads worker runs (src/workers/db-reads.ts). */
export const LAB_SUMMARY_READ = dbRead('lab-summary', (db, p: { baseUrl: string; sinceMs: number; max: number }) =>
  labSummaryOf(db, p.baseUrl, p.sinceMs, p.max),
);

/** The lab of the last 14 days (labSummaryOf on the service's database and base URL). */
export function labSummary(ctx: AppContext, sinceMs: number = ctx.clock.now() - LAB_SUMMARY_DAYS * 86_400_000, max?: number): LabSummary {
  return labSummaryOf(ctx.db, ctx.config.baseUrl, sinceMs, max);
}

/**
 * What moved in the lab in [fromMs, toMs): new roots by kind and the experiment labels posted,
 * counted from live posts only (the scorekeeper's numbers).
 */
export function labActivityBetween(ctx: AppContext, fromMs: number, toMs: number) {
  const s = labStore(ctx.db);
  const created = { experiment: 0, request: 0, proposal: 0 };
  for (const r of s.itemsBetween.all(fromMs, toMs)) created[r.kind] = r.n;
  const labels = { started: 0, delivered: 0, results: 0, verdicts: { win: 0, fail: 0, inconclusive: 0 } as Record<Verdict, number>, decisions: 0 };
  for (const r of s.eventsBetween.all(fromMs, toMs)) {
    if (r.label === 'started') labels.started += r.n;
    else if (r.label === 'delivered') labels.delivered += r.n;
    else if (r.label === 'verdict') labels.verdicts[r.value as Verdict] += r.n;
    else if (RESULT_LABEL.has(r.label)) labels.results += r.n;
    else labels.decisions += r.n;
  }
  return { created, ...labels };
}
