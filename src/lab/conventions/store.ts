// Prepared SQL for the lab's tables (lab_items, lab_events), built once per database.
//
// Live, as everywhere: the post is not deleted and its author's account is not deleted. An item's
// events count only while the reply carrying them is live, so a deleted Delivered: reply takes
// the delivery back and a deleted root takes the whole item out of every check and document.
import { liveAccount, livePost, livePostUnderRoot, notDeleted } from '../../db/live.ts';
import { type Db, perDatabase } from '../../db/open.ts';

export type ItemKind = 'experiment' | 'request' | 'proposal';

export interface ItemRow {
  id: string;
  kind: ItemKind;
  author_id: string;
  author: string;
  title: string;
  thread_id: string;
  created_at: number;
  channel: string | null;
  resource: string | null;
  payback: number | null;
  words: string;
}

export interface EventRow {
  label: string;
  value: string | null;
  created_at: number;
}

const LIVE_ITEM = `FROM lab_items i JOIN posts p ON p.id = i.post_id JOIN accounts a ON a.id = p.author_id
  WHERE ${livePost()}`;
const ITEM_COLS = `i.post_id AS id, i.kind, i.author_id, a.name AS author, p.title, p.thread_id, i.created_at, i.channel, i.resource, i.payback, i.words`;
const liveEvent = (labels: string) => `SELECT 1 FROM lab_events e JOIN posts r ON r.id = e.post_id JOIN accounts ra ON ra.id = r.author_id
  WHERE e.item_id = i.post_id AND ${livePost('r', 'ra')} AND e.label IN (${labels})`;
// The latest live owner decision on an item ('open' when none).
const DECISION = `coalesce((SELECT e.label FROM lab_events e JOIN posts r ON r.id = e.post_id JOIN accounts ra ON ra.id = r.author_id
  WHERE e.item_id = i.post_id AND ${livePost('r', 'ra')} AND e.label IN ('approved', 'declined', 'done')
  ORDER BY r.seq DESC LIMIT 1), 'open')`;

function build(db: Db) {
  return {
    insertItem: db.query<void, [string, ItemKind, string, number, string | null, string | null, number | null, string]>(
      'INSERT INTO lab_items (post_id, kind, author_id, created_at, channel, resource, payback, words) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    ),
    insertEvent: db.query<void, [string, string, string, string | null, number]>(
      'INSERT INTO lab_events (post_id, item_id, label, value, created_at) VALUES (?, ?, ?, ?, ?)',
    ),
    liveItem: db.query<ItemRow, [string]>(`SELECT ${ITEM_COLS} ${LIVE_ITEM} AND i.post_id = ?`),
    /** The live events of one item, in board order. */
    events: db.query<EventRow, [string]>(
      `SELECT e.label, e.value, e.created_at FROM lab_events e JOIN posts r ON r.id = e.post_id JOIN accounts ra ON ra.id = r.author_id
       WHERE e.item_id = ? AND ${livePost('r', 'ra')} ORDER BY r.seq`,
    ),
    /** Experiment roots an author wrote since a time, deleted ones included: the daily allowance. */
    experimentsSince: db.query<{ n: number }, [string, number]>(
      `SELECT count(*) AS n FROM lab_items WHERE author_id = ? AND kind = 'experiment' AND created_at >= ?`,
    ),
    /** An author's live experiments that hold an execution slot: neither delivered nor decided. */
    executing: db.query<{ id: string }, [string]>(
      `SELECT i.post_id AS id ${LIVE_ITEM} AND i.author_id = ? AND i.kind = 'experiment'
         AND NOT EXISTS (${liveEvent("'delivered', 'verdict'")}) ORDER BY i.created_at`,
    ),
    /** Every live experiment without a verdict: what a new one must differ from. */
    openExperiments: db.query<{ id: string; words: string }, []>(
      `SELECT i.post_id AS id, i.words ${LIVE_ITEM} AND i.kind = 'experiment' AND NOT EXISTS (${liveEvent("'verdict'")}) ORDER BY i.created_at`,
    ),
    /** Live requests for one resource the owner has neither declined nor done. */
    openRequests: db.query<{ id: string; words: string }, [string]>(
      `SELECT i.post_id AS id, i.words ${LIVE_ITEM} AND i.kind = 'request' AND i.resource = ? AND ${DECISION} NOT IN ('declined', 'done') ORDER BY i.created_at`,
    ),
    /** Live items of a kind created since a time, or with a live event since then (still moving). */
    itemsActiveSince: db.query<ItemRow, [ItemKind, number, number]>(
      `SELECT ${ITEM_COLS} ${LIVE_ITEM} AND i.kind = ? AND (i.created_at >= ? OR EXISTS (
         SELECT 1 FROM lab_events e JOIN posts r ON r.id = e.post_id WHERE e.item_id = i.post_id AND ${notDeleted('r')} AND e.created_at >= ?))
       ORDER BY i.created_at DESC, p.seq DESC`,
    ),
    /** Live `+1:` replies on a request (the spec: reply +1: instead of a duplicate root). */
    plusOnes: db.query<{ n: number }, [string]>(
      `SELECT count(*) AS n FROM posts r JOIN accounts ra ON ra.id = r.author_id
       WHERE r.thread_id = ? AND r.kind = 'reply' AND ${livePost('r', 'ra')} AND lower(r.prefix) = '+1'`,
    ),
    /** Live events with a label in a time window [from, to), for the scorecard. */
    eventsBetween: db.query<{ label: string; value: string | null; n: number }, [number, number]>(
      `SELECT e.label, e.value, count(*) AS n FROM lab_events e
       JOIN posts r ON r.id = e.post_id JOIN accounts ra ON ra.id = r.author_id
       JOIN posts root ON root.id = e.item_id
       WHERE e.created_at >= ? AND e.created_at < ? AND ${livePostUnderRoot('r', 'ra')}
       GROUP BY e.label, e.value`,
    ),
    /** Live items created in a time window [from, to), by kind, for the scorecard. */
    itemsBetween: db.query<{ kind: ItemKind; n: number }, [number, number]>(
      `SELECT i.kind, count(*) AS n ${LIVE_ITEM} AND i.created_at >= ? AND i.created_at < ? GROUP BY i.kind`,
    ),
    crewNames: db.query<{ name: string }, []>(`SELECT a.name FROM crew c JOIN accounts a ON a.id = c.account_id WHERE ${liveAccount('a')}`),
  };
}

/** The lab statements, prepared once per database. */
export const labStore = perDatabase(build);
