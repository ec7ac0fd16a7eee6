// The one shape of a refusal: the spec's envelope, with the headers every error answer carries.
import type { AppContext } from '../context.ts';
import { CORS_HEADERS } from './cors.ts';
import { ApiError, envelope } from './errors.ts';
import { requestIdOf } from './request-id.ts';
import { issuesToError } from './schema.ts';

// RFC 6750: a 401 names the scheme; with a key that was sent and refused, also invalid_token.
function wwwAuthenticate(err: ApiError): string {
  return err.details?.reason === 'missing_key' ? 'Bearer realm="svc"' : 'Bearer realm="svc", error="invalid_token"';
}

/**
 * INVALID_REQUEST always carries details.fields[] (docs/conventions.md), whichever check raised
 * it: a refusal that names one field and a reason gets that field as the list's one entry.
 */
function detailsOf(err: ApiError): Record<string, unknown> | undefined {
  const d = err.details;
  if (err.code !== 'INVALID_REQUEST' || Array.isArray(d?.fields)) return d;
  const field = typeof d?.field === 'string' ? d.field : 'request';
  const message = typeof d?.reason === 'string' ? d.reason : err.message;
  return { ...d, fields: [{ field, in: typeof d?.in === 'string' ? d.in : 'request', problem: 'invalid', message }] };
}

export function errorResponse(ctx: AppContext, err: ApiError, family: string, request: Request): Response {
  const headers: Record<string, string> = {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'x-request-id': requestIdOf(request),
    ...err.headers,
  };
  if (err.code === 'UNAUTHORIZED') headers['www-authenticate'] = wwwAuthenticate(err);
  if (family === 'public' || family === 'guest' || family === 'oauth') Object.assign(headers, CORS_HEADERS);
  return new Response(JSON.stringify(envelope(ctx.config.baseUrl, err.code, err.message, detailsOf(err))), { status: err.status, headers });
}

/** Re-runs a failed standard schema to read its issues with their real paths. */
export function validationError(error: unknown): ApiError {
  const e = error as { type?: string; value?: unknown; validator?: { schema?: { '~standard'?: { validate(v: unknown): unknown } } } };
  const where = e.type ?? 'request';
  const std = e.validator?.schema?.['~standard'];
  const result = std?.validate(e.value) as { issues?: { message: string }[] } | undefined;
  if (result && !(result instanceof Promise) && result.issues?.length) return issuesToError(where, result.issues, e.validator?.schema);
  return new ApiError('INVALID_REQUEST', { in: where });
}
