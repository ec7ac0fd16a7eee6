// SSRF-safe fetch of a URL a caller supplied (outreach source pages, MCP client documents).
//
// Rules (docs/outreach.md, docs/decisions.md#outreach): https only, port 443, no userinfo; the host
// is resolved first and EVERY address must be public unicast (ipaddr.js ranges; an IPv6 form that
// embeds an IPv4 address (mapped, compatible, NAT64) is judged by the IPv4 address it reaches);
// the connection is pinned to the checked address (the IP goes in the URL, the name goes in the Host
// header and in TLS `serverName`, so SNI and the certificate check still use the name); no proxy (a
// proxy would resolve the name itself); redirects are followed by hand, each hop checked again; one
// deadline for the whole call (5 s) and a byte cap enforced while reading (1 MB).
// `allowLoopback` (config.fetchAllowLoopback, tests only) also admits loopback addresses, on any port
// (and over plain http with `allowHttp`). `localhost` and the names under it are loopback whatever a resolver says
// (RFC 6761). A POST (the outreach channel's webhook) takes `method` and `body`; `discardBody` ends
// the call at the status, the answer's body never read. Messages name the host and the address,
// never the URL's path or query (a webhook's token lives there).
import { lookup as dnsLookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';

export interface LookupAddress {
  address: string;
  family: number;
}

export interface SafeFetchOptions {
  allowLoopback?: boolean;
  timeoutMs?: number;
  maxBytes?: number;
  headers?: Record<string, string>;
  maxRedirects?: number;
  method?: 'GET' | 'POST';
  /** The request's body (a POST). */
  body?: string;
  /** Answer the status and headers only: the body is cancelled unread. */
  discardBody?: boolean;
  /** tests only, with allowLoopback: plain http to a loopback address (the tests' local webhook receivers). */
  allowHttp?: boolean;
  /** tests only: extra CA for a loopback https server */
  ca?: string;
  /** tests only: a resolver used instead of the system one (every address it returns is checked). */
  lookup?: (host: string) => Promise<LookupAddress[]>;
}

export interface SafeFetchResult {
  url: string;
  status: number;
  headers: Headers;
  body: Uint8Array;
  text(): string;
}

export type SafeFetchReason = 'scheme' | 'port' | 'userinfo' | 'private_address' | 'dns' | 'timeout' | 'too_large' | 'redirects' | 'network';

export class SafeFetchError extends Error {
  constructor(
    readonly reason: SafeFetchReason,
    message: string,
  ) {
    super(message);
    this.name = 'SafeFetchError';
  }
}

export const SAFE_FETCH_DEFAULTS = Object.freeze({ timeoutMs: 5_000, maxBytes: 1_000_000, maxRedirects: 5 });

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

const systemLookup = async (host: string): Promise<LookupAddress[]> => dnsLookup(host, { all: true, verbatim: true });

// IPv6 forms that carry an IPv4 address in their last 32 bits and reach that IPv4 host: mapped
// (::ffff:0:0/96), IPv4-compatible (::/96, deprecated; some stacks still take it for the embedded
// host), and the well-known NAT64 prefix (64:ff9b::/96, RFC 6052, which a NAT64 gateway
// translates to the embedded address). Each is judged by the IPv4 address it reaches, so
// ::a9fe:a9fe is the metadata service and 64:ff9b::808:808 is 8.8.8.8. The local-use NAT64
// prefix 64:ff9b:1::/48 (RFC 8215) is not globally reachable and maps however the local operator
// chose: it keeps ipaddr.js's range (rfc6052), which is refused whatever it embeds.
const EMBEDS_IPV4: [ipaddr.IPv6, number][] = [ipaddr.IPv6.parseCIDR('::ffff:0:0/96'), ipaddr.IPv6.parseCIDR('::/96'), ipaddr.IPv6.parseCIDR('64:ff9b::/96')];
// IANA allocates global unicast IPv6 from 2000::/3 only; ipaddr.js calls the rest of the space
// (0000::/8 around the forms above, for one) unicast unless it has a name for it.
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');

/** The range of one address as ipaddr.js names it; an IPv6 form embedding an IPv4 address is judged by that address. */
export function addressRange(address: string): { range: string; normalized: string } {
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    // :: and ::1 are in ::/96 too, but they are the IPv6 unspecified and loopback addresses.
    const own = v6.range();
    if (own !== 'unspecified' && own !== 'loopback' && EMBEDS_IPV4.some((cidr) => v6.match(cidr))) {
      parsed = ipaddr.fromByteArray(v6.toByteArray().slice(12));
    } else if (own === 'unicast' && !v6.match(GLOBAL_UNICAST_V6)) {
      return { range: 'reserved', normalized: v6.toString() };
    }
  }
  return { range: parsed.range(), normalized: parsed.toString() };
}

