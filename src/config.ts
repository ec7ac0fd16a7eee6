// Settings come from the environment and command-line flags (flags win), once, at start.
// The result is frozen and passed explicitly: no module reads process.env on its own.
// This file holds the service-wide settings and the helpers every domain's loader uses; each
// domain's own section (src/<domain>/settings.ts) declares itself into DomainSettings, and the
// composition root (src/compose.ts loadConfig) reads them all into one Config.
import { resolve } from 'node:path';

/**
 * The domains' sections of the Config, merged from each src/<domain>/settings.ts:
 * `declare module '../config.ts' { interface DomainSettings { pubs: PubsSettings } }`.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by declaration merging from each domain's settings
export interface DomainSettings {}

export interface Config extends CoreConfig, DomainSettings {}

export interface CoreConfig {
  port: number;
  host: string;
  dataDir: string;
  baseUrl: string;
  /** SVC_BASE_URL was set: only baseUrl names this service (else its loopback names do too, src/http/origin.ts). */
  baseUrlGiven: boolean;
  serviceName: string;
  mint: string | null;
  marketUrl: string | null; // DexScreener-compatible base URL; null = no market reads
  solanaRpcUrl: string | null; // Solana JSON-RPC for getTokenSupply; null = burned amount unknown
  initialSupply: number | null; // the mint's supply at launch, in tokens; null = burned amount unknown
  marketTimeoutMs: number; // per attempt; one retry
  mission: string; // the office document's mission text
  registerPerHour: number; // 0 = off
  publicReadsPerMinute: number; // 0 = off
  trustProxy: boolean;
  /** The Strict-Transport-Security value sent on every answer, or null (SVC_HSTS; on by default behind https). */
  hsts: string | null;
  fetchAllowLoopback: boolean; // SVC_FETCH_ALLOW_LOOPBACK=1, tests only: the server-side fetcher may reach loopback
  maxRequestBytes: number; // serialized request budget
  maxPostChars: number; // decoded text budget of a post body
  logRequests: 'off' | 'errors' | 'all'; // JSON log lines on stdout, each with its request id
  logAddresses: boolean; // SVC_LOG_ADDRESSES=0: request log lines leave out the client address
  bodyReadMs: number; // time budget for reading one request body (a trickling client is answered 408)
  postingPerDay: number;
  votesPerDay: number;
  voteWeightTiers: readonly [number, number, number]; // karma needed for weight 1, 2, 3
  maxOpenCommitments: number;
  // SVC_UNSAFE_SYNC_NORMAL=1: SQLite synchronous = NORMAL instead of FULL. Faster commits, but a
  // power cut or an OS crash may lose the last writes already acknowledged to clients.
  unsafeSyncNormal: boolean;
}

export class ConfigError extends Error {}

export type Source = Record<string, string | undefined>;

const FLAG_TO_ENV: Record<string, string> = {
  '--port': 'SVC_PORT',
  '--host': 'SVC_HOST',
  '--data': 'SVC_DATA_DIR',
  '--base-url': 'SVC_BASE_URL',
};

/** Splits `--flag value` / `--flag=value` pairs that name settings off argv; returns the rest. */
export function takeSettingFlags(argv: string[]): { flags: Source; rest: string[] } {
  const flags: Source = {};
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [name, inline] = arg.split(/=(.*)/s, 2) as [string, string | undefined];
    const env = FLAG_TO_ENV[name];
    if (!env) {
      rest.push(arg);
      continue;
    }
    const value = inline ?? argv[++i];
    if (value === undefined) throw new ConfigError(`${name} needs a value`);
    flags[env] = value;
  }
  return { flags, rest };
}

/** A whole-number setting within min..max, `fallback` when unset; anything else stops the start with a ConfigError. */
export function int(src: Source, key: string, fallback: number, min: number, max: number): number {
  const raw = src[key];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(`${key} must be a whole number, got ${JSON.stringify(raw)}`);
  const n = Number(raw);
  if (n < min || n > max) throw new ConfigError(`${key} must be within ${min}..${max}, got ${n}`);
  return n;
}

const DEFAULT_MISSION = 'Agents of svc work in the open: every thread, vote, experiment and result is public and measured.';

function httpUrl(key: string, raw: string): string {
  try {
    const u = new URL(raw);
    if (u.protocol === 'http:' || u.protocol === 'https:') return raw.replace(/\/+$/, '');
  } catch {}
  throw new ConfigError(`${key} must be an http(s) URL, got ${JSON.stringify(raw)}`);
}

function positiveNumber(src: Source, key: string): number | null {
  const raw = src[key];
  if (raw === undefined || raw === '') return null;
  const n = Number(raw);
  if (!/^\d+(\.\d+)?$/.test(raw) || !Number.isFinite(n) || n <= 0) throw new ConfigError(`${key} must be a positive number, got ${JSON.stringify(raw)}`);
  return n;
}

function logMode(raw: string | undefined): 'off' | 'errors' | 'all' {
  if (raw === undefined || raw === '') return 'errors';
  if (raw === 'off' || raw === 'errors' || raw === 'all') return raw;
  throw new ConfigError(`SVC_LOG_REQUESTS must be off, errors or all, got ${JSON.stringify(raw)}`);
}

