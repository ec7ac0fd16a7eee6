// Author preview (02-extensions.md "Author preview", docs/decisions.md#articles): the author of
// an article asks for a short-lived link to one revision as people would see it. The link is a
// capability (whoever holds it can view), so only the SHA-256 of its 32 random bytes is stored,
// and every load checks again everything that could have changed since: the author's account,
// ownership, that the revision is still the article's current one, the content rules, withdrawal,
// moderation and expiry. A preview changes no visibility, and its token opens nothing but the
// preview's own page and images (never the public asset route).
import type { Account } from '../accounts/accounts.ts';
import { iso } from '../clock.ts';
import { scanContent } from '../content/index.ts';
import type { AppContext } from '../context.ts';
import { groupCommit } from '../db/group-commit.ts';
import { fail } from '../http/errors.ts';
import {
  articleItem,
  articleRevision,
  type AssetRow,
  type ItemRow,
  latestRevisionOf,
  type RevisionRow,
  revisionAsset,
  revisionAssets,
} from '../pubs/lookups.ts';
import { previewStore } from './store.ts';

export const PREVIEW_PATH = '/pubs/preview';
const TOKEN = /^[A-Za-z0-9_-]{43}$/; // 32 bytes, base64url without padding

const hashOf = (token: string): string => new Bun.CryptoHasher('sha256').update(token).digest('hex');
const pageUrl = (ctx: AppContext, token: string) => `${ctx.config.baseUrl}${PREVIEW_PATH}/${token}`;

/** Why a revision cannot be shown, whoever asks: null when it can. A 410 is `withdrawn` or `hidden`. */
type Refusal = { status: 404 | 409 | 410; reason: string; gone?: Gone; current?: string };
export type Gone = 'withdrawn' | 'hidden';

/** The checks shared by the session request and every load of the link. */
function refusal(ctx: AppContext, item: ItemRow | null, rev: RevisionRow): Refusal | null {
  // item is null when the author's account was deleted or revoked (the item query joins live authors).
  if (!item) return { status: 404, reason: 'This article is not available.' };
  if (item.hidden_at !== null) return { status: 410, gone: 'hidden', reason: 'An operator took this article down.' };
  // Work withdrawn after this revision was written stays out of sight; a revision written to
  // resume publication (after the withdrawal) can be previewed.
  if (item.withdrawn_at !== null && rev.created_at <= item.withdrawn_at) return { status: 410, gone: 'withdrawn', reason: 'The author withdrew this article.' };
  const current = latestRevisionOf(ctx, item.id)!;
  // The revision people read now is not superseded while a newer candidate awaits votes (02: it
  // "stays available"): it can be previewed too. An older candidate, or a replaced one, cannot.
  const publishedNow = item.published_revision_id === rev.id;
  if ((current.id !== rev.id && !publishedNow) || rev.status === 'superseded') {
    return { status: 409, reason: 'A newer revision of this article exists; this preview is out of date.', current: current.id };
  }
  return null;
}

/** The content rules, run again on the stored text (a rule added since admission applies too). */
function unsafe(rev: RevisionRow): ReturnType<typeof scanContent> {
  const blocks = (JSON.parse(rev.blocks) as Record<string, unknown>[]).map((b) =>
    b.type === 'svg' ? { description: b.description, caption: b.caption } : b.type === 'list' ? { items: b.items } : { text: b.text, language: b.language },
  );
  return scanContent({ title: rev.title, blocks });
}

const randomToken = (): string => Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url');

/** POST /v1/pubs/revisions/{id}/preview-session: a new link to the revision, for its author only. */
export function createPreview(ctx: AppContext, account: Account, revisionId: string) {
  const p = previewStore(ctx.db);
  const id = revisionId.toLowerCase();
  return groupCommit(ctx.db, () => {
    const rev = articleRevision(ctx, id);
    if (!rev) return fail('NOT_FOUND', { revision_id: revisionId }, 'No revision has this id.');
    if (rev.author_id !== account.id) fail('PREVIEW_NOT_AUTHOR', { revision_id: rev.id });
    const no = refusal(ctx, articleItem(ctx, rev.item_id), rev);
    if (no?.status === 404) fail('NOT_FOUND', { revision_id: rev.id }, no.reason);
    if (no?.gone === 'hidden') fail('PUBS_HIDDEN', { post_id: rev.item_id });
    if (no?.gone === 'withdrawn') fail('PUBS_WITHDRAWN', { post_id: rev.item_id });
    if (no?.status === 409) fail('PREVIEW_SUPERSEDED', { revision_id: rev.id, current_revision_id: no.current });
    const v = unsafe(rev);
    if (v) {
      if (v.code === 'SECRET_LIKE') fail('SECRET_LIKE', { kind: v.kind, where: v.where });
      fail(v.code, { match: v.match, where: v.where });
    }
    const now = ctx.clock.now();
    const expiresAt = now + ctx.config.preview.minutes * 60_000;
    const token = randomToken();
    p.pruneExpired.run(now);
    p.insert.run(hashOf(token), rev.id, account.id, now, expiresAt);
    const url = pageUrl(ctx, token);
    return {
      revision_id: rev.id,
      item_id: rev.item_id,
      expires_at: iso(expiresAt),
      preview_url: url,
      assets: revisionAssets(ctx, rev.id).map((a) => ({ asset_id: a.asset_id, description: a.description, preview_url: `${url}/assets/${a.asset_id}` })),
      content_is_untrusted: true as const,
    };
  });
}

export type Loaded = { ok: true; item: ItemRow; rev: RevisionRow; expiresAt: number } | { ok: false; status: 404 | 410; reason: string; gone?: Gone };

const GONE = { ok: false, status: 404, reason: 'This preview link is unknown or has expired. Ask for a new one.' } as const;

/** Every load of a preview link: the token, then every check again. */
export function loadPreview(ctx: AppContext, token: string): Loaded {
  if (!TOKEN.test(token)) return GONE;
  const session = previewStore(ctx.db).session.get(hashOf(token));
  if (!session || session.expires_at <= ctx.clock.now()) return GONE;
  if (!session.author_live) return { ok: false, status: 404, reason: 'The author of this preview is no longer active.' };
  const rev = articleRevision(ctx, session.revision_id);
  const item = rev ? articleItem(ctx, rev.item_id) : null;
  if (!rev || !item || rev.author_id !== session.account_id || item.author_id !== session.account_id) return GONE;
  const no = refusal(ctx, item, rev);
  if (no?.gone) return { ok: false, status: 410, reason: no.reason, gone: no.gone };
  if (no) return { ok: false, status: 404, reason: no.reason };
  if (unsafe(rev)) return { ok: false, status: 404, reason: 'This revision no longer passes the content rules.' };
  return { ok: true, item, rev, expiresAt: session.expires_at };
}

/** One image of a previewed revision, under the same checks as its page. */
export function previewAsset(ctx: AppContext, token: string, assetId: string): AssetRow | Extract<Loaded, { ok: false }> {
  const loaded = loadPreview(ctx, token);
  if (!loaded.ok) return loaded;
  return revisionAsset(ctx, loaded.rev.id, assetId) ?? { ok: false, status: 404, reason: 'This revision has no such image.' };
}
