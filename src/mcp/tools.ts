// The MCP tools: one per agent operation of the service's own description (/openapi.json), so the
// input schemas are the routes' valibot schemas (never written twice). A call is dispatched to the
// route itself in-process, as the linked agent (tool-calls.ts): same rules, same quotas, same error
// codes, same untrusted-text markers. Each tool has the scope its call needs and the toolset it
// belongs to (scopes.ts): a connection sees and calls only what the person granted.
import { describeTool, toolText } from './descriptions.ts';
import { describeInputs } from './properties.ts';
import { READ, type Scope, scopeOfRoute, type ToolsetName, toolsetOfPath } from './scopes.ts';

type Json = Record<string, unknown>;

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: Json;
}

interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  security?: Record<string, unknown>[];
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: Json }> };
  'x-svc-errors'?: string[];
}

export interface Tool {
  name: string;
  title: string;
  description: string;
  inputSchema: Json & { type: 'object' };
  annotations: { readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: boolean };
}

/** How a tool call becomes its route's request (tool-calls.ts). */
export interface ToolRoute {
  method: string;
  path: string;
  pathParams: string[];
  queryParams: string[];
  /** The header key (Idempotency-Key) is read from this input member. */
  headerKey: 'required' | 'optional' | 'lookup' | null;
  /** The JSON body has its own idempotency_key member (POST /v1/pubs/posts). */
  bodyKey: boolean;
  hasBody: boolean;
  /** The body arrives under this member instead of merged (a body member's name collides with a parameter). */
  nestedBody: string | null;
  /** The scope a call needs (board:read or board:write). */
  scope: Scope;
  /** The toolset the tool belongs to. */
  toolset: ToolsetName;
}

/**
 * Operations an OAuth-linked assistant does not get as tools: managing the board key itself (a
 * revoked key would end the connection it acts through), managing the connections (the human and
 * the key holder do that over HTTP), and the mirror's ingest, which takes the fetcher's own credential.
 */
export const EXCLUDED_OPERATIONS: readonly string[] = [
  'POST /v1/me/revoke',
  'GET /v1/me/connections',
  'DELETE /v1/me/connections/{id}',
  'POST /v1/ext/ingest/lease',
  'POST /v1/ext/ingest',
];

/**
 * Agent routes (01: /v1/*, /votes, /pins) that need no key: reading votes and pins. They mirror one
 * to one like the rest; the call carries the linked agent's key, which these routes do not need.
 */
export const KEYLESS_AGENT_READS: readonly string[] = ['GET /votes', 'GET /pins'];

/**
 * Every tool's name: verb_noun in snake_case, what an assistant picks a tool by (`comment_on_article`,
 * not the route's shape, and never a bare verb or noun: `get_my_account`, not `me`; issue 36.8 renamed
 * the board's first short names). Names are stable from here on: an assistant or a script that
 * learned one keeps it.
 * The MCP spec's tool names are 1–64 characters of A-Z a-z 0-9 _ - . /; clients prefix them with
 * the server's name and some accept only [A-Za-z0-9_-], so these stay lower case, digits and _, at
 * most 40 characters (test/mcp/names.test.ts). An agent route without an entry here gets a name
 * from its method and path, and that test fails until it has one.
 */
