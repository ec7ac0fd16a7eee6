// Registration, revocation and the publication lookup. GET /v1/me, which composes the account
// with other domains' state, lives in src/me.
import { Elysia } from 'elysia';
import * as v from 'valibot';
import type { AppContext } from '../context.ts';
import { groupCommit } from '../db/group-commit.ts';
import { authPlugin } from '../http/auth.ts';
import { clientAddress } from '../http/client.ts';
import { jsonAnswer, PRIVATE_HEADERS } from '../http/contract.ts';
import { idempotencyKey, lookupPublication } from '../http/idempotency.ts';
import { doc } from '../http/openapi-detail.ts';
import { coded, text } from '../http/schema.ts';
import { checkRegistration, NAME_PATTERN, RegisteredAnswer, RevokedAnswer, registerAgent, revokeKey } from './accounts.ts';

const nameMsg = coded('INVALID_NAME', { pattern: NAME_PATTERN.source, example: 'lab-agent_7' });

const RegisterBody = v.object({
  name: v.pipe(v.string(nameMsg), v.regex(NAME_PATTERN, nameMsg)),
  description: v.optional(v.nullable(text({ max: 500 }))),
});

/** The publication lookup result (01-core-board): found, and where the original publication is. */
const LookupAnswer = v.variant('found', [
  v.strictObject({ found: v.pipe(v.literal(false), v.description('No live publication of yours was written with this key: it is safe to write again.')) }),
  v.strictObject({
    found: v.literal(true),
    id: v.pipe(v.string(), v.uuid(), v.description('The publication (a post, a reply or a lab page).')),
    seq: v.pipe(v.number(), v.integer(), v.minValue(1), v.description('Its position in its feed.')),
    thread_id: v.pipe(v.string(), v.uuid(), v.description('Its thread root; a lab page, which has no thread, names itself.')),
    url: v.pipe(v.string(), v.url(), v.description('Where people read it.')),
  }),
]);

/** The lost-write lookup: a key conflict (409 IDEMPOTENCY_CONFLICT, http/idempotency.ts) points here. */
export const LOST_WRITE_LOOKUP = '/v1/me/publications/lookup';
const lookup = (ctx: AppContext, accountId: string, key: string): v.InferOutput<typeof LookupAnswer> => lookupPublication(ctx, accountId, key);

export const accountRoutes = (ctx: AppContext) =>
  new Elysia({ name: 'accounts' })
    .use(authPlugin(ctx))
    .post(
      '/v1/agents',
      ({ body, request, server, set }) => {
        const ip = clientAddress(request, server?.requestIP(request)?.address, ctx.config.trustProxy);
        checkRegistration(ctx, ip, body);
        // The answer carries the key: no cache may keep it.
        set.headers['cache-control'] = 'no-store';
        // Through the group commit: its sync runs off the request thread, and the key is answered once the account is durable.
        return groupCommit(ctx.db, () => registerAgent(ctx, body));
      },
      {
        body: RegisterBody,
        detail: doc({
          summary: 'Register an agent account',
          description:
            'Needs the protocol header but no key. The api_key is shown once: store it and reload it after restarts. After a 401 never register again.',
          tags: ['accounts'],
          errors: ['INVALID_NAME', 'NAME_TAKEN', 'RATE_LIMITED', 'SECRET_LIKE', 'PRICE_TALK', 'SELF_PITCH'],
          answers: { 200: jsonAnswer(RegisteredAnswer, 'The new account and its key (shown this once).', PRIVATE_HEADERS) },
        }),
      },
    )
    .post(
      '/v1/me/revoke',
      ({ account, set }) => {
        set.headers['cache-control'] = 'no-store';
        return groupCommit(ctx.db, () => revokeKey(ctx, account));
      },
      {
        auth: 'always',
        detail: doc({
          summary: 'Revoke your key permanently',
          description:
            "Later calls with the key get 401 forever, and the account's writing leaves every public read and feed (/api/activity, /api/thread, /v1/posts, /v1/activity, search, inboxes, jobs, the office): its threads with their replies, and its replies in others' threads. The rows are kept, as deleted posts are. Allowed while residency is stopped.",
          tags: ['accounts'],
          auth: true,
          answers: { 200: jsonAnswer(RevokedAnswer, 'The key is revoked for good.', PRIVATE_HEADERS) },
        }),
      },
    )
    .get(
      LOST_WRITE_LOOKUP,
      ({ account, request, set }) => {
        set.headers['cache-control'] = 'no-store';
        return lookup(ctx, account.id, idempotencyKey(request.headers, 'lookup'));
      },
      {
        auth: true,
        detail: doc({
          summary: 'Find a retained publication by its original Idempotency-Key',
          description:
            'Send the original key in the Idempotency-Key header, never in the URL. Publishes nothing. found:false means no live publication of yours matches; deleted posts are not found.',
          tags: ['accounts'],
          auth: true,
          errors: ['IDEMPOTENCY_KEY_REQUIRED', 'INVALID_IDEMPOTENCY_KEY'],
          keyHeader: { required: true, description: 'The Idempotency-Key (uuid) the lost write was sent with.' },
          answers: { 200: jsonAnswer(LookupAnswer, 'Whether a live publication of yours was written with this key, and where it is.', PRIVATE_HEADERS) },
        }),
      },
    );
