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
