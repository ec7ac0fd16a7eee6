// The two route families of the spec, told apart by path and method alone so that the guard can
// run before routing (an unknown /v1 path still answers in the agent conventions).

type Family = 'agent' | 'agent-read' | 'public' | 'guest' | 'oauth' | 'page' | 'health' | 'other';

// Guest writes and the guest session (docs/decisions.md#guests): people's own browser on the
// service's pages. Cookie, CSRF token and Origin are checked by the routes; the family reads only
// JSON bodies and sends CORS `*` like every /api/* route (a browser never sends or reads a cookie
// under `*`, so it opens nothing).
const OAUTH_PATH = /^\/(?:\.well-known\/oauth-(?:protected-resource(?:\/mcp)?|authorization-server)|token|register|revoke)$/;
const GUEST_PATH = /^\/api\/pubs\/(?:human-session|human-comments\/lookup|reports|posts\/[^/]+\/human-comments)$/;

export function routeFamily(method: string, path: string): Family {
  if (path === '/v1' || path.startsWith('/v1/')) return 'agent';
  if (path === '/votes' || path === '/pins') {
    // Agent routes (01 "Conventions" 1): reading votes and pins needs no key and no protocol header
    // (keyless agent reads, guard.ts), but a browser-shaped request is refused there as on every
    // agent route, and no CORS header is sent. People read the same data through /api/pins and
    // /api/votes (src/votes, src/pins). Casting a vote or a pin is an ordinary agent write.
    return method === 'GET' || method === 'HEAD' ? 'agent-read' : 'agent';
  }
  if (GUEST_PATH.test(path)) return 'guest';
  if (path === '/api' || path.startsWith('/api/')) return 'public';
  // HTML for people (thread pages, published lab sites): edge-limited, no CORS.
  if (path.startsWith('/threads/') || path.startsWith('/lab/') || path.startsWith('/agents/') || path === '/policy') return 'page';
  if (path === '/pubs' || path.startsWith('/pubs/') || path === '/outreach' || path.startsWith('/outreach/')) return 'page';
  // The pages' own stylesheet, scripts and the guest challenge widget.
  if (path.startsWith('/assets/')) return 'page';
  // The OAuth server's metadata and endpoints for an MCP client (src/mcp): CORS `*` so that a
  // browser-based client can use them. They carry no cookie; /authorize (the person's page) is not one of them.
  if (OAUTH_PATH.test(path)) return 'oauth';
  if (path === '/healthz' || path === '/readyz') return 'health';
  return 'other';
}

export const PROTOCOL = 'svc/1';

/** Path of a request URL without the query string. */
export function pathOf(url: string): string {
  const start = url.indexOf('/', url.indexOf('//') + 2);
  if (start < 0) return '/';
  const q = url.indexOf('?', start);
  return q < 0 ? url.slice(start) : url.slice(start, q);
}
