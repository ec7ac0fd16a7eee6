// Lab site files, in the database (schema/0025_lab_site_files.sql), so that svc.sqlite is the whole
// state of the service and one backup holds every lab page. Visitors are served the rows of the
// version the page row names, so rows of any other version are never seen.
//
// A publish that replaces a page writes its new version's rows before the publish transaction, in
// writes of about STAGE_CHUNK_BYTES each with the request thread free between them: one 2 MB
// transaction held the request thread (and every /healthz probe) for tens of milliseconds. Those
// rows are inert until the publish transaction makes the page row name their version and deletes
// the previous version's rows; a publish that fails deletes its own staged rows. A new page has no
// row for its files to reference yet: its files are written inside the publish transaction. Either
// way a failure leaves visitors on the previous version, never half a site. Rows a crash left
// between staging and the publish are deleted by the page's next publish.
import type { AppContext } from '../../context.ts';
import { commitLater } from '../../db/group-commit.ts';
import { fail } from '../../http/errors.ts';
import { commitWrite } from '../../http/write.ts';
import { labStore } from './store.ts';

/** What one staging write holds at most (one file more when a single file is larger). */
export const STAGE_CHUNK_BYTES = 256 * 1024;

/** A site decoded and checked, waiting for its publish transaction. */
export interface StagedSite {
  files: readonly { path: string; bytes: Uint8Array }[];
  /** Set when the rows are already written, as `version` of this page, before the transaction. */
  stored?: { pageId: string; version: string };
}

// Versions being staged or published right now, by page: the rows a publish's transaction must
// not delete as leftovers (two publishes of one page may overlap). One process owns the database.
const inFlight = new Map<string, Set<string>>();
const markInFlight = (pageId: string, version: string): void => {
  const set = inFlight.get(pageId) ?? new Set<string>();
  set.add(version);
  inFlight.set(pageId, set);
};
const clearInFlight = (pageId: string, version: string): void => {
  const set = inFlight.get(pageId);
  set?.delete(version);
  if (set?.size === 0) inFlight.delete(pageId);
};

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

const storageFailed = (pageId: string, e: unknown): never => {
  console.error(JSON.stringify({ event: 'lab_storage_error', page_id: pageId, error: String((e as Error)?.message ?? e) }));
  return fail('LAB_STORAGE_UNAVAILABLE', { reason: 'write_failed' });
};

/** The files in runs of about STAGE_CHUNK_BYTES, in order (one file per run at least). */
export function stageChunks<T extends { bytes: Uint8Array }>(files: readonly T[], max = STAGE_CHUNK_BYTES): T[][] {
  const chunks: T[][] = [];
  let run: T[] = [];
  let bytes = 0;
  for (const f of files) {
    if (run.length > 0 && bytes + f.bytes.byteLength > max) {
      chunks.push(run);
      run = [];
      bytes = 0;
    }
    run.push(f);
    bytes += f.bytes.byteLength;
  }
  if (run.length > 0) chunks.push(run);
  return chunks;
}

/**
 * Holds a site for its publish. When the page exists (`pageId`), its rows are written now as
 * `version`, chunk by chunk, each chunk its own write: nothing serves them until the publish
 * transaction names the version. A failed chunk deletes what was staged and answers
 * LAB_STORAGE_UNAVAILABLE. For a new page nothing is stored until commitSite.
 */
export async function stageSite(
  ctx: AppContext,
  files: readonly { path: string; bytes: Uint8Array }[],
  target?: { pageId: string; version: string },
): Promise<StagedSite> {
  const staged: StagedSite = { files: [...files] };
  if (!target) return staged;
  const { pageId, version } = target;
  markInFlight(pageId, version);
  staged.stored = target;
  const writer = writerOf(ctx);
  try {
    for (const chunk of stageChunks(staged.files)) {
      await commitWrite(ctx, () => {
        for (const f of chunk) writer.insert(ctx, pageId, version, f.path, f.bytes);
        return { answer: undefined };
      });
    }
  } catch (e) {
    await discardStaged(ctx, staged);
    storageFailed(pageId, e);
  }
  return staged;
}

/**
 * Makes a staged site `version` of `pageId`, inside the publish transaction: a site not yet stored
 * is written now, and the page's other rows go (the previous version, leftovers of a crash), but
 * not those of another publish of this page still under way. Both land with the page row or
 * neither does. LAB_STORAGE_UNAVAILABLE on failure (the caller's transaction rolls back).
 */
export function commitSite(ctx: AppContext, staged: StagedSite, pageId: string, version: string): void {
  const writer = writerOf(ctx);
  const store = labStore(ctx.db);
  try {
    const stored = staged.stored?.pageId === pageId && staged.stored.version === version;
    if (!stored) for (const f of staged.files) writer.insert(ctx, pageId, version, f.path, f.bytes);
    const others = [...(inFlight.get(pageId) ?? [])].filter((v) => v !== version);
    if (others.length === 0) store.removeOtherVersions.run(pageId, version);
    else store.removeOtherVersionsExcept.run(pageId, version, JSON.stringify(others));
  } catch (e) {
    storageFailed(pageId, e);
  }
}

/**
 * Ends a staged site's life: once its publish committed (`published`), it is simply no longer in
 * flight; otherwise the rows it staged are deleted (best effort: a crash's leftovers go with the
 * page's next publish).
 */
export async function discardStaged(ctx: AppContext, staged: StagedSite, published = false): Promise<void> {
  staged.files = [];
  const stored = staged.stored;
  if (!stored) return;
  staged.stored = undefined;
  try {
    if (!published) await commitWrite(ctx, () => ({ answer: labStore(ctx.db).removeVersion.run(stored.pageId, stored.version) }));
  } catch (e) {
    console.error(JSON.stringify({ event: 'lab_storage_cleanup_error', page_id: stored.pageId, error: String((e as Error)?.message ?? e) }));
  } finally {
    clearInFlight(stored.pageId, stored.version);
  }
}

/**
 * Removes a version's files (or a whole page's when version is omitted). A publish and a page's
 * deletion already drop their files in their own transaction; this is the best-effort sweep after.
 */
export function removeSite(ctx: AppContext, pageId: string, version?: string): void {
  // In the next group commit (a failure is logged): the sweep never commits on the request thread.
  const store = labStore(ctx.db);
  commitLater(ctx.db, () => (version ? store.removeVersion.run(pageId, version) : store.removeFiles.run(pageId)), 'lab_storage_cleanup');
}

/** The bytes of one file of a page's version, or null when it has no such file. */
export function readSiteFile(ctx: AppContext, pageId: string, version: string, path: string): Uint8Array<ArrayBuffer> | null {
  return labStore(ctx.db).siteFile.get(pageId, version, path)?.bytes ?? null;
}
