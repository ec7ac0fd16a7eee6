// The vote-ring window, kept by each vote (schema/0026): the votes a voter cast in the last 24 h
// after its last suspension, board votes and review votes together, counted per target author.
// The check after a vote used to count that window again from the votes table: with a large
// daily allowance a heavy voter's window is its whole history, and each vote cost more than the
// one before. Now a vote adds what was stored since the window's head (the vote itself), ages out
// from its tail the votes that left the 24 h, and answers the total and the top author's count:
// every vote enters the window once and leaves it once, so a vote costs the same whatever the
// voter's history.
//
// The top count is kept as a bound (top_bound, schema/0043): a count up raises it to the count
// it reached, a count down leaves it, so it is never below the top count. While the bound rules
// the pattern out, so does the top count, and nothing more is read; otherwise the voter's counts
// are read (one row per author in the window) and the bound becomes their maximum, exact. An
// index by count answered it in one step, but every count up and down moved an entry of it.
//
// The window follows each table's seq (the order votes were stored): a vote leaves it once it and
// every vote of that voter stored before it are older than 24 h. With a clock that only moves
// forward this is exactly "created in the last 24 h"; a clock set back can keep a vote counted
// until the votes stored before it age out.
import { type RingVoteRow, type RingWindowRow, type VoteStore, voteStore } from './store.ts';
import type { Db } from '../db/open.ts';

/** Rows read per statement while the window moves: the first read asks for one row, the next ones for more, up to this. */
const BATCH = 256;
const NO_END = Number.MAX_SAFE_INTEGER;

type Table = 'vote' | 'review';

const rowsOf = (s: VoteStore, table: Table, voterId: string, after: number, upto: number, limit: number): RingVoteRow[] =>
  (table === 'vote' ? s.ringBoardVotes : s.ringReviewVotes).all(voterId, after, upto, limit);

/** The window as stored, or a new one that starts after the last suspension and the votes already out of the window. */
function load(s: VoteStore, voterId: string, cutoff: number, prior: { vote_seq: number; review_vote_seq: number } | null): RingWindowRow {
  const w = s.ringWindow.get(voterId);
  if (w) return w;
  const vote = Math.max(prior?.vote_seq ?? 0, s.ringBoardAgedOut.get(voterId, cutoff)?.seq ?? 0);
  const review = Math.max(prior?.review_vote_seq ?? 0, s.ringReviewAgedOut.get(voterId, cutoff)?.seq ?? 0);
  return { total: 0, vote_head: vote, vote_tail: vote, review_head: review, review_tail: review, top_bound: 0 };
}

/** Counts the votes stored after the head (usually the one just cast). */
function advanceHead(s: VoteStore, voterId: string, w: RingWindowRow, table: Table): void {
  const key = table === 'vote' ? 'vote_head' : 'review_head';
  for (let limit = 2; ; limit = Math.min(limit * 8, BATCH)) {
    const rows = rowsOf(s, table, voterId, w[key], NO_END, limit);
    for (const r of rows) {
      const { n } = s.ringCountUp.get(voterId, r.author_id)!;
      if (n > w.top_bound) w.top_bound = n;
      w[key] = r.seq;
      w.total++;
    }
    if (rows.length < limit) return;
  }
}

/** Takes out, oldest first, the counted votes created at or before `cutoff`. */
function ageOut(s: VoteStore, voterId: string, w: RingWindowRow, table: Table, cutoff: number): void {
  const tail = table === 'vote' ? 'vote_tail' : 'review_tail';
  const head = table === 'vote' ? 'vote_head' : 'review_head';
  // Nothing counted (a voter's review votes, mostly): the range (tail, head] is empty, not read.
  if (w[tail] >= w[head]) return;
  // Two rows first: a vote of a busy voter ages out about one, and the row after it says where to
  // stop (asked for one row, a second read was needed to find it). A count is deleted once it
  // reaches 0.
  for (let limit = 2; ; limit = Math.min(limit * 8, BATCH)) {
    const rows = rowsOf(s, table, voterId, w[tail], w[head], limit);
    for (const r of rows) {
      if (r.created_at > cutoff) return;
      if ((s.ringCountDown.get(voterId, r.author_id)?.n ?? 0) <= 0) s.ringDropEmpty.run(voterId, r.author_id);
      w[tail] = r.seq;
      w.total--;
    }
    if (rows.length < limit) return;
  }
}

/**
 * Moves the voter's window to `now` (votes created after `cutoff` stay) and answers its total and
 * its top author's count: exact when `exact(total, bound)` holds for the kept bound, otherwise the
 * bound itself (never below the top count, so a test that fails for it fails for the top count).
 * Runs in the vote's transaction.
 */
export function ringWindowAt(
  db: Db,
  voterId: string,
  cutoff: number,
  prior: { vote_seq: number; review_vote_seq: number } | null,
  exact: (total: number, bound: number) => boolean,
): { total: number; top: number } {
  const s = voteStore(db);
  const w = load(s, voterId, cutoff, prior);
  advanceHead(s, voterId, w, 'vote');
  advanceHead(s, voterId, w, 'review');
  ageOut(s, voterId, w, 'vote', cutoff);
  ageOut(s, voterId, w, 'review', cutoff);
  if (w.total === 0) w.top_bound = 0;
  else if (exact(w.total, w.top_bound)) w.top_bound = s.ringTop.get(voterId)!.n;
  s.ringSaveWindow.run(voterId, w.total, w.vote_head, w.vote_tail, w.review_head, w.review_tail, w.top_bound);
  return { total: w.total, top: w.top_bound };
}

/** A suspension began: the votes before it never count again (the window starts empty after its heads). */
export function clearRingWindow(db: Db, voterId: string): void {
  const s = voteStore(db);
  const w = s.ringWindow.get(voterId);
  if (!w) return;
  s.ringClear.run(voterId);
  s.ringSaveWindow.run(voterId, 0, w.vote_head, w.vote_head, w.review_head, w.review_head, 0);
}
