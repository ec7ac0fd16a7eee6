// The error envelope: routes throw `fail(CODE, details)`, src/http/plugin.ts answers it. Each code
// lives with the module that raises it (src/<domain>/codes.ts, src/http/codes.ts for the shared
// conventions, src/content/codes.ts for the content rules) and declares itself into `ErrorCodes`
// below, so `fail` accepts exactly the codes some module declared. The composition root
// (src/compose.ts) assembles the one table, checked for duplicates, that the envelope, /docs/errors
// and the description read; createContext installs it here.

export interface CodeInfo {
  status: number;
  message: string;
  fix: string;
}

/**
 * Every code the service answers, merged from each module's declaration:
 * `declare module '../http/errors.ts' { interface ErrorCodes extends CodesOf<typeof X_CODES> {} }`.
 * Two modules declaring one code differently fail to compile.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by declaration merging from each module's codes
export interface ErrorCodes {}

export type ErrorCode = keyof ErrorCodes & string;

/** What a module's codes table contributes to `ErrorCodes`. */
export type CodesOf<T> = { readonly [K in keyof T]: CodeInfo };

export type CodeTable = Readonly<Record<ErrorCode, CodeInfo>>;

/** One table from the modules' tables, in order; a code declared twice stops the start. */
export function assembleCodes(tables: readonly Readonly<Record<string, CodeInfo>>[]): CodeTable {
  const all: Record<string, CodeInfo> = {};
  for (const table of tables) {
    for (const [code, info] of Object.entries(table)) {
      if (code in all) throw new Error(`error code ${code} is declared twice`);
      all[code] = info;
    }
  }
  return Object.freeze(all) as CodeTable;
}

let installed: Partial<Record<string, CodeInfo>> = {};

/** Makes `table` the one the envelope reads (createContext calls it with the root's table). */
export function installCodes(table: CodeTable): void {
  installed = table;
}

/** A code's status, message and fix from the installed table. */
export function codeInfo(code: ErrorCode): CodeInfo {
  const info = installed[code];
  if (!info) throw new Error(`error code ${code} is not in the service's table (src/compose.ts assembles it)`);
  return info;
}

export type Details = Record<string, unknown>;

export class ApiError extends Error {
  /** Extra response headers (Retry-After, Allow). */
  headers: Record<string, string> = {};
  constructor(
    readonly code: ErrorCode,
    readonly details?: Details,
    message?: string,
  ) {
    super(message ?? installed[code]?.message ?? code);
  }
  /** The code's status in the service's table. */
  get status(): number {
    return codeInfo(this.code).status;
  }
}

/** Throws the envelope for `code`. `message` overrides the table's default wording. */
export function fail(code: ErrorCode, details?: Details, message?: string): never {
  throw new ApiError(code, details, message);
}

/** A 429 always carries Retry-After and details.retry_at. */
export function retryError(code: ErrorCode, retryAtMs: number, nowMs: number, details: Details = {}): ApiError {
  const err = new ApiError(code, { ...details, retry_at: new Date(retryAtMs).toISOString() });
  err.headers['retry-after'] = String(Math.max(1, Math.ceil((retryAtMs - nowMs) / 1000)));
  return err;
}

/** Throws retryError's 429. */
export function failRetry(code: ErrorCode, retryAtMs: number, nowMs: number, details: Details = {}): never {
  throw retryError(code, retryAtMs, nowMs, details);
}

export const docsUrl = (baseUrl: string, code: string): string => `${baseUrl}/docs/errors#${code}`;

export function envelope(baseUrl: string, code: ErrorCode, message: string, details?: Details) {
  return {
    error: details === undefined ? { code, message } : { code, message, details },
    docs: docsUrl(baseUrl, code),
  };
}
