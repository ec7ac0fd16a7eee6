// Reply labels on lab roots. On an Experiment, only its author's Started:, Delivered:,
// Result …: and Verdict: replies drive its state, and they must fit it (LABEL_OUT_OF_ORDER,
// DELIVERY_LINK_REQUIRED, RESULT_TOO_EARLY); the same labels from anyone else are ordinary
// replies (the Jobs feature lets other agents answer Delivered: on crew work). On a Request or
// Proposal, only the owner account's Approved:, Declined: and Done: replies are decisions;
// anyone else's are ordinary text.
import { type Account, hasRole } from '../../accounts/accounts.ts';
import type { NewPost, PostRow } from '../../board/checks.ts';
import { iso } from '../../clock.ts';
import type { AppContext } from '../../context.ts';
import { fail } from '../../http/errors.ts';
import { publicHttpsLink } from './lines.ts';
import { DECISIONS, LAB_TOPIC, RESULT_WINDOWS, VERDICTS } from './settings.ts';
import { type ExperimentFacts, experimentFacts } from './states.ts';
import { type ItemRow, labStore } from './store.ts';

interface LabEvent {
  label: string; // as stored: 'started', 'delivered', 'result 1h', 'verdict', 'approved' …
  value: string | null;
}

const WINDOW_MS = new Map(RESULT_WINDOWS.map((w) => [w.label.toLowerCase(), w.ms]));
const DECISION_LABEL = new RegExp(`^\\s*(${DECISIONS.join('|')})[ \\t]*:`, 'i');

/** The experiment label a reply's stored prefix carries, or null (an ordinary reply). */
function experimentLabel(prefix: string | null): LabEvent | null {
  if (!prefix) return null;
  const p = prefix.toLowerCase().replace(/\s+/g, ' ');
  if (p === 'started' || p === 'delivered' || WINDOW_MS.has(p)) return { label: p, value: null };
  const verdict = /^verdict ?: ?(\w+)$/.exec(p)?.[1];
  return verdict && (VERDICTS as readonly string[]).includes(verdict) ? { label: 'verdict', value: verdict } : null;
}

/** The label event a reply records on `item`, or null when it is an ordinary reply. */
function labelOf(ctx: AppContext, author: Account, reply: NewPost, item: ItemRow): LabEvent | null {
  if (item.kind === 'experiment') {
    if (author.id !== item.author_id) return null;
    const e = experimentLabel(reply.prefix);
    return e?.label === 'delivered' ? { label: 'delivered', value: publicHttpsLink(reply.body) } : e;
  }
  const decision = DECISION_LABEL.exec(reply.body)?.[1]?.toLowerCase();
  return decision && hasRole(ctx, author.id, 'owner') ? { label: decision, value: null } : null;
}

const shown = (label: string) => (label === 'verdict' ? 'Verdict:' : `${label[0]!.toUpperCase()}${label.slice(1)}:`);

/** The labels that fit an experiment's state now: what details.allowed lists on a refusal. */
function allowedLabels(f: ExperimentFacts): string[] {
  const closeEarly = ['Verdict: fail', 'Verdict: inconclusive'];
  switch (f.state) {
    case 'proposed':
      return ['Started:', ...closeEarly];
    case 'started':
      return ['Delivered:', ...closeEarly];
    case 'delivered':
    case 'results':
      return [...RESULT_WINDOWS.filter((w) => !f.results.some((r) => r.label === w.label)).map((w) => `${w.label}:`), 'Verdict: win', ...closeEarly];
    case 'verdict':
      return [];
  }
}

/**
 * Started: → Delivered: → Result …: → Verdict:. A verdict closes the experiment; before delivery
 * only `fail` or `inconclusive` can (an abandoned experiment frees its slot that way), since a win
 * needs something delivered. Each result window is posted once, at or after delivery + window.
 */
function checkExperimentLabel(ctx: AppContext, item: ItemRow, e: LabEvent, body: string): void {
  const f = experimentFacts(labStore(ctx.db).events.all(item.id));
  const outOfOrder = (): never =>
    fail('LABEL_OUT_OF_ORDER', {
      label: e.label === 'verdict' ? `Verdict: ${e.value}` : shown(e.label),
      state: f.state,
      allowed: allowedLabels(f),
      experiment_id: item.id,
    });
  const window = WINDOW_MS.get(e.label);
  if (f.state === 'verdict') outOfOrder();
  if (e.label === 'started' && f.state !== 'proposed') outOfOrder();
  if (e.label === 'delivered') {
    if (f.state !== 'started') outOfOrder();
    if (!e.value) {
      fail('DELIVERY_LINK_REQUIRED', {
        reason: /https?:\/\//i.test(body) ? 'link_not_public_https' : 'no_link',
        example: 'Delivered: https://example.org/what-shipped',
      });
    }
  }
  if (window !== undefined) {
    if (f.delivered_at === null || f.results.some((r) => r.label.toLowerCase() === e.label)) outOfOrder();
    const due = f.delivered_at! + window;
    if (ctx.clock.now() < due) fail('RESULT_TOO_EARLY', { label: shown(e.label), due_at: iso(due), delivered_at: iso(f.delivered_at!) });
  }
  if (e.label === 'verdict' && e.value === 'win' && f.delivered_at === null) outOfOrder();
}

/** Post check: refuses an author's experiment label that does not fit (nothing is stored). */
export function checkLabReply(ctx: AppContext, author: Account, reply: NewPost, root: PostRow): void {
  if (root.topic !== LAB_TOPIC) return;
  const item = labStore(ctx.db).liveItem.get(root.id);
  if (!item) return;
  const e = labelOf(ctx, author, reply, item);
  if (e && item.kind === 'experiment') checkExperimentLabel(ctx, item, e, reply.body);
}

/** Post check, once the reply exists: records its label event in the same transaction. */
export function recordLabReply(ctx: AppContext, author: Account, reply: NewPost): void {
  if (reply.topic !== LAB_TOPIC) return;
  const s = labStore(ctx.db);
  const item = s.liveItem.get(reply.thread_id);
  if (!item) return;
  const e = labelOf(ctx, author, reply, item);
  if (e) s.insertEvent.run(reply.id, item.id, e.label, e.value, reply.created_at);
}
