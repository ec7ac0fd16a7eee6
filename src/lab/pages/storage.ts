// Lab files on disk. A publish writes the whole site into a fresh temporary directory (off the
// transaction, without blocking other requests) and moves it into place with one rename, as a new
// version directory, inside the transaction that makes the page row name that version. A failure at any step removes the temporary directory and publishes
// nothing: visitors keep the previous version, never half a site.
import * as fs from 'node:fs';
import { dirname, join } from 'node:path';
import type { AppContext } from '../../context.ts';
import { newId } from '../../clock.ts';
import { fail } from '../../http/errors.ts';

/** The file operations a publish needs; tests swap in a failing one. */
interface LabDisk {
  mkdir(path: string): void;
  writeFile(path: string, bytes: Uint8Array): void;
  writeFileAsync?(path: string, bytes: Uint8Array): Promise<void>;
  rename(from: string, to: string): void;
  remove(path: string): void;
}

export const nodeDisk: LabDisk = {
  mkdir: (p) => fs.mkdirSync(p, { recursive: true }),
  writeFile: (p, b) => fs.writeFileSync(p, b, { flag: 'wx' }),
  writeFileAsync: (p, b) => fs.promises.writeFile(p, b, { flag: 'wx' }),
  rename: (a, b) => fs.renameSync(a, b),
  remove: (p) => fs.rmSync(p, { recursive: true, force: true }),
};

const disks = new WeakMap<AppContext, LabDisk>();
export const setLabDisk = (ctx: AppContext, disk: LabDisk): void => void disks.set(ctx, disk);
const diskOf = (ctx: AppContext): LabDisk => disks.get(ctx) ?? nodeDisk;

const labRoot = (ctx: AppContext): string => join(ctx.config.dataDir, 'lab');
export const siteDir = (ctx: AppContext, pageId: string, version: string): string => join(labRoot(ctx), 'sites', pageId, version);

/**
 * Writes a site into a fresh temporary directory (asynchronously, outside any transaction) and
 * answers its path; LAB_STORAGE_UNAVAILABLE (nothing kept) on failure.
 */
export async function stageSite(ctx: AppContext, files: readonly { path: string; bytes: Uint8Array }[]): Promise<string> {
  const disk = diskOf(ctx);
  const tmp = join(labRoot(ctx), 'tmp', newId(ctx));
  try {
    disk.mkdir(tmp);
    for (const f of files) {
      const target = join(tmp, f.path);
      disk.mkdir(dirname(target));
      if (disk.writeFileAsync) await disk.writeFileAsync(target, f.bytes);
      else disk.writeFile(target, f.bytes);
    }
    return tmp;
  } catch (e) {
    storageFailed(ctx, tmp, e);
  }
}

/** Moves a staged site into place as `version` of `pageId`: one rename, inside the publish transaction. */
export function commitSite(ctx: AppContext, tmp: string, pageId: string, version: string): void {
  const disk = diskOf(ctx);
  try {
    const final = siteDir(ctx, pageId, version);
    disk.mkdir(dirname(final));
    disk.rename(tmp, final);
  } catch (e) {
    storageFailed(ctx, tmp, e);
  }
}

function storageFailed(ctx: AppContext, tmp: string, e: unknown): never {
  discardStaged(ctx, tmp);
  console.error(JSON.stringify({ event: 'lab_storage_error', error: String((e as Error)?.message ?? e) }));
  fail('LAB_STORAGE_UNAVAILABLE', { reason: 'write_failed' });
}

/** Removes a staged directory that will not be published. */
export function discardStaged(ctx: AppContext, tmp: string): void {
  try {
    diskOf(ctx).remove(tmp);
  } catch {}
}

/** Removes a version (or a whole page when version is omitted); best effort, after commit. */
export function removeSite(ctx: AppContext, pageId: string, version?: string): void {
  try {
    diskOf(ctx).remove(version ? siteDir(ctx, pageId, version) : join(labRoot(ctx), 'sites', pageId));
  } catch (e) {
    console.error(JSON.stringify({ event: 'lab_storage_cleanup_error', page_id: pageId, error: String((e as Error)?.message ?? e) }));
  }
}
