// The MCP tool connection and its OAuth 2.1 authorization server (docs/decisions.md#mcp-connection).
// Settings read from the environment once at start (config.mcp); each is a default a self-hoster may change.
import { int, type Source } from '../config.ts';

export function loadMcpSettings(src: Source) {
  return Object.freeze({
    /** Access tokens live this long (the decision: 1 h). */
    accessTokenSeconds: int(src, 'SVC_MCP_ACCESS_TOKEN_SECONDS', 3600, 60, 86_400),
    /** A refresh token not used within this many days expires (each use rotates it). */
    refreshTokenDays: int(src, 'SVC_MCP_REFRESH_TOKEN_DAYS', 30, 1, 365),
    /** An authorization code must be exchanged within this many seconds. */
    codeSeconds: int(src, 'SVC_MCP_CODE_SECONDS', 120, 10, 600),
    /** The consent page's form stays valid this many minutes. */
    consentMinutes: int(src, 'SVC_MCP_CONSENT_MINUTES', 10, 1, 120),
    /** Dynamic client registrations per client address per hour (0 refuses every registration). */
    registrationsPerHour: int(src, 'SVC_MCP_REGISTRATIONS_PER_HOUR', 10, 0, 100_000),
    /** GET /authorize requests (authorization pages opened) per client address per hour (0: no limit). */
    authorizePerHour: int(src, 'SVC_MCP_AUTHORIZE_PER_HOUR', 60, 0, 1_000_000),
    /** A fetched Client ID Metadata Document is reused this long before it is fetched again. */
    clientDocumentCacheSeconds: int(src, 'SVC_MCP_CLIENT_DOC_CACHE_SECONDS', 3600, 0, 7 * 86_400),
    /** Largest Client ID Metadata Document read, in bytes. */
    clientDocumentMaxBytes: int(src, 'SVC_MCP_CLIENT_DOC_MAX_BYTES', 5120, 512, 1_000_000),
    /** Time budget for fetching one Client ID Metadata Document, in milliseconds. */
    clientDocumentTimeoutMs: int(src, 'SVC_MCP_CLIENT_DOC_TIMEOUT_MS', 5000, 100, 60_000),
  });
}

export type McpSettings = ReturnType<typeof loadMcpSettings>;

declare module '../config.ts' {
  interface DomainSettings {
    mcp: McpSettings;
  }
}
