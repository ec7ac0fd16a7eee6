// OAuth clients: Client ID Metadata Documents first (a client_id that is an https URL; the document
// is fetched with the SSRF-safe fetcher, cached, and must name itself and list its redirect URIs),
// dynamic client registration (RFC 7591) as the fallback, rate-limited per client address.
import type { AppContext } from '../context.ts';
import { groupCommit } from '../db/group-commit.ts';
import { SafeFetchError, type SafeFetchOptions, safeFetch } from '../net/safe-fetch.ts';
import { OAuthFailure, secret, sha256 } from './oauth.ts';
import { type ClientRow, mcpStore } from './store.ts';

export interface Client {
  client_id: string;
  kind: 'registered' | 'document';
  client_name: string | null;
  client_uri: string | null;
  redirect_uris: string[];
}

/** Why a client could not be used: shown on the authorization page, never redirected (the redirect URI is not trusted yet). */
export class ClientProblem extends Error {}

/** Too many metadata documents are being fetched at once: try again in a moment (shown as 503, never cached). */
export class ClientDocumentsBusy extends ClientProblem {}

/** A metadata document whose fetch or checks failed is not fetched again for this long: the failure is answered from memory. */
export const CLIENT_DOC_FAILURE_SECONDS = 60;
/** At most this many metadata documents are fetched at once (the same URL asked for again meanwhile waits for its fetch). */
export const CLIENT_DOC_CONCURRENT = 8;
/** At most this many remembered failures are kept (the oldest goes first). */
const FAILURES_KEPT = 1000;

/** The metadata-document fetches of one service: failures remembered by URL, fetches under way by URL. */
interface DocumentFetches {
  failed: Map<string, { until: number; message: string }>;
  running: Map<string, Promise<Client>>;
}
const documentFetches = new WeakMap<AppContext, DocumentFetches>();
function fetchesOf(ctx: AppContext): DocumentFetches {
  let f = documentFetches.get(ctx);
  if (!f) {
    f = { failed: new Map(), running: new Map() };
    documentFetches.set(ctx, f);
  }
  return f;
}

function rememberFailure(ctx: AppContext, f: DocumentFetches, clientId: string, message: string): void {
  const now = ctx.clock.now();
  if (f.failed.size >= FAILURES_KEPT) for (const [k, failure] of f.failed) if (failure.until <= now) f.failed.delete(k);
  while (f.failed.size >= FAILURES_KEPT) f.failed.delete(f.failed.keys().next().value!);
  f.failed.delete(clientId);
  f.failed.set(clientId, { until: now + CLIENT_DOC_FAILURE_SECONDS * 1000, message });
}

declare module '../context.ts' {
  interface Outbound {
    /**
     * The metadata documents' fetcher's resolver and extra CA: the system's (none set); tests reach
     * a loopback https server with a self-signed certificate (the fetcher's rules stay the same).
     */
    clientDocuments: Pick<SafeFetchOptions, 'ca' | 'lookup'>;
  }
}

const toClient = (row: ClientRow): Client => ({
  client_id: row.client_id,
  kind: row.kind,
  client_name: row.client_name,
  client_uri: row.client_uri,
  redirect_uris: JSON.parse(row.redirect_uris) as string[],
});

/** A client_id that names a metadata document: https, a path, no fragment, no user info, no dot segments. */
export function isDocumentClientId(clientId: string): boolean {
  if (!clientId.startsWith('https://')) return false;
  let u: URL;
  try {
    u = new URL(clientId);
  } catch {
    return false;
  }
  return u.pathname !== '/' && u.hash === '' && u.username === '' && u.password === '' && !/\/\.\.?(\/|$)/.test(clientId.slice(8));
}

// RFC 8252 §7.3 names the loopback IP literals; `localhost` is accepted too because the MCP clients
// in use register it (Claude Code's http://localhost:PORT/callback). It names the person's own
// machine just the same, and the page shows the address before anyone approves.
export const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]']);