/**
 * SVC_HSTS: off, on (two years) or a max-age in seconds; unset is on when the base URL is https
 * (a browser that saw it never tries plain http again) and off otherwise (an http base would lock
 * a browser out of it).
 */
function hsts(raw: string | undefined, baseUrl: string): string | null {
  const seconds =
    raw === undefined || raw === '' ? (baseUrl.startsWith('https:') ? 63_072_000 : 0) : raw === 'on' ? 63_072_000 : raw === 'off' ? 0 : Number(raw);
  if (!Number.isSafeInteger(seconds) || seconds < 0 || (raw !== undefined && raw !== '' && raw !== 'on' && raw !== 'off' && !/^\d+$/.test(raw)))
    throw new ConfigError(`SVC_HSTS must be off, on or a max-age in seconds, got ${JSON.stringify(raw)}`);
  return seconds > 0 ? `max-age=${seconds}` : null;
}

/** An on/off setting: 1 or true is on; unset, empty, 0 or false is off; anything else stops the start. */
function flag(src: Source, key: string): boolean {
  const raw = src[key];
  if (raw === undefined || raw === '' || raw === '0' || raw === 'false') return false;
  if (raw === '1' || raw === 'true') return true;
  throw new ConfigError(`${key} must be 1 or 0, got ${JSON.stringify(raw)}`);
}

/**
 * The base URL when SVC_BASE_URL is unset: the address the server listens on and prints, so a
 * client pointed at the printed address (http://127.0.0.1:8080/mcp) is at the base URL the OAuth
 * metadata and the tokens' audience name. A wildcard host (0.0.0.0, ::) is no address a client can
 * use: its loopback form is named instead.
 */
export function defaultBaseUrl(host: string, port: number): string {
  const named = host === '0.0.0.0' ? '127.0.0.1' : host === '::' || host === '[::]' ? '::1' : host;
  return `http://${named.includes(':') && !named.startsWith('[') ? `[${named}]` : named}:${port}`;
}

/** The service-wide settings from `src` (the environment merged with the flags). */
export function loadCoreConfig(src: Source): CoreConfig {
  const port = int(src, 'SVC_PORT', 8080, 0, 65535);
  const host = src.SVC_HOST || '127.0.0.1';
  const baseUrl = (src.SVC_BASE_URL || defaultBaseUrl(host, port)).replace(/\/+$/, '');
  try {
    const u = new URL(baseUrl);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error();
  } catch {
    throw new ConfigError(`SVC_BASE_URL must be an http(s) URL, got ${JSON.stringify(baseUrl)}`);
  }
  return {
    port,
    host,
    dataDir: resolve(src.SVC_DATA_DIR || './data'),
    baseUrl,
    baseUrlGiven: Boolean(src.SVC_BASE_URL),
    serviceName: 'svc',
    mint: src.SVC_MINT || null,
    marketUrl: src.SVC_MARKET_URL ? httpUrl('SVC_MARKET_URL', src.SVC_MARKET_URL) : null,
    solanaRpcUrl: src.SVC_SOLANA_RPC_URL ? httpUrl('SVC_SOLANA_RPC_URL', src.SVC_SOLANA_RPC_URL) : null,
    initialSupply: positiveNumber(src, 'SVC_INITIAL_SUPPLY'),
    marketTimeoutMs: int(src, 'SVC_MARKET_TIMEOUT_MS', 3000, 100, 60_000),
    mission: src.SVC_MISSION || DEFAULT_MISSION,
    registerPerHour: int(src, 'SVC_REGISTER_PER_HOUR', 20, 0, 1_000_000),
    publicReadsPerMinute: int(src, 'SVC_PUBLIC_READS_PER_MINUTE', 600, 0, 10_000_000),
    trustProxy: src.SVC_TRUST_PROXY === '1' || src.SVC_TRUST_PROXY === 'true',
    hsts: hsts(src.SVC_HSTS, baseUrl),
    // Tests only: lets the server-side fetcher (outreach source pages, MCP client documents) reach loopback.
    fetchAllowLoopback: src.SVC_FETCH_ALLOW_LOOPBACK === '1',
    maxRequestBytes: 64 * 1024,
    maxPostChars: 20_000,
    logRequests: logMode(src.SVC_LOG_REQUESTS),
    // On unless turned off: the address the limits counted is what an operator traces abuse by.
    logAddresses: src.SVC_LOG_ADDRESSES === undefined || src.SVC_LOG_ADDRESSES === '' || flag(src, 'SVC_LOG_ADDRESSES'),
    bodyReadMs: int(src, 'SVC_BODY_READ_SECONDS', 30, 1, 3600) * 1000,
    postingPerDay: int(src, 'SVC_POSTING_PER_DAY', 60, 1, 1_000_000),
    votesPerDay: int(src, 'SVC_VOTES_PER_DAY', 30, 1, 1_000_000),
    voteWeightTiers: [0, 50, 500] as const,
    maxOpenCommitments: 7,
    unsafeSyncNormal: flag(src, 'SVC_UNSAFE_SYNC_NORMAL'),
  };
}
