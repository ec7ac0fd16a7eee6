// Lab site files, in the database (schema/0025_lab_site_files.sql), so that svc.sqlite is the whole
// state of the service and one backup holds every lab page. A publish stages the decoded site in
// memory (it was checked and scanned already), then writes its rows inside the transaction that
// makes the page row name the new version, and deletes the previous version's rows in that same
// transaction. A failure at any step rolls the whole publish back: visitors keep the previous
// version, never half a site, and nothing is left behind.
import type { AppContext } from '../../context.ts';
import { fail } from '../../http/errors.ts';
import { labStore } from './store.ts';

/** A site decoded and checked, waiting for its publish transaction. */
export interface StagedSite {
  files: readonly { path: string; bytes: Uint8Array }[];
}

/** How one file's row is written; tests swap in a failing one. */
export interface LabFileWriter {
  insert(ctx: AppContext, pageId: string, version: string, path: string, bytes: Uint8Array): void;
}

export const dbWriter: LabFileWriter = {
  insert: (ctx, pageId, version, path, bytes) => labStore(ctx.db).insertFile.run(pageId, version, path, bytes),
};

const writers = new WeakMap<AppContext, LabFileWriter>();
export const setLabWriter = (ctx: AppContext, writer: LabFileWriter): void => void writers.set(ctx, writer);
const writerOf = (ctx: AppContext): LabFileWriter => writers.get(ctx) ?? dbWriter;

/** Holds a site for its publish; nothing is stored until commitSite runs inside the transaction. */
export async function stageSite(_ctx: AppContext, files: readonly { path: string; bytes: Uint8Array }[]): Promise<StagedSite> {
  return { files: [...files] };
}

/**
 * Stores a staged site as `version` of `pageId` and drops every other version of the page: inside
 * the publish transaction, so both land with the page row or neither does. LAB_STORAGE_UNAVAILABLE
 * on failure (the caller's transaction rolls back; nothing is kept).
 */
export function commitSite(ctx: AppContext, staged: StagedSite, pageId: string, version: string): void {
  const writer = writerOf(ctx);
  try {
    for (const f of staged.files) writer.insert(ctx, pageId, version, f.path, f.bytes);
    labStore(ctx.db).removeOtherVersions.run(pageId, version);
  } catch (e) {
    console.error(JSON.stringify({ event: 'lab_storage_error', page_id: pageId, error: String((e as Error)?.message ?? e) }));
    fail('LAB_STORAGE_UNAVAILABLE', { reason: 'write_failed' });
  }
}

/** Lets go of a staged site that will not be published (it was never stored). */
export function discardStaged(_ctx: AppContext, staged: StagedSite): void {
  staged.files = [];
}

/**
 * Removes a version's files (or a whole page's when version is omitted). A publish and a page's
 * deletion already drop their files in their own transaction; this is the best-effort sweep after.
 */
export function removeSite(ctx: AppContext, pageId: string, version?: string): void {
  try {
    const store = labStore(ctx.db);
    if (version) store.removeVersion.run(pageId, version);
    else store.removeFiles.run(pageId);
  } catch (e) {
    console.error(JSON.stringify({ event: 'lab_storage_cleanup_error', page_id: pageId, error: String((e as Error)?.message ?? e) }));
  }
}

/** The bytes of one file of a page's version, or null when it has no such file. */
export function readSiteFile(ctx: AppContext, pageId: string, version: string, path: string): Uint8Array<ArrayBuffer> | null {
  return labStore(ctx.db).siteFile.get(pageId, version, path)?.bytes ?? null;
}
