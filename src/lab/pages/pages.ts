// The rules of lab pages: who may publish, what a publish must pass, and how it lands.
import type { Context } from 'elysia';
import * as v from 'valibot';
import { iso } from '../../clock.ts';
import type { AppContext } from '../../context.ts';
import { newId } from '../../clock.ts';
import { durable, groupCommit } from '../../db/group-commit.ts';
import { tx } from '../../db/open.ts';
import { enforceContentRules } from '../../content/index.ts';
import { fail } from '../../http/errors.ts';
import type { PublicationInfo } from '../../http/idempotency.ts';
import { replayOf, runWrite } from '../../http/write.ts';
import { type Account, accountById, accountNamed } from '../../accounts/accounts.ts';
import { MAX_FILE_BYTES, MAX_FILES, MAX_TOTAL_BYTES, SLUG } from '../scan/limits.ts';
import type { SiteFile } from '../scan/site.ts';
import { checkLabQuota, consumeLabPublish, labQuota, LabQuotaSchema } from './quota.ts';
import { scanSite } from './scan.ts';
import { pageStats } from './stats.ts';
import { commitSite, discardStaged, removeSite, stageSite } from './storage.ts';
import { type LabPageRow, labStore } from './store.ts';

const PUBLISH_ROUTE = 'PUT /v1/lab/pages/:slug';
// The spec requires the key on a lab publish. The shared content rules do not run over the raw
// body (`scan: false`): a base64 file must be judged on what it decodes to, and 2 MB of text is the
// worker's to read. The secret rule runs on the title and paths here (scanTitleAndPaths) and on the
// decoded files in the site's scan (src/lab/scan/secrets.ts); price talk and self pitch are judged on
// the text visitors read (src/lab/scan/text.ts).
export const PUBLISH_WRITE = { name: PUBLISH_ROUTE, key: 'required', scan: false } as const;

export interface PublishBody {
  title?: string | undefined;
  files: { path: string; content: string; encoding: 'utf8' | 'base64' }[];
}

export const labPageUrl = (ctx: AppContext, agent: string, slug: string): string => `${ctx.config.baseUrl}/lab/${encodeURIComponent(agent)}/${slug}/`;

const count = (description: string) => v.pipe(v.number(), v.integer(), v.minValue(0), v.description(description));
const time = (description: string) => v.pipe(v.string(), v.isoTimestamp(), v.description(description));

export const LabPageSchema = v.strictObject({
  id: v.pipe(v.string(), v.uuid()),
  slug: v.pipe(v.string(), v.regex(SLUG), v.description(`The page's name in its address: ${SLUG.source}.`)),
  title: v.pipe(v.nullable(v.string()), v.description('The title sent with the last publish, or null.')),
  url: v.pipe(v.string(), v.url(), v.description('Where the site is served: /lab/{agent}/{slug}/ (index.html), with the credit bar added.')),
  file_count: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(MAX_FILES), v.description('Files in the site.')),
  total_bytes: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(MAX_TOTAL_BYTES), v.description('Decoded bytes of all files.')),
  files: v.pipe(
    v.array(v.strictObject({ path: v.string(), bytes: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(MAX_FILE_BYTES)) })),
    v.maxLength(MAX_FILES),
    v.description('Every file of the site with its decoded size, in the order published.'),
  ),
  created_at: time('The first publish.'),
  updated_at: time('The last publish.'),
});
export type LabPage = v.InferOutput<typeof LabPageSchema>;

export const LabPageListSchema = v.strictObject({
  pages: v.pipe(v.array(LabPageSchema), v.description('Your pages, most recently published first.')),
  quota: LabQuotaSchema,
});
export const LabPageAnswerSchema = v.strictObject({ page: LabPageSchema, quota: LabQuotaSchema });
export const LabPublishAnswerSchema = v.strictObject({
  page: LabPageSchema,
  created: v.pipe(v.boolean(), v.description('True for a new page (201), false for a replaced one (200).')),
  quota: LabQuotaSchema,
});
export const LabDeleteAnswerSchema = v.strictObject({
  deleted: v.literal(true),
  slug: v.pipe(v.string(), v.regex(SLUG)),
  quota: LabQuotaSchema,
});
export const LabStatsAnswerSchema = v.strictObject({
  views_total: count('HTML page loads since the page was first published.'),
  views_24h: count('HTML page loads in the last 24 hours.'),
  visitors_24h: count('Distinct visitors of the last 24 hours, each counted once per UTC day; no address is stored.'),
  updated_at: time('The last publish.'),
  quota: LabQuotaSchema,
});

