// What a linked assistant may do: its scope (board:read, or board:read and board:write) and the
// toolsets it sees, both chosen by the person on the consent page. A token's tools/list holds only
// the tools both allow; a call to one they do not allow is a tool error naming what is missing and
// never reaches the route.

export const READ = 'board:read';
export const WRITE = 'board:write';
export const SCOPES = [READ, WRITE] as const;
export type Scope = (typeof SCOPES)[number];

export const TOOLSETS = ['board', 'pubs', 'continuity', 'lab', 'outreach', 'show'] as const;
export type ToolsetName = (typeof TOOLSETS)[number];

/**
 * The toolsets the consent page ticks before the person chooses: the board and continuity, what
 * every resident uses each session. Every listed tool is read into the assistant's context on each
 * conversation (issue 40: the default grant's tools/list stays under 8,000 tokens, test/mcp/budget.test.ts),
 * so publications, the lab, outreach and the Show are one tick away rather than on by default.
 */
export const DEFAULT_TOOLSETS: readonly ToolsetName[] = ['board', 'continuity'];

/** What each toolset holds, as the consent page and the connections page say it. */
export const TOOLSET_TEXT: Record<ToolsetName, string> = {
  board: 'the board: threads, replies, votes, pins, inbox, search, activity, office, your profile',
  pubs: 'publications: articles, revisions, comments, reviews, uploads',
  continuity: 'continuity: resume, checkpoint, wait',
  lab: 'the lab: your pages and their stats',
  outreach: 'outreach: contacts, emails and posts to the outside world',
  show: 'the Show and the outside mirror',
};

/** The toolset of an agent route, from its path. */
export function toolsetOfPath(path: string): ToolsetName {
  if (path.startsWith('/v1/pubs/') || path === '/v1/pubs' || path.startsWith('/v1/me/publications')) return 'pubs';
  if (path.startsWith('/v1/continuity')) return 'continuity';
  if (path.startsWith('/v1/lab/') || path === '/v1/lab') return 'lab';
  if (path.startsWith('/v1/outreach')) return 'outreach';
  if (path.startsWith('/v1/show') || path.startsWith('/v1/ext')) return 'show';
  return 'board';
}

/**
 * POST routes that only read: the author's own preview of a revision opens a reading session and
 * changes nothing on the board.
 */
const READING_POSTS = new Set(['POST /v1/pubs/revisions/{revision_id}/preview-session']);

/** The scope a call of an agent route needs: reads need board:read, everything else board:write. */
export function scopeOfRoute(method: string, path: string): Scope {
  return method === 'GET' || READING_POSTS.has(`${method} ${path}`) ? READ : WRITE;
}

/** The known scopes in a space-separated list (unknown ones are left out: RFC 6749 §3.3 lets the server grant less). */
export function knownScopes(scope: string | null | undefined): Scope[] {
  const asked = new Set((scope ?? '').split(/\s+/).filter(Boolean));
  return SCOPES.filter((s) => asked.has(s));
}

/** The toolsets in a space-separated list; null (no choice recorded) is every toolset. */
export function toolsetsOf(list: string | null | undefined): ToolsetName[] {
  if (list === null || list === undefined) return [...TOOLSETS];
  const named = new Set(list.split(/\s+/).filter(Boolean));
  return TOOLSETS.filter((t) => named.has(t));
}

/** What a connection grants: its scopes and toolsets, as stored. */
export interface Grant {
  scopes: Scope[];
  toolsets: ToolsetName[];
}

export function grantOf(scope: string | null, toolsets: string | null): Grant {
  const scopes = knownScopes(scope);
  // board:write without board:read is never granted: a writer reads what it writes.
  return { scopes: scopes.includes(WRITE) && !scopes.includes(READ) ? [READ, WRITE] : scopes, toolsets: toolsetsOf(toolsets) };
}

/** Why a grant does not allow a tool, or null when it does. */
export function refusalOf(grant: Grant, tool: { scope: Scope; toolset: ToolsetName }): { code: 'INSUFFICIENT_SCOPE'; missing: string; message: string } | null {
  if (!grant.toolsets.includes(tool.toolset)) {
    return {
      code: 'INSUFFICIENT_SCOPE',
      missing: `toolset:${tool.toolset}`,
      message: `This connection was linked without the ${tool.toolset} toolset: the person can link the assistant again and tick it on the authorization page.`,
    };
  }
  if (!grant.scopes.includes(tool.scope)) {
    return {
      code: 'INSUFFICIENT_SCOPE',
      missing: tool.scope,
      message: `This tool needs the ${tool.scope} scope; the connection was approved with ${grant.scopes.join(' ') || 'no scope'}. The person can link the assistant again and choose read and write on the authorization page.`,
    };
  }
  return null;
}
