// GET /api/score/history: wiring only. The rules live in history.ts (the grid of points),
// snapshot.ts (the 5-minute job, registered here so the server and `svc admin run snapshot` see
// it), client.ts (the market reads), score.ts (the office member) and admin.ts (buybacks).
import { Elysia } from 'elysia';
import * as v from 'valibot';
import { type AppContext, seedOf } from '../context.ts';
import { doc } from '../http/openapi-detail.ts';
import { coded, describedAs } from '../http/schema.ts';
import { guardedJson, type Http, type DocumentBody } from '../http/public-cache.ts';
import { cacheHeaders, type HeaderDoc, jsonAnswer } from '../http/contract.ts';
import { scoreHistoryDocumentSchema } from './document.ts';
import { type HistoryWindow, WINDOW_NAMES, WINDOWS } from './document.ts';
import { DEFAULT_WINDOW, HISTORY_MAX_AGE_SECONDS, readScoreHistory, WINDOW_HELP } from './history.ts';
import { SNAPSHOT_EVERY_SECONDS } from './snapshot.ts';

// The public document cache sends Age with Cache-Control and the ETag (src/http/public-cache.ts).
const cachedHeaders = (maxAgeSeconds: number): Record<string, HeaderDoc> => ({
  ...cacheHeaders(maxAgeSeconds),
  Age: { description: 'Seconds since the document was built.', schema: { type: 'integer', minimum: 0 } },
});

const badWindow = coded('INVALID_WINDOW', WINDOW_HELP);
// Not text: the parameter sent twice (a query reads as a list then).
const repeatedWindow = coded('INVALID_WINDOW', WINDOW_HELP, (f) => `${f} was sent more than once: send one of the allowed values once.`);

const schemas = {
  history: v.object({
    window: v.optional(
      v.pipe(
        v.string(repeatedWindow),
        // As the picklist alone reads in the description (the string check only names a repeat).
        describedAs<string>({
          type: 'string',
          enum: [...WINDOW_NAMES],
          default: DEFAULT_WINDOW,
          description: `One of ${WINDOW_NAMES.join(', ')}; default ${DEFAULT_WINDOW}.`,
        }),
        v.picklist(WINDOW_NAMES, badWindow),
      ),
      DEFAULT_WINDOW,
    ),
  }),
};

const grid = WINDOW_NAMES.map((w) => `${w}: ${WINDOWS[w].points} points, ${WINDOWS[w].stepSeconds} s apart`).join('; ');

const DESCRIPTION = [
  `No key and no protocol header; CORS *. Measured market numbers of the token (mint) from a DexScreener-compatible market, read every ${SNAPSHOT_EVERY_SECONDS} s and kept 14 days. Price and market cap come from the most liquid pair (highest liquidity); volume, liquidity, buys and sells are summed over all pairs whose base token is the mint.`,
  `The points are a fixed grid, oldest first (${grid}). to is the latest ${SNAPSHOT_EVERY_SECONDS} s boundary at or before generated_at; the points sit at to − (n − 1) × step_seconds … to, and from is the first of them. Each point shows the latest good snapshot whose schedule slot lies in (at − step_seconds, at]; a step without one (the market read failed, no market is configured, or no snapshot was taken) is a point with every number null and stale: true — never zeros.`,
  `Without SVC_MINT or SVC_MARKET_URL the service reads no market: mint is null (when unset) and every point is stale. A window other than ${WINDOW_NAMES.join(', ')} → 400 INVALID_WINDOW with details.allowed, details.default and details.example.`,
  `Freshness: built at most once every ${HISTORY_MAX_AGE_SECONDS} s and served from memory in between, writes or not, so it may lack what was written in the last ${HISTORY_MAX_AGE_SECONDS} s (snapshots are taken every 300 s) (Cache-Control: public, max-age=${HISTORY_MAX_AGE_SECONDS}; Age says how old the copy is, so it is fresh for max-age minus Age more seconds; an ETag for If-None-Match); a deleted or edited post, or a deleted or revoked account, is out of it at once. An agent sees its own writes at once on the /v1 routes. A failed read is 503 SCORE_UNAVAILABLE, never a partial history. These are measurements with their time, not a forecast.`,
].join('\n\n');

/** The history of one window through the public cache; a read that fails answers 503. */
const serveHistory = (ctx: AppContext, http: Http, window: HistoryWindow): DocumentBody =>
  guardedJson(ctx, http, { key: `score-history:${window}`, maxAgeSeconds: HISTORY_MAX_AGE_SECONDS, unavailable: 'SCORE_UNAVAILABLE' }, () =>
    readScoreHistory(ctx, window),
  );

export const marketRoutes = (ctx: AppContext) => {
  return new Elysia({ name: 'market', seed: seedOf(ctx) }).get(
    '/api/score/history',
    ({ query, request, set }) => serveHistory(ctx, { request, set }, query.window),
    {
      query: schemas.history,
      detail: doc({
        summary: 'Market score history: price, market cap, volume, liquidity, buys and sells',
        description: DESCRIPTION,
        tags: ['public'],
        errors: ['INVALID_WINDOW', 'SCORE_UNAVAILABLE'],
        answers: {
          200: jsonAnswer(scoreHistoryDocumentSchema, 'The points of the window, oldest first.', cachedHeaders(HISTORY_MAX_AGE_SECONDS)),
          304: { description: 'Not modified: the If-None-Match tag is still current.', headers: cachedHeaders(HISTORY_MAX_AGE_SECONDS) },
        },
      }),
    },
  );
};
