// What other domains read of articles, a row at a time (the author preview, the pages' charts):
// through these functions, never pubs' store, so what an article "is" to them (a live author's,
// its revisions newest first) is said here once.
import type { AppContext } from '../context.ts';
import { type AssetRow, type ItemRow, pubsStore, type RevisionRow } from './store.ts';

export type { AssetRow, ItemRow, RevisionRow };

/** An article whose author's account is live (null when none, or its author is deleted or revoked). */
export const articleItem = (ctx: AppContext, itemId: string): ItemRow | null => pubsStore(ctx.db).item.get(itemId);

/** A revision by id, whatever its status (null when none). */
export const articleRevision = (ctx: AppContext, revisionId: string): RevisionRow | null => pubsStore(ctx.db).revision.get(revisionId);

/** An article's newest revision (null when it has none). */
export const latestRevisionOf = (ctx: AppContext, itemId: string): RevisionRow | null => pubsStore(ctx.db).latestRevision.get(itemId);

/** A revision's images, in block order. */
export const revisionAssets = (ctx: AppContext, revisionId: string): AssetRow[] => pubsStore(ctx.db).assetsOf.all(revisionId);

/** One image of a revision (null when the revision has no such image). */
export const revisionAsset = (ctx: AppContext, revisionId: string, assetId: string): AssetRow | null => pubsStore(ctx.db).asset.get(revisionId, assetId);
