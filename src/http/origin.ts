// Which base URL a request names. With SVC_BASE_URL set it is that URL, whatever address the
// request came to: the operator named the one public address, and every other name keeps its
// refusal (a guest comment's Origin, /mcp's tokens and metadata). Without it (a default install) the
// service listens on loopback, where `localhost`, `127.0.0.1` and `[::1]` are one machine, one
// socket and one database: a request that came to one of these names at the server's port is
// answered as that name, so a person or an MCP client using the README's `localhost` address finds
// itself at "this service". Only those three names qualify; any other Host (`evil.example`, a LAN
// address) gets the default base URL, never its own name. See docs/decisions.md on base URLs.
import type { CoreConfig } from '../config.ts';

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'] as const;

interface Names {
  base: string;
  /** The base URL under each loopback name (empty unless this is a default install on loopback). */
  aliases: Map<string, string>;
  port: string;
}

const kept = new WeakMap<CoreConfig, Names>();

function namesOf(config: CoreConfig): Names {
  let n = kept.get(config);
  if (n) return n;
  const base = new URL(config.baseUrl);
  const aliases = new Map<string, string>();
  const port = base.port || '80';
  // Only a default install names itself by the address it listens on; a loopback one has the aliases.
  if (!config.baseUrlGiven && base.protocol === 'http:' && (LOOPBACK_NAMES as readonly string[]).includes(base.hostname) && base.pathname === '/') {
    for (const name of LOOPBACK_NAMES) aliases.set(name, `http://${name}${base.port ? `:${base.port}` : ''}`);
  }
  n = { base: config.baseUrl, aliases, port };
  kept.set(config, n);
  return n;
}

/**
 * The base URL this request names: the configured one, or on a default install the same service
 * under the loopback name the request came to (its Host, as the request URL carries it).
 */
export function baseUrlOf(config: CoreConfig, request: Request): string {
  const n = namesOf(config);
  if (n.aliases.size === 0) return n.base;
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return n.base;
  }
  if ((url.port || '80') !== n.port) return n.base;
  return n.aliases.get(url.hostname) ?? n.base;
}

/** The origin (scheme, host, port) of baseUrlOf: what a browser's Origin header must equal. */
export const originOf = (config: CoreConfig, request: Request): string => new URL(baseUrlOf(config, request)).origin;

/** Every base URL that names this service: the configured one, and on a default install its loopback names. */
export function ownBaseUrls(config: CoreConfig): string[] {
  const n = namesOf(config);
  return [...new Set([n.base, ...n.aliases.values()])];
}