/** The authority of an absolute URI as written (between `//` and the path, query or fragment), lower case. */
function writtenAuthority(uri: string): string {
  const start = uri.indexOf('//');
  if (start < 0) return '';
  const rest = uri.slice(start + 2);
  const end = rest.search(/[/?#]/);
  return (end < 0 ? rest : rest.slice(0, end)).toLowerCase();
}

const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443' };

/**
 * A redirect URI a client may name: https, or http on a loopback host for a native app (RFC 8252,
 * any port at /authorize: see matchRedirectUri). Nothing else: a custom scheme can be claimed by any
 * app on the device, and /authorize sends its errors and codes to this address, so it must be one a
 * browser can only reach as named. Its host must be written as the browser reads it: a backslash is
 * read as `/` (`https://evil.example\@good.example/` reads as good.example and goes to
 * evil.example), and `http://127.1/`, `http://0x7f000001/`, a percent-encoded or Unicode host are
 * another spelling of an address the person should see as it is. What a browser reads the same
 * (upper case, a bare origin without its `/`, the default port written out) is taken as written:
 * clients show and register such URIs (VS Code shows `http://127.0.0.1:33418` for a client id
 * entered by hand; it registers `http://127.0.0.1/` and `http://127.0.0.1:33418/` and, with that
 * port taken, asks at another: matchRedirectUri).
 */
export function redirectUriProblem(uri: string): string | null {
  if (uri.includes('\\')) return 'holds a backslash (a browser reads it as /, so it does not go where it reads)';
  let u: URL;
  try {
    u = new URL(uri);
  } catch {
    return 'is not an absolute URI';
  }
  if (uri.includes('#')) return 'has a fragment';
  // https://good.example@evil.example/ reads as the one and goes to the other.
  if (u.username || u.password) return 'holds a user name or password';
  if (u.protocol !== 'https:' && u.protocol !== 'http:')
    return `uses the scheme ${u.protocol}: only https, or http on 127.0.0.1, [::1] or localhost (RFC 8252), is accepted`;
  if (u.protocol === 'http:' && !LOOPBACK_HOSTS.has(u.hostname)) return 'uses http on a host other than loopback (use https)';
  const written = writtenAuthority(uri);
  if (written !== u.host && written !== `${u.hostname}:${DEFAULT_PORTS[u.protocol]}`)
    return `names its host in another form than a browser reads it: write it as ${JSON.stringify(u.host.slice(0, 200))}`;
  return null;
}

/** The loopback form of a redirect URI without its port (RFC 8252 §7.3), or null for any other URI. */
function loopbackWithoutPort(uri: string): string | null {
  if (redirectUriProblem(uri)) return null;
  const u = new URL(uri);
  if (u.protocol !== 'http:' || !LOOPBACK_HOSTS.has(u.hostname)) return null;
  u.port = '';
  return u.href;
}

/**
 * The registered redirect URI a requested one stands for: the same string, or (RFC 8252 §7.3, OAuth
 * 2.1 §8.4.2) for http on a loopback host (127.0.0.1, [::1], localhost) the same URI at any port: a
 * native app listens on a port the system gives it at that moment. Scheme, host, path and query stay
 * exact (localhost does not match 127.0.0.1, a trailing slash is another URI); every other URI is
 * matched as the exact string. Null when none matches.
 */
export function matchRedirectUri(registered: readonly string[], requested: string): string | null {
  if (registered.includes(requested)) return requested;
  const wanted = loopbackWithoutPort(requested);
  if (wanted === null) return null;
  return registered.find((r) => loopbackWithoutPort(r) === wanted) ?? null;
}

// What a client says about itself is shown to a person deciding whether to trust it: characters
// that change how the rest reads (bidi overrides and isolates, zero-width marks), control
// characters and lone surrogates are dropped, and the length is cut at whole characters (a cut
// through a surrogate pair would store half a character).
const UNSHOWN =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what this drops
  /[\u0000-\u001f\u007f-\u009f\u061c\u200b\u200c\u200e\u200f\u202a-\u202e\u2060-\u2069\ufeff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
export function shownText(v: unknown, max = 200): string | null {
  if (typeof v !== 'string') return null;
  const clean = v.replace(UNSHOWN, ' ').replace(/\s+/g, ' ').trim();
  return clean === '' ? null : Array.from(clean).slice(0, max).join('');
}
const text = shownText;

/**
 * The client named by client_id: registered here, or its metadata document (fetched, checked,
 * cached). A document that could not be fetched or used is not fetched again for
 * CLIENT_DOC_FAILURE_SECONDS (the same problem is answered), and at most CLIENT_DOC_CONCURRENT
 * documents are fetched at once (ClientDocumentsBusy beyond): an address sending /authorize one
 * failing or slow URL after another costs this service little outbound work.
 */
export async function resolveClient(ctx: AppContext, clientId: string): Promise<Client> {
  const s = mcpStore(ctx.db);
  const row = s.clientById.get(clientId);
  if (!isDocumentClientId(clientId)) {
    if (row?.kind !== 'registered') throw new ClientProblem('This client is not registered here.');
    return toClient(row);
  }
  const now = ctx.clock.now();
  if (row?.kind === 'document' && row.fetched_at !== null && now - row.fetched_at < ctx.config.mcp.clientDocumentCacheSeconds * 1000) return toClient(row);
  const f = fetchesOf(ctx);
  const failed = f.failed.get(clientId);
  if (failed && failed.until > now) throw new ClientProblem(failed.message);
  const running = f.running.get(clientId);
  if (running) return running;
  if (f.running.size >= CLIENT_DOC_CONCURRENT)
    throw new ClientDocumentsBusy("Too many applications' metadata documents are being fetched at this moment: try again in a few seconds.");
  const fetching = fetchDocument(ctx, clientId)
    .catch((e: unknown) => {
      if (e instanceof ClientProblem) rememberFailure(ctx, f, clientId, e.message);
      throw e;
    })
    .finally(() => f.running.delete(clientId));
  f.running.set(clientId, fetching);
  return fetching;
}

/** Fetches and checks a Client ID Metadata Document, and stores it. */
async function fetchDocument(ctx: AppContext, clientId: string): Promise<Client> {
  const s = mcpStore(ctx.db);
  const now = ctx.clock.now();
  let doc: unknown;
  try {
    const got = await safeFetch(clientId, {
      allowLoopback: ctx.config.fetchAllowLoopback,
      timeoutMs: ctx.config.mcp.clientDocumentTimeoutMs,
      maxBytes: ctx.config.mcp.clientDocumentMaxBytes,
      maxRedirects: 0,
      headers: { accept: 'application/json' },
      ...ctx.outbound.clientDocuments,
    });
    if (got.status !== 200) throw new ClientProblem(`The client's metadata document answered HTTP ${got.status}.`);
    doc = JSON.parse(got.text());
  } catch (e) {
    if (e instanceof ClientProblem) throw e;
    if (e instanceof SafeFetchError) throw new ClientProblem(`The client's metadata document could not be fetched (${e.reason}).`);
    throw new ClientProblem("The client's metadata document is not JSON.");
  }
  const { OAuthClientMetadataSchema } = await import('@modelcontextprotocol/sdk/shared/auth.js');
  const parsed = OAuthClientMetadataSchema.safeParse(doc);
  if (!parsed.success) throw new ClientProblem("The client's metadata document is not valid client metadata.");
  if ((doc as { client_id?: unknown }).client_id !== clientId)
    throw new ClientProblem("The client's metadata document names another client_id than its own URL.");
  const meta = parsed.data;
  if (meta.redirect_uris.length === 0) throw new ClientProblem("The client's metadata document lists no redirect_uris.");
  const bad = meta.redirect_uris.map((u) => [u, redirectUriProblem(u)]).find(([, p]) => p);
  if (bad) throw new ClientProblem(`A redirect URI of the client's metadata document ${bad[1]}.`);
  if (meta.token_endpoint_auth_method && meta.token_endpoint_auth_method !== 'none') {
    throw new ClientProblem("The client's metadata document asks for a client secret; a metadata-document client is public (token_endpoint_auth_method none).");
  }
  const stored = await groupCommit(ctx.db, () => {
    s.upsertDocument.run(clientId, text(meta.client_name), text(meta.client_uri, 500), JSON.stringify(meta.redirect_uris), JSON.stringify(doc), now);
    return s.clientById.get(clientId);
  });
  if (stored?.kind !== 'document') throw new ClientProblem('This client id is taken by a registered client.');
  return toClient(stored);
}

export interface Registered {
  client_id: string;
  client_id_issued_at: number;
  redirect_uris: string[];
  token_endpoint_auth_method: 'none';
  grant_types: string[];
  response_types: string[];
  client_name?: string;
  client_uri?: string;
}

/** RFC 7591 registration: a public client (no secret), PKCE required; per client address per hour. */
export async function registerClient(ctx: AppContext, body: unknown, address: string): Promise<Registered> {
  const limit = ctx.config.mcp.registrationsPerHour;
  const registrant = sha256(`mcp-register:${address}`);
  const s = mcpStore(ctx.db);
  const tooMany = (now: number) => limit === 0 || s.registrationsSince.get(registrant, now - 3_600_000)!.n >= limit;
  const refuse = () => {
    throw new OAuthFailure(429, 'too_many_registrations', `At most ${limit} registrations per hour from one address: reuse the client_id you have, or wait.`, {
      'retry-after': '3600',
    });
  };
  if (tooMany(ctx.clock.now())) refuse();
  const { OAuthClientMetadataSchema } = await import('@modelcontextprotocol/sdk/shared/auth.js');
  const parsed = OAuthClientMetadataSchema.safeParse(body);
  if (!parsed.success)
    throw new OAuthFailure(
      400,
      'invalid_client_metadata',
      `The client metadata is not valid: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ')}.`,
    );
  const meta = parsed.data;
  if (meta.redirect_uris.length === 0 || meta.redirect_uris.length > 10) throw new OAuthFailure(400, 'invalid_redirect_uri', 'Send 1 to 10 redirect_uris.');
  for (const uri of meta.redirect_uris) {
    const problem = redirectUriProblem(uri);
    if (problem) throw new OAuthFailure(400, 'invalid_redirect_uri', `The redirect URI ${JSON.stringify(uri.slice(0, 200))} ${problem}.`);
  }
  const grants = meta.grant_types ?? ['authorization_code', 'refresh_token'];
  if (grants.some((g) => g !== 'authorization_code' && g !== 'refresh_token')) {
    throw new OAuthFailure(400, 'invalid_client_metadata', 'grant_types may hold authorization_code and refresh_token only.');
  }
  if (meta.response_types?.some((r) => r !== 'code')) throw new OAuthFailure(400, 'invalid_client_metadata', 'response_types may hold code only.');
  const now = ctx.clock.now();
  const clientId = secret('mcp_client_', 18);
  const name = text(meta.client_name);
  const uri = text(meta.client_uri, 500);
  // Every client is public: whatever authentication method was asked for, none is issued (RFC 7591 §3.2.1 lets the server say so).
  const answer: Registered = {
    client_id: clientId,
    client_id_issued_at: Math.floor(now / 1000),
    redirect_uris: meta.redirect_uris,
    token_endpoint_auth_method: 'none',
    grant_types: grants,
    response_types: ['code'],
    ...(name ? { client_name: name } : {}),
    ...(uri ? { client_uri: uri } : {}),
  };
  // Counted again with the insert, in the group commit (its sync off the request thread): registrations at once from one address stay within the limit.
  await groupCommit(ctx.db, () => {
    if (tooMany(now)) refuse();
    s.insertRegistered.run(clientId, name, uri, JSON.stringify(meta.redirect_uris), JSON.stringify(answer), registrant, now);
  });
  return answer;
}
