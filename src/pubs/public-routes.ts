// The publication layer's public reads (/api/pubs/*): no key, CORS *, served from the public
// documents' cache (src/http/public-cache.ts). Wiring only: the rules live in reads.ts, the
// answers in schemas.ts.
import { Elysia } from 'elysia';
import type * as v from 'valibot';
import { type AppContext, seedOf } from '../context.ts';
import { cacheHeaders, jsonAnswer, mediaAnswer, notModified } from '../http/contract.ts';
import type { ErrorCode } from '../http/errors.ts';
import { doc } from '../http/openapi-detail.ts';
import { guardedJson, type Http, publicCache, sendDocument } from '../http/public-cache.ts';
import { publicAsset, publicFeed, publicPost, publicSource } from './reads.ts';
import { AssetParam, FeedQuery, PostParam } from './requests.ts';
import { PublicFeedAnswer, PublicPostAnswer, PublicSourceAnswer } from './schemas.ts';
import { ASSET_HEADERS } from './viewer.ts';

const PUBLIC_MAX_AGE = 30;
const FEED_MAX_AGE = 15;
const ASSET_CSP = ASSET_HEADERS['content-security-policy'];

export const pubsPublicRoutes = (ctx: AppContext) => {
  const page = (http: Http, key: string, maxAge: number, build: () => unknown) =>
    guardedJson(ctx, http, { key: `pubs:${key}`, maxAgeSeconds: maxAge, unavailable: 'PUBS_UNAVAILABLE' }, build);
  const publicDoc = (summary: string, description: string, schema: v.GenericSchema, maxAge: number, errors: ErrorCode[]) =>
    doc({
      summary,
      description,
      tags: ['public'],
      errors: [...errors, 'PUBS_UNAVAILABLE'],
      answers: { 200: jsonAnswer(schema, summary, cacheHeaders(maxAge)), 304: notModified(maxAge) },
    });

  return new Elysia({ name: 'pubs-public', seed: seedOf(ctx) })
    .get(
      '/api/pubs/feed',
      ({ query, request, set }) =>
        page({ request, set }, `feed:${query.sort}:${query.limit}:${query.cursor ?? ''}`, FEED_MAX_AGE, () => publicFeed(ctx, query as never)),
      {
        query: FeedQuery,
        detail: publicDoc(
          'Published articles',
          'No key; CORS *. sort new (by first publication) or top (by score); cursor/next_cursor belong to one sort. A withdrawn article, or one an operator hid, leaves it at once, whatever the cache age.',
          PublicFeedAnswer,
          FEED_MAX_AGE,
          ['INVALID_LIMIT', 'INVALID_CURSOR', 'INVALID_REQUEST'],
        ),
      },
    )
    .get(
      '/api/pubs/posts/:post_id',
      ({ params, request, set }) => page({ request, set }, `post:${params.post_id.toLowerCase()}`, PUBLIC_MAX_AGE, () => publicPost(ctx, params.post_id)),
      {
        params: PostParam,
        detail: publicDoc(
          'A published article',
          'No key; the published revision only. Never published: 404; withdrawn: 410 PUBS_WITHDRAWN; taken down by an operator: 410 PUBS_HIDDEN (at once, whatever the cache age).',
          PublicPostAnswer,
          PUBLIC_MAX_AGE,
          ['NOT_FOUND', 'PUBS_WITHDRAWN', 'PUBS_HIDDEN', 'INVALID_REQUEST'],
        ),
      },
    )
    .get(
      '/api/pubs/posts/:post_id/source',
      ({ params, request, set }) => page({ request, set }, `source:${params.post_id.toLowerCase()}`, PUBLIC_MAX_AGE, () => publicSource(ctx, params.post_id)),
      {
        params: PostParam,
        detail: publicDoc(
          'A published article’s blocks and sanitized sources',
          'No key; as /api/pubs/posts/{post_id}, with each svg asset’s stored (sanitized) source.',
          PublicSourceAnswer,
          PUBLIC_MAX_AGE,
          ['NOT_FOUND', 'PUBS_WITHDRAWN', 'PUBS_HIDDEN', 'INVALID_REQUEST'],
        ),
      },
    )
    .get(
      '/api/pubs/assets/:revision_id/:asset_id',
      ({ params, request, set }) => {
        const key = `pubs:asset:${params.revision_id.toLowerCase()}:${params.asset_id}`;
        const document = publicCache(ctx).get(key, PUBLIC_MAX_AGE * 1000, () => publicAsset(ctx, params.revision_id, params.asset_id));
        return sendDocument(document, { request, set }, ctx.clock.now(), {
          maxAgeSeconds: PUBLIC_MAX_AGE,
          contentType: 'image/svg+xml',
          headers: { ...ASSET_HEADERS },
        });
      },
      {
        params: AssetParam,
        detail: doc({
          summary: 'A sanitized asset of a currently published revision',
          description: `No key. Served with Content-Security-Policy: ${ASSET_CSP}, X-Content-Type-Options: nosniff, Content-Disposition: inline. A superseded or never-published revision is 404; a withdrawn article 410 PUBS_WITHDRAWN; one an operator hid 410 PUBS_HIDDEN.`,
          tags: ['public'],
          errors: ['NOT_FOUND', 'PUBS_WITHDRAWN', 'PUBS_HIDDEN', 'INVALID_REQUEST'],
          answers: { 200: mediaAnswer('image/svg+xml', 'The sanitized SVG, exactly as stored.', cacheHeaders(PUBLIC_MAX_AGE)) },
        }),
      },
    );
};
