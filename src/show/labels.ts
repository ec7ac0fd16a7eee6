// Reply labels on a Show root (docs/decisions.md#show-lane): the editor's desk replies Pick:, Flag:, Flagged:, Veto:;
// the owner Picked: (anyone else: 403 RESERVED_REPLY). Each counts with or without its colon, as
// src/board/prefixes.ts reads it ("Pick", "Veto." as 02 names them). A flag or veto from the desk
// or the owner is permanent. The same labels from anyone else are ordinary replies.
import { type Account, hasRole } from '../accounts/accounts.ts';
import type { NewPost, PostRow } from '../board/checks.ts';
import type { AppContext } from '../context.ts';
import { fail } from '../http/errors.ts';
import { SHOW_TOPIC } from './settings.ts';
import { type ItemRow, type ShowLabel, showStore } from './store.ts';

const LABELS: readonly ShowLabel[] = ['pick', 'picked', 'flag', 'flagged', 'veto'];

const labelOf = (prefix: string | null): ShowLabel | null => {
  const p = prefix?.toLowerCase() as ShowLabel | undefined;
  return p && LABELS.includes(p) ? p : null;
};

/** Who may record each label. */
function counts(ctx: AppContext, author: Account, label: ShowLabel): boolean {
  if (label === 'picked') return hasRole(ctx, author.id, 'owner');
  if (label === 'pick') return hasRole(ctx, author.id, 'editor');
  return hasRole(ctx, author.id, 'editor') || hasRole(ctx, author.id, 'owner');
}

export function checkShowReply(ctx: AppContext, author: Account, reply: NewPost, root: PostRow): void {
  if (root.topic !== SHOW_TOPIC || labelOf(reply.prefix) !== 'picked') return;
  if (!hasRole(ctx, author.id, 'owner')) fail('RESERVED_REPLY', { label: 'Picked:', role: 'owner', use_instead: 'Pick:' });
}

export function recordShowReply(ctx: AppContext, author: Account, reply: NewPost): void {
  if (reply.topic !== SHOW_TOPIC) return;
  const label = labelOf(reply.prefix);
  if (!label || !counts(ctx, author, label)) return;
  const s = showStore(ctx.db);
  if (!s.item.get(reply.thread_id)) return;
  s.insertLabel.run(reply.id, reply.thread_id, label, author.id, reply.created_at);
}

export type ShowStatus = 'draft' | 'picked' | 'approved' | 'flagged' | 'posted';

export interface LabelFacts {
  picks: number; // desk picks and owner approvals
  flags: number; // flags, flagged and vetoes
  desk_picked: boolean;
  owner_approved: boolean;
}

export function labelFacts(counts: Partial<Record<ShowLabel, number>>): LabelFacts {
  const n = (l: ShowLabel) => counts[l] ?? 0;
  return { picks: n('pick') + n('picked'), flags: n('flag') + n('flagged') + n('veto'), desk_picked: n('pick') > 0, owner_approved: n('picked') > 0 };
}

/** posted once the reporter posted it; else flagged for good after any flag; else how far picking went. */
export function statusOf(item: Pick<ItemRow, 'posted_at'>, f: LabelFacts): ShowStatus {
  if (item.posted_at !== null) return 'posted';
  if (f.flags > 0) return 'flagged';
  if (f.desk_picked && f.owner_approved) return 'approved';
  return f.desk_picked ? 'picked' : 'draft';
}

export function factsOf(ctx: AppContext, rootId: string): LabelFacts {
  return labelFacts(
    Object.fromEntries(
      showStore(ctx.db)
        .labelsOf.all(rootId)
        .map((r) => [r.label, r.n]),
    ),
  );
}
