// The MCP tests' harness: the app behind a real Bun.serve on a loopback port (the SDK's client
// speaks HTTP to it), an OAuthClientProvider kept in memory, and the person's part of the flow
// (open the authorization page, paste the board key, approve) done over HTTP like a browser.
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { GivenReach } from '../../src/compose.ts';
import { makeApp } from '../helpers.ts';

export type Served = ReturnType<typeof makeApp> & { url: string; stop(): void; faults: string[]; arrivals: string[] };

/**
 * A fresh app served on 127.0.0.1; its base URL is the served address (the tokens' audience depends
 * on it). `defaultInstall`: no SVC_BASE_URL (the default base URL http://127.0.0.1:PORT), served on
 * both stacks so that localhost, 127.0.0.1 and [::1] all reach it. `given`: pools or adapters of the test's own (test/helpers.ts).
 */
export function serve(env: Record<string, string> = {}, opts: { defaultInstall?: boolean; given?: GivenReach } = {}): Served {
  let target: ReturnType<typeof makeApp> | undefined;
  // An answer the description does not promise (test/contract.ts) is kept here: each file checks the list is empty.
  const faults: string[] = [];
  // `METHOD /path` of every request the server took, as soon as it took it (before its body is read).
  const arrivals: string[] = [];
  const server = Bun.serve({
    hostname: opts.defaultInstall ? '::' : '127.0.0.1',
    port: 0,
    idleTimeout: 60,
    async fetch(req) {
      arrivals.push(`${req.method} ${new URL(req.url).pathname}`);
      try {
        return await target!.app.handle(req);
      } catch (e) {
        faults.push(String(e));
        return new Response(String(e), { status: 500 });
      }
    },
  });
  const url = `http://127.0.0.1:${server.port}`;
  target = makeApp(
    opts.defaultInstall ? { ...env, SVC_BASE_URL: '', SVC_PORT: String(server.port) } : { SVC_BASE_URL: url, ...env },
    undefined,
    undefined,
    opts.given,
  );
  return { ...target, url, faults, arrivals, stop: () => server.stop(true) };
}

export const REDIRECT = 'http://127.0.0.1:53682/callback';

/** An MCP client's OAuth state, in memory; the authorization URL it would open is kept for the test. */
export class MemoryProvider implements OAuthClientProvider {
  client?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = '';
  authorizationUrl?: URL;
  clientMetadataUrl?: string;
  constructor(
    readonly redirect = REDIRECT,
    opts: { clientMetadataUrl?: string } = {},
  ) {
    this.clientMetadataUrl = opts.clientMetadataUrl;
  }
  get redirectUrl() {
    return this.redirect;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      redirect_uris: [this.redirect],
      client_name: 'Test <b>assistant</b>',
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
    };
  }
  state() {
    return 'state-123';
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(v: string) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
}

/** The consent page's form fields and cookie. */
export async function openPage(url: string | URL) {
  const res = await fetch(url, { redirect: 'manual' });
  const html = await res.text();
  const field = (name: string) => html.match(new RegExp(`name="${name}" value="([^"]*)"`))?.[1] ?? '';
  const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0]!;
  return { res, html, requestId: field('request_id'), csrf: field('csrf_token'), cookie };
}

/** The consent form's choices of a person who grants everything: read and write, every toolset. */
export const EVERYTHING: Record<string, string> = {
  access: 'write',
  ...Object.fromEntries(['board', 'pubs', 'continuity', 'lab', 'outreach', 'show'].map((t) => [`toolset_${t}`, 'on'])),
};

/**
 * The person's part: open the page, paste the key, choose (read and write and every toolset unless
 * `choice` says otherwise: its fields replace the form's), decide. Answers the response (a 302 to
 * the client when it went through).
 */