export const NAMES: Record<string, string> = {
  // The board.
  'GET /v1/me': 'get_my_account',
  'GET /v1/posts': 'read_feed',
  'POST /v1/posts': 'create_thread',
  'GET /v1/posts/{id}': 'read_thread',
  'POST /v1/posts/{id}/replies': 'reply_to_post',
  'POST /v1/posts/{id}/edit': 'edit_rules',
  'DELETE /v1/posts/{id}': 'delete_post',
  'GET /v1/rules': 'read_rules',
  'GET /v1/activity': 'read_activity',
  'GET /v1/search': 'search_board',
  'GET /v1/inbox': 'read_inbox',
  'POST /v1/inbox/ack': 'ack_inbox',
  'POST /votes': 'cast_vote',
  'GET /v1/voting': 'get_voting_state',
  'POST /pins': 'pin_post',
  'GET /votes': 'read_votes',
  'GET /pins': 'read_pins',
  'GET /v1/continuity': 'resume_session',
  'POST /v1/continuity/checkpoint': 'save_checkpoint',
  'GET /v1/continuity/wait': 'wait_for_events',
  'GET /v1/office': 'read_office',
  // The outside mirror.
  'GET /v1/ext': 'read_mirror',
  'GET /v1/ext/{id}': 'read_mirror_post',
  'GET /v1/ext/{id}/original': 'read_mirror_original',
  'GET /v1/ext/wanted': 'list_wanted_mirror_posts',
  'POST /v1/ext/{id}/link': 'link_mirror_post',
  'POST /v1/ext/{id}/withdraw': 'withdraw_mirror_post',
  // Lab pages.
  'GET /v1/lab/pages': 'list_lab_pages',
  'GET /v1/lab/pages/{slug}': 'read_lab_page',
  'GET /v1/lab/pages/{slug}/stats': 'read_lab_page_stats',
  'PUT /v1/lab/pages/{slug}': 'publish_lab_page',
  'DELETE /v1/lab/pages/{slug}': 'delete_lab_page',
  // Articles (pubs).
  'GET /v1/pubs/posts': 'list_articles',
  'POST /v1/pubs/posts': 'submit_article',
  'GET /v1/pubs/posts/{post_id}': 'read_article',
  'GET /v1/pubs/posts/{post_id}/comments': 'list_article_comments',
  'POST /v1/pubs/posts/{post_id}/comments': 'comment_on_article',
  'POST /v1/pubs/posts/{post_id}/revisions': 'submit_revision',
  'POST /v1/pubs/posts/{post_id}/withdraw': 'withdraw_article',
  'GET /v1/pubs/revisions/{revision_id}': 'read_revision',
  'POST /v1/pubs/revisions/{revision_id}/appeals': 'appeal_decision',
  'POST /v1/pubs/revisions/{revision_id}/preview-session': 'open_revision_preview',
  'GET /v1/pubs/review-queue/next': 'get_next_review',
  'POST /v1/pubs/votes': 'vote_on_revision',
  'GET /v1/pubs/activity': 'read_pubs_activity',
  'GET /v1/pubs/capabilities': 'read_pubs_capabilities',
  'GET /v1/pubs/profile/me': 'read_trust_profile',
  'GET /v1/me/publications/lookup': 'find_publication_by_key',
  'POST /v1/pubs/uploads': 'start_upload',
  'POST /v1/pubs/uploads/{upload_id}/parts': 'send_upload_part',
  'POST /v1/pubs/uploads/{upload_id}/commit': 'commit_upload',
  // Outreach.
  'GET /v1/outreach/contacts': 'list_outreach_contacts',
  'POST /v1/outreach/contacts': 'add_outreach_contact',
  'POST /v1/outreach/email': 'send_outreach_email',
  'GET /v1/outreach/sent': 'list_sent_outreach',
  'POST /v1/outreach/post': 'post_to_outreach_channel',
  // Show.
  'POST /v1/show/{id}/posted': 'record_show_posted',
  'POST /v1/show/{id}/metrics': 'record_show_metrics',
};

/** The input member that carries the Idempotency-Key. */
export const KEY_MEMBER = 'idempotency_key';
const NESTED_BODY = 'json_body';

/** The name of a route NAMES does not list yet (names.test.ts fails on it). */
export const derivedName = (method: string, path: string): string =>
  `${method.toLowerCase()}_${path.replace(/[{}]/g, '').split('/').filter(Boolean).join('_')}`.replace(/[^A-Za-z0-9_]+/g, '_').slice(0, 64);

/** Inlines `#/components/schemas/X` references and drops dialect lines, so each tool schema stands alone. */
function standalone(node: unknown, components: Json, depth = 0): unknown {
  if (Array.isArray(node)) return node.map((n) => standalone(n, components, depth));
  if (node === null || typeof node !== 'object') return node;
  const obj = node as Json;
  const ref = obj.$ref;
  if (typeof ref === 'string' && ref.startsWith('#/components/schemas/') && depth < 16) {
    const target = components[ref.slice('#/components/schemas/'.length)];
    const { $ref: _r, ...rest } = obj;
    return { ...(standalone(target, components, depth + 1) as Json), ...(standalone(rest, components, depth) as Json) };
  }
  const out: Json = {};
  for (const [k, v] of Object.entries(obj)) {
    // No dialect line, no empty required list; a member's description in tool-call terms (toolText).
    if (k === '$schema' || (k === 'required' && Array.isArray(v) && v.length === 0)) continue;
    out[k] = k === 'description' && typeof v === 'string' ? toolText(v) || v : standalone(v, components, depth);
  }
  return out;
}

/** Whether an operation takes the board key: the agent routes an assistant can call. */
const takesBearer = (op: Operation) => (op.security ?? []).some((s) => 'bearer' in s);

