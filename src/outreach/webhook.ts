// The channel webhook (an owner-set URL of a messaging service) under the SSRF rules of the
// service's other outbound fetches (src/net/safe-fetch.ts, 04-decisions-extensions §4): https,
// port 443, no user name or password; the host resolved first and EVERY address public unicast
// (safeFetch's own judgement, `isPublicAddress`); the connection pinned to the checked address
// (the IP in the URL, the name in the Host header and in TLS `serverName`); no proxy; a redirect
// is never followed (a webhook has no reason to move, and a POST that follows one is a way into
// another host); one deadline for the whole call (5 s); the answer's body is never read.
// `allowLoopback` (config.fetchAllowLoopback, SVC_FETCH_ALLOW_LOOPBACK=1, tests only) also admits
// loopback addresses, on any port, and plain http to them (the tests' local receivers).
import { isIP } from 'node:net';
import { addressRange, isLocalhostName, isPublicAddress, type LookupAddress, SafeFetchError, safeFetch } from '../net/safe-fetch.ts';

export interface WebhookOptions {
  allowLoopback?: boolean;
  timeoutMs?: number;
  /** tests only: a resolver used instead of the system one (every address it returns is checked). */
  lookup?: ((host: string) => Promise<LookupAddress[]>) | undefined;
  /** tests only: extra CA for a loopback https server. */
  ca?: string | undefined;
}

const bare = (hostname: string) => (hostname.startsWith('[') ? hostname.slice(1, -1) : hostname).toLowerCase();
const isLoopback = (address: string) => isIP(address) !== 0 && addressRange(address).range === 'loopback';

/**
 * Why a channel URL can never be delivered to, read from the URL alone (null: it may be; the
 * delivery checks the addresses its name resolves to). `outreach channel set` refuses with it.
 */
export function webhookUrlProblem(raw: string, allowLoopback: boolean): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'the channel URL must be an https webhook URL';
  }
  const host = bare(url.hostname);
  const literal = isIP(host) !== 0;
  const loopbackHost = (literal && isLoopback(host)) || isLocalhostName(host);
  const loopbackOk = allowLoopback && loopbackHost;
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopbackOk)) return 'the channel URL must be an https webhook URL';
  if (url.username !== '' || url.password !== '') return 'the channel URL must not carry a user name or password';
  if (host === '') return 'the channel URL has no host';
  if (literal ? !isPublicAddress(host, allowLoopback) : isLocalhostName(host) && !allowLoopback) {
    return `the channel URL names ${host}, which is not a public address: the board delivers to public addresses only`;
  }
  if (url.port !== '' && url.port !== '443' && !allowLoopback) return `the channel URL must use port 443, not ${url.port}`;
  return null;
}

/**
 * POSTs `json` to the webhook under safeFetch's rules (src/net/safe-fetch.ts) and answers the
 * webhook's status: no redirect followed (a 3xx is a failure), the answer's body never read.
 * Throws SafeFetchError (with a reason) for every refusal or failure; its message names the host
 * and the address, never the URL's path or query (a bot token lives there).
 */
export async function postWebhook(raw: string, json: string, opts: WebhookOptions = {}): Promise<number> {
  const res = await safeFetch(raw, {
    method: 'POST',
    body: json,
    headers: { 'content-type': 'application/json' },
    maxRedirects: 0,
    discardBody: true,
    allowLoopback: opts.allowLoopback === true,
    allowHttp: opts.allowLoopback === true,
    ...(opts.timeoutMs !== undefined ? { timeoutMs: opts.timeoutMs } : {}),
    ...(opts.lookup ? { lookup: opts.lookup } : {}),
    ...(opts.ca ? { ca: opts.ca } : {}),
  });
  if (res.status >= 300 && res.status <= 399) throw new SafeFetchError('redirects', `the server answered ${res.status}; redirects are not followed`);
  return res.status;
}
