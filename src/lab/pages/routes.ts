// Lab pages: valibot schemas and wiring. The rules live in pages.ts, the allowance every answer
// carries in quota.ts, the scan in src/lab/scan (run by workers/lab-scan.ts), the public serving in
// serve.ts and kit.ts.
import { Elysia } from 'elysia';
import * as v from 'valibot';
import { type AppContext, seedOf } from '../../context.ts';
import { authPlugin } from '../../http/auth.ts';
import type { ErrorCode } from '../../http/errors.ts';
import { type HeaderDoc, jsonAnswer, mediaAnswer, PRIVATE_HEADERS, redirectAnswer } from '../../http/contract.ts';
import { doc } from '../../http/openapi-detail.ts';
import { charCount } from '../../http/body.ts';
import { coded, describedAs, ifThen } from '../../http/schema.ts';
import { LAB_PUBLISH_BYTES, MAX_FILE_BYTES, MAX_FILES, MAX_PATH_CHARS, MAX_PATH_DEPTH, MAX_TOTAL_BYTES, SLUG } from '../scan/limits.ts';
import { SERVED_EXTENSIONS } from '../scan/paths.ts';
import { KIT_PATH, serveKit } from './kit.ts';
import {
  deleteLabPage,
  LabDeleteAnswerSchema,
  LabPageAnswerSchema,
  LabPageListSchema,
  LabPublishAnswerSchema,
  LabStatsAnswerSchema,
  listLabPages,
  PUBLISH_WRITE,
  publishLabPage,
  readLabPage,
  readLabStats,
} from './pages.ts';
import { quotaOnRefusals, withLabQuota } from './quota.ts';
import { LAB_FILE_ANSWERS, MISSING_SITE, serveLabFile } from './serve.ts';

const TAGS = ['lab'];
const SEGMENT = '[A-Za-z0-9_][A-Za-z0-9._-]*';
// A site path as paths.ts takes it: 1..MAX_PATH_DEPTH segments, none hidden, ending in a served extension.
const SITE_PATH_PATTERN = `^(?:${SEGMENT}/){0,${MAX_PATH_DEPTH - 1}}${SEGMENT}\\.(?:${SERVED_EXTENSIONS.join('|')})$`;
const BASE64_CONTENT = '^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$';
const BASE64_FILE = { properties: { encoding: { const: 'base64' } }, required: ['encoding'] };
const SlugParam = v.object({ slug: v.pipe(v.string(), describedAs<string>({ type: 'string', pattern: SLUG.source })) });
const invalid = (reason: string) => coded('LAB_INVALID', { reason });

const schemas = {
  publish: v.object(
    {
      title: v.optional(
        v.pipe(
          v.string(invalid('title must be a string')),
          // Characters (code points), as the description's maxLength counts them.
          v.check((t: string) => charCount(t) <= 120, invalid('title holds at most 120 characters')),
          v.metadata({ maxLength: 120 }),
        ),
        undefined,
      ),
      files: v.pipe(
        v.array(
          v.pipe(
            v.object(
              {
                path: v.pipe(
                  v.string(invalid('path must be a string')),
                  v.minLength(1, invalid('path must not be empty')),
                  v.maxLength(1000, coded('LAB_BAD_PATH', { reason: 'too_long' })),
                  // The scan's path rule (src/lab/scan/paths.ts, 422 LAB_BAD_PATH / LAB_BAD_TYPE), stated for clients.
                  v.metadata({ maxLength: MAX_PATH_CHARS, pattern: SITE_PATH_PATTERN }),
                ),
                content: v.string(invalid('content must be a string')),
                encoding: v.optional(v.picklist(['utf8', 'base64'], invalid('encoding is "utf8" or "base64"')), 'utf8'),
              },
              invalid('each file is an object {path, content, encoding?}'),
            ),
            // base64 content is padded standard base64 (decodeFiles: 422 LAB_INVALID bad_base64).
            v.metadata(ifThen(BASE64_FILE, { properties: { content: { pattern: BASE64_CONTENT } } })),
          ),
          invalid('files must be an array'),
        ),
        v.minLength(1, invalid('files must hold at least index.html')),
        // No site without its index.html (checkPaths: 422 LAB_BAD_PATH missing_index).
        v.metadata({ contains: { properties: { path: { const: 'index.html' } }, required: ['path'] } }),
        v.maxLength(MAX_FILES, coded('LAB_TOO_LARGE', { reason: 'too_many_files', max_files: MAX_FILES })),
      ),
    },
    invalid('body must be an object'),
  ),
};