/** RFC 6761: `localhost` and every name under it is loopback, whatever a resolver says. */
export const isLocalhostName = (host: string): boolean => host === 'localhost' || host.endsWith('.localhost');

/** True when the address may be connected to: public unicast, or loopback when allowed. */
export function isPublicAddress(address: string, allowLoopback = false): boolean {
  if (!ipaddr.isValid(address)) return false;
  const { range } = addressRange(address);
  return range === 'unicast' || (allowLoopback && range === 'loopback');
}

interface Target {
  url: URL; // the URL as the caller named it (after WHATWG normalization)
  host: string; // hostname without IPv6 brackets
  address: string; // the checked address the connection is pinned to
  isLiteral: boolean;
}

async function withDeadline<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) throw new SafeFetchError('timeout', 'the fetch took too long');
  return await new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new SafeFetchError('timeout', 'the fetch took too long'));
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

async function checkTarget(raw: string | URL, opts: SafeFetchOptions, signal: AbortSignal): Promise<Target> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new SafeFetchError('scheme', 'not a valid absolute URL');
  }
  const allowLoopback = opts.allowLoopback === true;
  // http is judged after the addresses (an http URL at a private address is refused for that).
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new SafeFetchError('scheme', `only https URLs are fetched, not ${url.protocol}`);
  if (url.username !== '' || url.password !== '') {
    throw new SafeFetchError('userinfo', 'a URL with a user name or password is not fetched');
  }
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (host === '') throw new SafeFetchError('dns', 'the URL has no host');
  const isLiteral = ipaddr.isValid(host);
  let addresses: string[];
  if (isLiteral) {
    addresses = [host];
  } else if (isLocalhostName(host)) {
    addresses = ['127.0.0.1'];
  } else {
    let found: LookupAddress[];
    try {
      found = await withDeadline((opts.lookup ?? systemLookup)(host), signal);
    } catch (e) {
      if (e instanceof SafeFetchError) throw e;
      throw new SafeFetchError('dns', `the host ${host} could not be resolved`);
    }
    addresses = found.map((a) => a.address);
    if (addresses.length === 0) throw new SafeFetchError('dns', `the host ${host} has no address`);
  }
  for (const a of addresses) {
    if (!ipaddr.isValid(a)) throw new SafeFetchError('dns', `the host ${host} resolved to an unreadable address`);
    if (!isPublicAddress(a, allowLoopback)) {
      throw new SafeFetchError('private_address', `${host} resolves to ${a}, which is not a public address`);
    }
  }
  const allLoopback = allowLoopback && addresses.every((a) => addressRange(a).range === 'loopback');
  if (url.protocol === 'http:' && !(opts.allowHttp === true && allLoopback)) throw new SafeFetchError('scheme', 'only https URLs are fetched, not http:');
  if (url.port !== '' && url.port !== '443' && !allLoopback) throw new SafeFetchError('port', `only port 443 is fetched, not ${url.port}`);
  return { url, host, address: addresses[0] as string, isLiteral };
}

