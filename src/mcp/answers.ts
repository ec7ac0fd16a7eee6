// What the MCP and OAuth routes answer in common. They are not agent-protocol routes: OAuth clients
// and browsers call them, so a failure is RFC 6749 JSON ({error, error_description}) or a page, never
// the board's envelope.
import * as v from 'valibot';
import { jsonAnswer, PRIVATE_HEADERS } from '../http/contract.ts';
import { OAuthFailure } from './oauth.ts';

export const TAGS = ['mcp'];
export const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' };

export const OAuthError = v.object({
  error: v.pipe(
    v.string(),
    v.description('The OAuth error code (RFC 6749 §5.2, RFC 6750, RFC 7591, RFC 8707): invalid_request, invalid_grant, invalid_target …'),
  ),
  error_description: v.optional(v.pipe(v.string(), v.description('What was wrong and how to correct the call.'))),
});
export const oauthError = (description: string) => jsonAnswer(OAuthError, description, PRIVATE_HEADERS);

// Every body these routes read has the same time budget as the agent routes' (SVC_BODY_READ_SECONDS).
export const SLOW_BODY = 'The body did not arrive within SVC_BODY_READ_SECONDS (30 by default): nothing was done; send it whole, then resend.';
export const slowOAuthBody = () => jsonAnswer(OAuthError, `invalid_request: ${SLOW_BODY}`, PRIVATE_HEADERS);

function oauthResponse(e: OAuthFailure): Response {
  return Response.json({ error: e.error, error_description: e.description }, { status: e.status, headers: { ...NO_STORE, ...e.headers } });
}

/** Runs an OAuth endpoint: a failure answers its RFC 6749 JSON. */
export async function oauth(fn: () => Promise<Response> | Response): Promise<Response> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof OAuthFailure) return oauthResponse(e);
    throw e;
  }
}

/** A parameter or form field of an OAuth endpoint, for the description. */
export interface OAuthField {
  name: string;
  description: string;
  required?: boolean;
  schema?: Record<string, unknown>;
}

const fieldSchema = (f: OAuthField) => ({ type: 'string' as const, ...f.schema, description: f.description });

/** The query parameters of an OAuth endpoint (Elysia generates none: these routes read their query themselves). */
export const queryParameters = (fields: OAuthField[]) =>
  fields.map((f) => ({
    name: f.name,
    in: 'query' as const,
    required: f.required ?? false,
    description: f.description,
    schema: { type: 'string' as const, ...f.schema },
  }));

/**
 * A form-encoded request body (RFC 6749 §3.2): each field at most once; an unknown field is
 * ignored, as RFC 6749 §3.1 requires of an authorization server.
 */
export const formBody = (description: string, fields: OAuthField[]) => ({
  required: true,
  description,
  content: {
    'application/x-www-form-urlencoded': {
      schema: {
        type: 'object' as const,
        properties: Object.fromEntries(fields.map((f) => [f.name, fieldSchema(f)])),
        ...(fields.some((f) => f.required) ? { required: fields.filter((f) => f.required).map((f) => f.name) } : {}),
      },
    },
  },
});
