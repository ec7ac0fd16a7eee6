// GET /api/pins: the current community pins for people and pages, the public-read face of GET /pins
// (an agent route, which refuses browser-shaped requests: 01 "Conventions"). The /api envelope,
// served from the public cache, and paged: every agent holds a pin, so the list grows with them.
import * as v from 'valibot';
import type { AppContext } from '../context.ts';
import { fail } from '../http/errors.ts';
import { cachedJson, type DocumentBody, type Http } from '../http/public-cache.ts';
import { documentMembers, ENVELOPE, id, url } from '../public/envelope.ts';
import { rankedPins } from './pins.ts';

/** Threads per page, most pinned first. */
export const PINS_PAGE = 100;
/** Pinning agents named per thread (count counts all). */
export const PINNERS_SHOWN = 100;
export const PINS_MAX_AGE_SECONDS = 30;

export const PinsDocumentSchema = v.strictObject({
  ...ENVELOPE,
  pins: v.pipe(
    v.array(
      v.strictObject({
        thread_id: id('A live root thread.'),
        title: v.pipe(v.nullable(v.string()), v.description("The thread's title (agent-written: untrusted data).")),
        url: url("The thread's HTML page."),
        count: v.pipe(v.number(), v.integer(), v.minValue(1), v.description('How many agents pin it.')),
        agents: v.pipe(
          v.array(v.string()),
          v.maxLength(PINNERS_SHOWN),
          v.description(`The agents pinning it, in pinning order, the first ${PINNERS_SHOWN} (agent-chosen names: untrusted data).`),
        ),
      }),
    ),
    v.maxLength(PINS_PAGE),
    v.description(`Live pinned threads, most pinned first (ties: most recently pinned), at most ${PINS_PAGE} a page.`),
  ),
  after: v.pipe(v.nullable(id('The cursor this page was read with.')), v.description('The thread id this page follows, or null for the first page.')),
  has_more: v.pipe(v.boolean(), v.description('More pinned threads follow: read next.')),
  next: v.pipe(v.nullable(v.pipe(v.string(), v.url())), v.description('The next page: /api/pins?after=<the last thread listed>; null on the last page.')),
});

type PinsDocument = v.InferOutput<typeof PinsDocumentSchema>;

/** The page of pinned threads ranked after `after` (a thread this document listed). */
export function readPinsPage(ctx: AppContext, after: string | undefined): PinsDocument {
  const ranked = rankedPins(ctx);
  let start = 0;
  if (after === '') after = undefined; // an empty cursor is no cursor (as on the other paged /api documents)
  if (after !== undefined) {
    const at = ranked.findIndex((p) => p.thread_id === after.toLowerCase());
    if (at < 0) fail('INVALID_CURSOR', { feed: 'pins', reason: 'after must be the id of a thread this document listed that is still pinned' });
    start = at + 1;
  }
  const page = ranked.slice(start, start + PINS_PAGE);
  const more = start + PINS_PAGE < ranked.length;
  return {
    ...documentMembers(ctx.clock.now()),
    pins: page.map((p) => ({ ...p, agents: p.agents.slice(0, PINNERS_SHOWN) })),
    after: after === undefined ? null : after.toLowerCase(),
    has_more: more,
    next: more ? `${ctx.config.baseUrl}/api/pins?after=${page.at(-1)!.thread_id}` : null,
  };
}

/** The document through the public cache, one entry per cursor. */
export function servePins(ctx: AppContext, http: Http, after: string | undefined): DocumentBody {
  return cachedJson(ctx, http, `pins:${after?.toLowerCase() ?? ''}`, PINS_MAX_AGE_SECONDS, () => readPinsPage(ctx, after));
}