async function readCapped(res: Response, maxBytes: number, signal: AbortSignal): Promise<Uint8Array> {
  const declared = Number(res.headers.get('content-length') ?? '');
  if (Number.isFinite(declared) && declared > maxBytes) {
    await res.body?.cancel().catch(() => {});
    throw new SafeFetchError('too_large', `the document is larger than ${maxBytes} bytes`);
  }
  if (!res.body) return new Uint8Array(0);
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await withDeadline(reader.read(), signal);
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        throw new SafeFetchError('too_large', `the document is larger than ${maxBytes} bytes`);
      }
      chunks.push(value);
    }
  } catch (e) {
    await reader.cancel().catch(() => {});
    if (e instanceof SafeFetchError) throw e;
    if (signal.aborted) throw new SafeFetchError('timeout', 'the fetch took too long');
    throw new SafeFetchError('network', 'the connection failed while reading');
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/** GET (or POST) `url` under the SSRF rules above. Throws SafeFetchError (with a reason) for every refusal or failure. */
export async function safeFetch(url: string, opts: SafeFetchOptions = {}): Promise<SafeFetchResult> {
  const timeoutMs = opts.timeoutMs ?? SAFE_FETCH_DEFAULTS.timeoutMs;
  const maxBytes = opts.maxBytes ?? SAFE_FETCH_DEFAULTS.maxBytes;
  const maxRedirects = opts.maxRedirects ?? SAFE_FETCH_DEFAULTS.maxRedirects;
  const signal = AbortSignal.timeout(timeoutMs);
  const extra: Record<string, string> = {};
  for (const [k, v] of Object.entries(opts.headers ?? {})) if (k.toLowerCase() !== 'host') extra[k] = v;

  let next: string | URL = url;
  for (let hop = 0; ; hop++) {
    const target = await checkTarget(next, opts, signal);
    const pinned = new URL(target.url);
    pinned.hostname = target.address.includes(':') ? `[${target.address}]` : target.address;
    const tls: BunFetchRequestInitTLS = {};
    if (!target.isLiteral) tls.serverName = target.host;
    if (opts.ca) tls.ca = opts.ca;
    let res: Response;
    try {
      res = await fetch(pinned, {
        method: opts.method ?? 'GET',
        headers: { ...extra, host: target.url.host },
        ...(opts.body !== undefined ? { body: opts.body } : {}),
        redirect: 'manual',
        signal,
        proxy: false,
        ...(target.url.protocol === 'https:' ? { tls } : {}),
      } as BunFetchRequestInit);
    } catch (e) {
      if (signal.aborted) throw new SafeFetchError('timeout', 'the fetch took too long');
      // The error's code, not its message: a message may carry the URL, its path and query included.
      const code = (e as { code?: unknown })?.code;
      throw new SafeFetchError('network', `the connection to ${target.host} failed${typeof code === 'string' ? ` (${code})` : ''}`);
    }
    if (REDIRECT_STATUSES.has(res.status) && res.headers.has('location')) {
      await res.body?.cancel().catch(() => {});
      if (maxRedirects === 0) throw new SafeFetchError('redirects', `the server answered ${res.status}; redirects are not followed`);
      if (hop >= maxRedirects) throw new SafeFetchError('redirects', `more than ${maxRedirects} redirects`);
      try {
        next = new URL(res.headers.get('location') as string, target.url);
      } catch {
        throw new SafeFetchError('scheme', 'a redirect named an invalid URL');
      }
      continue;
    }
    if (opts.discardBody) await res.body?.cancel().catch(() => {});
    const body = opts.discardBody ? new Uint8Array(0) : await readCapped(res, maxBytes, signal);
    return {
      url: target.url.toString(),
      status: res.status,
      headers: res.headers,
      body,
      text: () => new TextDecoder('utf-8').decode(body),
    };
  }
}
