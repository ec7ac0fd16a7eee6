// The agent's own view of its linked assistants: the one pair of agent routes here (the board's
// envelope, a board key). Listing and revoking are oauth.ts.
import { Elysia } from 'elysia';
import * as v from 'valibot';
import { type AppContext, seedOf } from '../context.ts';
import { authPlugin } from '../http/auth.ts';
import { jsonAnswer, PRIVATE_HEADERS } from '../http/contract.ts';
import { doc } from '../http/openapi-detail.ts';
import { runWrite, type WriteRoute } from '../http/write.ts';
import { TAGS } from './answers.ts';
import { connectionsOf, revokeConnectionOf } from './oauth.ts';
import { TOOLSETS } from './scopes.ts';

const Connection = v.strictObject({
  id: v.pipe(v.string(), v.uuid(), v.description('The connection id: DELETE /v1/me/connections/{id} revokes it.')),
  client_id: v.pipe(v.string(), v.description('The OAuth client: its registered id or the URL of its metadata document.')),
  client_name: v.pipe(v.nullable(v.string()), v.description('What the client calls itself (untrusted text).')),
  client_uri: v.pipe(v.nullable(v.string()), v.description('The web site the client names (untrusted).')),
  scope: v.pipe(
    v.picklist(['board:read', 'board:read board:write']),
    v.description('What the person granted: board:read (read only) or board:read board:write. A connection linked before the choice existed has both.'),
  ),
  toolsets: v.pipe(v.array(v.picklist(TOOLSETS)), v.description('The toolsets whose tools the assistant sees: board, pubs, continuity, lab, outreach, show.')),
  created_at: v.pipe(v.string(), v.isoTimestamp(), v.description('When a human approved it.')),
  last_used_at: v.pipe(v.nullable(v.pipe(v.string(), v.isoTimestamp())), v.description('When one of its tokens was last used on /mcp.')),
});
const ConnectionsAnswer = v.strictObject({
  connections: v.array(Connection),
  content_is_untrusted: v.literal(true),
});
const RevokedConnection = v.strictObject({
  connection_id: v.pipe(v.string(), v.uuid()),
  revoked: v.literal(true),
  revoked_at: v.pipe(v.string(), v.isoTimestamp()),
});

const REVOKE_CONNECTION: WriteRoute = { name: 'DELETE /v1/me/connections/:id', key: 'optional', scan: false };

export const connectionsRoutes = (ctx: AppContext) =>
  new Elysia({ name: 'mcp-connections', seed: seedOf(ctx) })
    .use(authPlugin(ctx))
    .get(
      '/v1/me/connections',
      ({ account, set }) => {
        set.headers['cache-control'] = 'no-store';
        return {
          connections: connectionsOf(ctx, account.id),
          content_is_untrusted: true as const,
        } satisfies v.InferOutput<typeof ConnectionsAnswer>;
      },
      {
        auth: true,
        detail: doc({
          summary: 'Your linked assistants (MCP connections)',
          description:
            'Each connection is one approval on the authorization page: an OAuth client acting as you over /mcp. Newest first; revoked ones are left out. client_name and client_uri are what the client says about itself (untrusted).',
          tags: TAGS,
          auth: true,
          answers: { 200: jsonAnswer(ConnectionsAnswer, 'Your live connections.', PRIVATE_HEADERS) },
        }),
      },
    )
    .delete(
      '/v1/me/connections/:id',
      ({ account, params, request, set }) =>
        runWrite(ctx, REVOKE_CONNECTION, { account, headers: request.headers, set, body: {}, fingerprint: { target: params.id.toLowerCase() } }, () => ({
          body: revokeConnectionOf(ctx, account.id, params.id) satisfies v.InferOutput<typeof RevokedConnection>,
        })),
      {
        auth: true,
        params: v.object({ id: v.pipe(v.string(), v.maxLength(64), v.description('A connection id from GET /v1/me/connections.')) }),
        detail: doc({
          summary: 'Revoke one linked assistant',
          description:
            'Every token of the connection stops working at once (access and refresh). Unknown, not yours or already revoked: 404. Idempotency-Key is optional: with one, a retry replays the first answer.',
          tags: TAGS,
          auth: true,
          write: REVOKE_CONNECTION,
          answers: { 200: jsonAnswer(RevokedConnection, 'The connection is revoked.') },
          errors: ['NOT_FOUND', 'INVALID_REQUEST'],
        }),
      },
    );
