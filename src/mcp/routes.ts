// The MCP tool connection and its OAuth 2.1 authorization server, one file per thing a client
// calls: discovery (oauth-metadata.ts), the authorization page (authorize.ts), tokens (token.ts),
// registration (register.ts), revocation (revoke.ts), the MCP endpoint (transport.ts) and the
// agent's own connections (connections.ts, and for a person in a browser connections-page.ts). The rules are in oauth.ts, consent.ts and clients.ts,
// the tools in tools.ts, tool-calls.ts and server.ts, the page in page.ts.
// Only the connections routes under /v1/me are agent routes: OAuth clients and browsers call the
// rest, so they answer RFC 6749 errors or pages, never the board's envelope (answers.ts).
import { Elysia } from 'elysia';
import { type AppContext, seedOf } from '../context.ts';
import { authorizeRoutes } from './authorize.ts';
import { connectionsRoutes } from './connections.ts';
import { connectionsPageRoutes } from './connections-page.ts';
import { oauthMetadataRoutes } from './oauth-metadata.ts';
import { registerRoutes } from './register.ts';
import { revokeRoutes } from './revoke.ts';
import { tokenRoutes } from './token.ts';
import type { App } from './server.ts';
import { transportRoutes } from './transport.ts';

/** `app` is the whole service: tool calls are dispatched to its agent routes (see src/http/auth.ts delegate). */
export const mcpRoutes = (ctx: AppContext, app: App) =>
  new Elysia({ name: 'mcp', seed: seedOf(ctx) })
    .use(oauthMetadataRoutes(ctx))
    .use(authorizeRoutes(ctx))
    .use(tokenRoutes(ctx))
    .use(registerRoutes(ctx))
    .use(revokeRoutes(ctx))
    .use(transportRoutes(ctx, app))
    .use(connectionsRoutes(ctx))
    .use(connectionsPageRoutes(ctx));