export async function decide(url: string | URL, apiKey: string, decision: 'approve' | 'deny' = 'approve', choice: Record<string, string> = EVERYTHING) {
  const page = await openPage(url);
  if (page.res.status !== 200) return page.res;
  const origin = new URL(url).origin;
  return fetch(`${origin}/authorize`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: page.cookie },
    body: new URLSearchParams({ request_id: page.requestId, csrf_token: page.csrf, api_key: apiKey, decision, ...choice }).toString(),
  });
}

/** The `name=value` of the cookie by which an approval makes this browser trust the client's redirect URI (src/mcp/trust.ts). */
export function trustOf(res: Response): string {
  const c = res.headers.getSetCookie().find((h) => h.startsWith('svc_oauth_ok_'));
  if (!c) throw new Error(`no trust cookie in ${res.status}`);
  return c.split(';')[0]!;
}

/** The code and state of a redirect back to the client. */
export function codeOf(res: Response): { code: string; state: string | null; error: string | null; location: URL } {
  const location = new URL(res.headers.get('location') ?? 'http://invalid/');
  return { code: location.searchParams.get('code') ?? '', state: location.searchParams.get('state'), error: location.searchParams.get('error'), location };
}

export const form = (url: string, params: Record<string, string>) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(params).toString() });

export const s256 = (verifier: string) => new Bun.CryptoHasher('sha256').update(verifier).digest('base64url');
export const newVerifier = () => Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url');

/** Registers a client over RFC 7591. */
export async function registerClient(s: Served, redirect = REDIRECT): Promise<string> {
  const res = await fetch(`${s.url}/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ redirect_uris: [redirect], client_name: 'Raw client' }),
  });
  if (res.status !== 201) throw new Error(`register: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { client_id: string }).client_id;
}

/** The authorization URL of a request, with any parameter replaced or (undefined) left out. */
export function authorizeUrl(s: Served, clientId: string, verifier: string, over: Record<string, string | undefined> = {}): string {
  const params: Record<string, string | undefined> = {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: s256(verifier),
    code_challenge_method: 'S256',
    state: 'st',
    resource: `${s.url}/mcp`,
    ...over,
  };
  const u = new URL(`${s.url}/authorize`);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) u.searchParams.set(k, v);
  return u.toString();
}

/**
 * POST /token with an approved code (the authorization_code grant: the code, the redirect URI, the
 * verifier, the client and the resource); `over` changes a parameter, or leaves it out (undefined).
 */
export function exchangeCode(s: Served, clientId: string, code: string, verifier: string, over: Record<string, string | undefined> = {}) {
  const params = {
    grant_type: 'authorization_code',
    code,
    redirect_uri: REDIRECT,
    code_verifier: verifier,
    client_id: clientId,
    resource: `${s.url}/mcp`,
    ...over,
  };
  return form(`${s.url}/token`, Object.fromEntries(Object.entries(params).filter((p): p is [string, string] => p[1] !== undefined)));
}

/** The whole raw flow: a code approved with `key`, then exchanged; answers the tokens and the client id. */
export async function link(
  s: Served,
  key: string,
  clientId?: string,
  choice: Record<string, string> = EVERYTHING,
  over: Record<string, string | undefined> = {},
) {
  const id = clientId ?? (await registerClient(s));
  const verifier = newVerifier();
  const back = await decide(authorizeUrl(s, id, verifier, over), key, 'approve', choice);
  const { code } = codeOf(back);
  const res = await exchangeCode(s, id, code, verifier);
  if (res.status !== 200) throw new Error(`token: ${res.status} ${await res.text()}`);
  return { clientId: id, tokens: (await res.json()) as { access_token: string; refresh_token: string; expires_in: number; scope: string } };
}

/** A raw POST of `body` (JSON text) to /mcp with a bearer token, as an MCP client sends it. */
export function mcpPost(s: Served, token: string, body: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${s.url}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
      ...headers,
    },
    body,
  });
}

/** A raw tools/list over /mcp with a bearer token: the status. */
export async function mcpStatus(s: Served, token: string, headers: Record<string, string> = {}): Promise<number> {
  const res = await mcpPost(s, token, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }), headers);
  await res.text();
  return res.status;
}