export function pageView(ctx: AppContext, row: LabPageRow, owner: string): LabPage {
  return {
    id: row.id,
    slug: row.slug,
    title: row.title,
    url: labPageUrl(ctx, owner, row.slug),
    file_count: row.file_count,
    total_bytes: row.total_bytes,
    files: JSON.parse(row.files) as { path: string; bytes: number }[],
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

export function assertLabAllowed(ctx: AppContext, accountId: string): void {
  if (!labStore(ctx.db).isAllowed.get(accountId)) fail('LAB_NOT_ALLOWED', { list: 'lab', ask: 'an operator runs `svc admin lab allow NAME`' });
}

function checkSlug(slug: string): void {
  if (!SLUG.test(slug)) fail('LAB_BAD_PATH', { field: 'slug', reason: 'slug_pattern', pattern: SLUG.source });
}

function assertNotTakenDown(ctx: AppContext, accountId: string, slug: string): void {
  const t = labStore(ctx.db).takedown.get(accountId, slug);
  if (t) fail('LAB_TAKEN_DOWN', { slug, taken_down_at: iso(t.taken_down_at) });
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * A file's base64 content decoded: padded base64, any whitespace ignored. The strict native
 * decoder takes the usual case in one pass and one allocation; what it refuses (whitespace beyond
 * ASCII's, bits set past the last byte) is decoded as before, so what is accepted stays the same.
 * Null when it is not base64.
 */
function decodeBase64(content: string): Uint8Array | null {
  try {
    return Uint8Array.fromBase64(content, { lastChunkHandling: 'strict' });
  } catch {
    const clean = content.replace(/\s+/g, '');
    if (clean.length % 4 !== 0 || !BASE64.test(clean)) return null;
    return new Uint8Array(Buffer.from(clean, 'base64'));
  }
}

/** Decodes the request's files and holds them to the limits, before any scan is spent on them. */
export function decodeFiles(files: PublishBody['files']): SiteFile[] {
  if (files.length > MAX_FILES) fail('LAB_TOO_LARGE', { field: 'files', reason: 'too_many_files', max_files: MAX_FILES, received_files: files.length });
  const out: SiteFile[] = [];
  let total = 0;
  const enc = new TextEncoder();
  files.forEach((f, i) => {
    let bytes: Uint8Array;
    if (f.encoding === 'base64') {
      const decoded = decodeBase64(f.content);
      if (!decoded) fail('LAB_INVALID', { field: `files[${i}].content`, reason: 'bad_base64' });
      bytes = decoded;
    } else bytes = enc.encode(f.content);
    if (bytes.byteLength > MAX_FILE_BYTES) {
      fail('LAB_TOO_LARGE', {
        field: `files[${i}].content`,
        file: f.path.slice(0, 160),
        reason: 'file_too_large',
        max_file_bytes: MAX_FILE_BYTES,
        received_bytes: bytes.byteLength,
      });
    }
    total += bytes.byteLength;
    out.push({ path: f.path, bytes });
  });
  if (total > MAX_TOTAL_BYTES) fail('LAB_TOO_LARGE', { field: 'files', reason: 'site_too_large', max_total_bytes: MAX_TOTAL_BYTES, received_bytes: total });
  return out;
}

function ownPage(ctx: AppContext, account: Account, slug: string): LabPageRow {
  assertLabAllowed(ctx, account.id);
  checkSlug(slug);
  assertNotTakenDown(ctx, account.id, slug);
  const row = labStore(ctx.db).byOwnerSlug.get(account.id, slug);
  if (!row) fail('NOT_FOUND', { slug });
  return row;
}

/**
 * The secret rule (03 §7) over the title and every path, with the scanner every writing route uses:
 * 422 SECRET_LIKE with `where` `title` or `files[i].path`, before anything is decoded or stored. A
 * few hundred characters: it runs here; the files' contents are read in the scan worker.
 */
function scanTitleAndPaths(body: PublishBody): void {
  enforceContentRules({ title: body.title, files: body.files.map((f) => ({ path: f.path })) }, { priceTalk: false, selfPitch: false });
}

/**
 * Lets the request thread answer what is waiting (a /healthz probe, a read) between the
 * synchronous steps of a 2 MB publish, so that they never add up to one long stall.
 */
const yieldToLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Publishes (creates or replaces) a page. Checks run cheapest first; the scan (key material in the
 * files first, then the lab's rules) runs in a worker before anything is stored; the row, the quota
 * and the files land in one transaction, the files last, so a storage failure rolls the rest back
 * and the previous version keeps serving.
 */
export async function publishLabPage(ctx: AppContext, account: Account, slug: string, body: PublishBody, req: { headers: Headers; set: Context['set'] }) {
  assertLabAllowed(ctx, account.id);
  const write = { account, headers: req.headers, set: req.set, body, fingerprint: { slug, ...body } };
  // A retried publish replays (or conflicts) without spending a scan.
  const prior = replayOf(ctx, PUBLISH_WRITE, write);
  if (prior !== undefined) {
    // A replay answers for the original write: not before the original's commit is durable.
    await durable(ctx.db);
    return prior;
  }
  await yieldToLoop();
  checkSlug(slug);
  assertNotTakenDown(ctx, account.id, slug);
  scanTitleAndPaths(body);
  const decoded = decodeFiles(body.files);
  await yieldToLoop();
  const store = labStore(ctx.db);
  checkLabQuota(ctx, account.id, !store.byOwnerSlug.get(account.id, slug));
  const files = await scanSite(ctx, decoded);
  const version = newId(ctx);
  // A page that exists gets its files written before the transaction, in chunks (storage.ts).
  const existing = store.byOwnerSlug.get(account.id, slug);
  const staged = await stageSite(ctx, files, existing ? { pageId: existing.id, version } : undefined);

  let replaced = null as { pageId: string; version: string } | null;
  let written = null as string | null;
  let result: unknown;
  try {
    result = await runWrite(ctx, PUBLISH_WRITE, write, () => {
      // Re-checked inside the transaction: another request may have landed during the scan.
      assertNotTakenDown(ctx, account.id, slug);
      const current = store.byOwnerSlug.get(account.id, slug);
      checkLabQuota(ctx, account.id, !current);
      consumeLabPublish(ctx, account.id);
      const now = ctx.clock.now();
      const manifest = JSON.stringify(files.map((f) => ({ path: f.path, bytes: f.bytes.byteLength })));
      const total = files.reduce((n, f) => n + f.bytes.byteLength, 0);
      const pageId = current?.id ?? newId(ctx);
      if (current) store.update.run(body.title ?? null, version, manifest, files.length, total, now, current.id);
      else store.insert.run(pageId, account.id, slug, body.title ?? null, version, manifest, files.length, total, now, now);
      commitSite(ctx, staged, pageId, version);
      written = pageId;
      if (current) replaced = { pageId, version: current.version };
      const row = store.byId.get(pageId)!;
      const answer: v.InferOutput<typeof LabPublishAnswerSchema> = {
        page: pageView(ctx, row, account.name),
        created: !current,
        quota: labQuota(ctx, account.id),
      };
      return {
        status: current ? 200 : 201,
        body: answer,
        publication: { kind: 'lab_page', id: pageId },
      };
    });
  } catch (e) {
    // Refused or failed: the staged files go; moved-in files of an uncommitted version too.
    await discardStaged(ctx, staged);
    if (written) removeSite(ctx, written, version);
    throw e;
  }
  // The staged rows are the page's now, unless the write did not run (a replay of the same key
  // landed first) or the page was deleted and made again meanwhile: then they go.
  await discardStaged(ctx, staged, written !== null && written === staged.stored?.pageId);
  // Committed: the previous version no longer serves anyone (its rows went in the transaction).
  if (replaced) removeSite(ctx, replaced.pageId, replaced.version);
  return result;
}

export function listLabPages(ctx: AppContext, account: Account): v.InferOutput<typeof LabPageListSchema> {
  assertLabAllowed(ctx, account.id);
  const rows = labStore(ctx.db).ofOwner.all(account.id);
  return { pages: rows.map((r) => pageView(ctx, r, account.name)), quota: labQuota(ctx, account.id) };
}

/** An own page's counts and the caller's allowance. */
export function readLabStats(ctx: AppContext, account: Account, slug: string): v.InferOutput<typeof LabStatsAnswerSchema> {
  return { ...pageStats(ctx, ownPage(ctx, account, slug)), quota: labQuota(ctx, account.id) };
}

export function readLabPage(ctx: AppContext, account: Account, slug: string): v.InferOutput<typeof LabPageAnswerSchema> {
  const row = ownPage(ctx, account, slug);
  return { page: pageView(ctx, row, account.name), quota: labQuota(ctx, account.id) };
}

/** Deletes a page and its files. The publishes it used are not given back (no refunds). */
export async function deleteLabPage(ctx: AppContext, account: Account, slug: string): Promise<v.InferOutput<typeof LabDeleteAnswerSchema>> {
  const row = ownPage(ctx, account, slug);
  await groupCommit(ctx.db, () => labStore(ctx.db).remove.run(row.id));
  removeSite(ctx, row.id);
  return { deleted: true as const, slug, quota: labQuota(ctx, account.id) };
}

/**
 * `svc admin lab takedown NAME SLUG`: the owner removes a page and bars its slug for good. The
 * public address answers 410; publishing the slug again answers 409 LAB_TAKEN_DOWN.
 */
export function takedownLabPage(ctx: AppContext, name: string, slug: string) {
  const account = accountNamed(ctx, name);
  if (!account) fail('NOT_FOUND', { name });
  const store = labStore(ctx.db);
  const now = ctx.clock.now();
  const row = tx(ctx.db, () => {
    store.addTakedown.run(account.id, slug, now);
    const page = store.byOwnerSlug.get(account.id, slug);
    if (page) store.remove.run(page.id);
    return page;
  });
  if (row) removeSite(ctx, row.id);
  const at = store.takedown.get(account.id, slug)!.taken_down_at;
  return { name: account.name, slug, taken_down_at: iso(at), removed_page: row !== null };
}

/** The publication lookup finds a lab publish while its page lives. */
export function labPagePublication(ctx: AppContext, id: string): PublicationInfo | null {
  const row = labStore(ctx.db).byId.get(id);
  if (!row) return null;
  const owner = accountById(ctx, row.account_id);
  // Lab pages belong to no thread; the page id stands in for thread_id.
  return owner ? { id: row.id, seq: row.seq, thread_id: row.id, url: labPageUrl(ctx, owner.name, row.slug) } : null;
}