const LAB_CODES: ErrorCode[] = ['LAB_NOT_ALLOWED', 'LAB_BAD_PATH', 'LAB_TAKEN_DOWN', 'NOT_FOUND'];
const PUBLISH_CODES: ErrorCode[] = [
  'LAB_NOT_ALLOWED',
  'LAB_WALLET_CODE',
  'LAB_EXTERNAL_SCRIPT',
  'LAB_EXTERNAL_REDIRECT',
  'LAB_CREDIT_TAMPER',
  'LAB_PRICE_TALK',
  'LAB_SELF_PITCH',
  'LAB_BAD_PATH',
  'LAB_BAD_TYPE',
  'LAB_INVALID',
  'LAB_TOO_LARGE',
  'LAB_QUOTA',
  'LAB_TAKEN_DOWN',
  'LAB_STORAGE_UNAVAILABLE',
  'SECRET_LIKE',
];

const KIT_HEADERS: Record<string, HeaderDoc> = {
  'Cache-Control': { description: 'public, max-age=3600.', schema: { type: 'string', const: 'public, max-age=3600' } },
};

export const labPagesRoutes = (ctx: AppContext) => {
  // A write's refusals from before its handler (validation, residency) carry `quota` too (quota.ts).
  const refusals = quotaOnRefusals(ctx);
  return new Elysia({ name: 'lab-pages', seed: seedOf(ctx) })
    .use(authPlugin(ctx))
    .get('/v1/lab/pages', ({ account, set }) => withLabQuota(ctx, account.id, set, () => listLabPages(ctx, account)), {
      auth: true,
      detail: doc({
        summary: 'List own lab pages',
        description:
          'Answers {pages:[{id, slug, title, url, file_count, total_bytes, files:[{path, bytes}], created_at, updated_at}], quota}, most recently published first. quota = {projects_limit, projects_used, publishes_per_day, publishes_used, publishes_remaining, resets_at}.',
        tags: TAGS,
        auth: true,
        errors: ['LAB_NOT_ALLOWED'],
        answers: { 200: jsonAnswer(LabPageListSchema, 'Your lab pages and your allowance.', PRIVATE_HEADERS) },
      }),
    })
    .put(
      '/v1/lab/pages/:slug',
      ({ account, params, body, request, set }) =>
        withLabQuota(ctx, account.id, set, () => publishLabPage(ctx, account, params.slug, body, { headers: request.headers, set })),
      {
        auth: true,
        ...refusals,
        params: SlugParam,
        bodyBudget: { bytes: LAB_PUBLISH_BYTES },
        body: schemas.publish,
        detail: doc({
          summary: 'Publish (create or replace) a lab page',
          description: [
            `Body {title?, files:[{path, content, encoding?: "utf8"|"base64"}]}; needs Idempotency-Key. Slug ${SLUG.source}. At most ${MAX_FILES} files, ${MAX_FILE_BYTES / 1024} KB each, ${MAX_TOTAL_BYTES / 1024 / 1024} MB in all (decoded); an index.html is required. Served types by extension: html, css, js, json, svg, txt, png, jpg, gif, webp, ico, woff2.`,
            'Before anything is stored a safety scan refuses wallet or signing code, scripts from other hosts, redirects, anything touching the credit bar, price talk and self pitch in visible text, bad paths and content that does not match its type; details name the file and line. A scan that overruns its budget → LAB_INVALID reason scan_timeout.',
            'Key material (API keys, tokens, private keys, seed phrases) in the title, a path or a file, base64 files decoded first and images read for the text they carry → SECRET_LIKE with details.kind and details.where (title, files[i].path, files[i].content), never the text; nothing is stored and no publish is used.',
            'Every answer carries quota, refusals in details.quota once the key was checked.',
            'Answers 201 (new) or 200 {page, created, quota}. The site is served at page.url with a credit bar added by the service. Publishing is atomic: a failure publishes nothing.',
          ].join('\n\n'),
          tags: TAGS,
          auth: true,
          write: PUBLISH_WRITE,
          errors: PUBLISH_CODES,
          answers: {
            200: jsonAnswer(LabPublishAnswerSchema, 'A page that existed was replaced (created: false).', PRIVATE_HEADERS),
            201: jsonAnswer(LabPublishAnswerSchema, 'A new page was published (created: true).', PRIVATE_HEADERS),
          },
        }),
      },
    )
    .get('/v1/lab/pages/:slug', ({ account, params, set }) => withLabQuota(ctx, account.id, set, () => readLabPage(ctx, account, params.slug)), {
      auth: true,
      params: SlugParam,
      detail: doc({
        summary: 'Read one own lab page',
        description: 'Answers {page, quota}.',
        tags: TAGS,
        auth: true,
        errors: LAB_CODES,
        answers: { 200: jsonAnswer(LabPageAnswerSchema, 'The page and your allowance.', PRIVATE_HEADERS) },
      }),
    })
    .delete('/v1/lab/pages/:slug', ({ account, params, set }) => withLabQuota(ctx, account.id, set, () => deleteLabPage(ctx, account, params.slug)), {
      auth: true,
      ...refusals,
      params: SlugParam,
      detail: doc({
        summary: 'Delete one own lab page',
        description: 'Answers {deleted:true, slug, quota}. Publishes used are not given back.',
        tags: TAGS,
        auth: true,
        errors: [...LAB_CODES, 'RESIDENCY_STOPPED'],
        answers: { 200: jsonAnswer(LabDeleteAnswerSchema, 'The page and its files are gone.', PRIVATE_HEADERS) },
      }),
    })
    .get('/v1/lab/pages/:slug/stats', ({ account, params, set }) => withLabQuota(ctx, account.id, set, () => readLabStats(ctx, account, params.slug)), {
      auth: true,
      params: SlugParam,
      detail: doc({
        summary: 'Statistics of one own lab page',
        description:
          'Answers {views_total, views_24h, visitors_24h, updated_at, quota}. Views count HTML page loads; a visitor counts once per UTC day; no address is stored. A view is counted a moment after it is served (with the next write batch), so a read right after a visit may not show it yet. updated_at is the last publish.',
        tags: TAGS,
        auth: true,
        errors: LAB_CODES,
        answers: { 200: jsonAnswer(LabStatsAnswerSchema, 'The counts and your allowance.', PRIVATE_HEADERS) },
      }),
    })
    .get(KIT_PATH, () => serveKit(), {
      family: 'page',
      detail: doc({
        summary: 'The shared lab stylesheet (the credit bar)',
        tags: TAGS,
        answers: { 200: mediaAnswer('text/css', 'The stylesheet every lab HTML page links for its credit bar.', KIT_HEADERS) },
      }),
    })
    .get('/lab/:agent/:slug', ({ request, server }) => serveLabFile(ctx, request, server?.requestIP(request)?.address), {
      family: 'page',
      detail: doc({
        summary: 'A published lab site (redirects to its folder)',
        description: '308 to /lab/{agent}/{slug}/. No such page: an HTML 404 page; a page taken down: an HTML 410 page.',
        tags: TAGS,
        answers: { 308: redirectAnswer('The site lives in its folder: /lab/{agent}/{slug}/.'), ...MISSING_SITE },
      }),
    })
    .get('/lab/:agent/:slug/*', ({ request, server }) => serveLabFile(ctx, request, server?.requestIP(request)?.address), {
      family: 'page',
      detail: doc({
        summary: 'A file of a published lab site',
        description:
          "Public. {path} is the file's path inside the site, slashes included; empty, the folder's index.html. HTML pages get the credit bar; every file is served with a strict Content-Security-Policy, nosniff, no cookies, and its extension's media type. A folder named without its trailing slash: 308 to it. Unknown files: HTML 404; a taken-down site: HTML 410.",
        tags: TAGS,
        answers: LAB_FILE_ANSWERS,
      }),
    });
};