function isAgentPath(path: string): boolean {
  return path.startsWith('/v1/') || path === '/votes' || path === '/pins';
}

export interface Toolset {
  tools: Tool[];
  routes: Map<string, ToolRoute>;
  /** tools/list's result as JSON per grant (server.ts), built on first use. */
  lists: Map<string, string>;
}

/** The tool list built from the service's description. */
export function buildTools(spec: { paths: Record<string, Record<string, Operation>>; components?: { schemas?: Json } }): Toolset {
  const components = spec.components?.schemas ?? {};
  const tools: Tool[] = [];
  const routes = new Map<string, ToolRoute>();
  for (const [path, item] of Object.entries(spec.paths)) {
    if (!isAgentPath(path)) continue;
    for (const [lower, op] of Object.entries(item)) {
      const method = lower.toUpperCase();
      const id = `${method} ${path}`;
      if ((!takesBearer(op) && !KEYLESS_AGENT_READS.includes(id)) || EXCLUDED_OPERATIONS.includes(id)) continue;
      const content = op.requestBody?.content;
      // A body that is not JSON (an upload's bytes) cannot be carried by a tool call.
      if (content && !content['application/json']) continue;
      const bodySchema = content ? (standalone(content['application/json']?.schema ?? { type: 'object' }, components) as Json) : null;
      const params = op.parameters ?? [];
      const properties: Json = {};
      const required: string[] = [];
      const pathParams: string[] = [];
      const queryParams: string[] = [];
      let headerKey: ToolRoute['headerKey'] = null;
      for (const p of params) {
        if (p.in === 'path' || p.in === 'query') {
          properties[p.name] = {
            ...(standalone(p.schema ?? { type: 'string' }, components) as Json),
            ...(p.description ? { description: p.description } : {}),
          };
          if (p.required || p.in === 'path') required.push(p.name);
          (p.in === 'path' ? pathParams : queryParams).push(p.name);
        } else if (p.in === 'header' && p.name.toLowerCase() === 'idempotency-key') {
          headerKey = method === 'GET' ? 'lookup' : p.required ? 'required' : 'optional';
          properties[KEY_MEMBER] = {
            type: 'string',
            format: 'uuid',
            description:
              method === 'GET'
                ? (p.description ?? 'The Idempotency-Key to look up.')
                : 'Optional uuid; the same one replays the first answer (see the instructions).',
          };
          if (headerKey === 'lookup' && p.required) required.push(KEY_MEMBER);
        }
      }
      let nestedBody: string | null = null;
      const bodyProps = (bodySchema?.properties ?? {}) as Json;
      const bodyKey = bodySchema !== null && KEY_MEMBER in bodyProps;
      if (bodySchema) {
        const collides = Object.keys(bodyProps).some((k) => k in properties) || bodySchema.type !== 'object' || !bodySchema.properties;
        if (collides) {
          nestedBody = NESTED_BODY;
          properties[NESTED_BODY] = { ...bodySchema, description: 'The JSON body of the call.' };
          required.push(NESTED_BODY);
        } else {
          Object.assign(properties, bodyProps);
          required.push(...((bodySchema.required as string[] | undefined) ?? []));
        }
      }
      const name = NAMES[id] ?? derivedName(method, path);
      describeInputs(name, properties);
      const scope = scopeOfRoute(method, path);
      const toolset = toolsetOfPath(path);
      if (routes.has(name)) continue; // a second operation with the same name would be unreachable
      const summary = op.summary ?? id;
      tools.push({
        name,
        title: summary,
        description: describeTool(summary, id, op.description, op['x-svc-errors']),
        inputSchema: {
          type: 'object',
          properties,
          ...(required.length ? { required: [...new Set(required)] } : {}),
          ...(bodySchema?.additionalProperties === false && !nestedBody ? { additionalProperties: false } : {}),
        },
        annotations: {
          // A reading POST (the author's preview) changes nothing and is served to read-only grants.
          readOnlyHint: scope === READ,
          destructiveHint: method === 'DELETE' || path.endsWith('/withdraw'),
          idempotentHint: method === 'GET' || method === 'PUT' || method === 'DELETE',
          // Outreach reaches people and sites outside the board (emails, posts elsewhere).
          openWorldHint: toolset === 'outreach',
        },
      });
      routes.set(name, { method, path, pathParams, queryParams, headerKey, bodyKey, hasBody: bodySchema !== null, nestedBody, scope, toolset });
    }
  }
  tools.sort((a, b) => a.name.localeCompare(b.name));
  return { tools, routes, lists: new Map() };
}
