// How the MCP and OAuth routes read their bodies: themselves, within their own size budgets and the
// body-read time budget every route has (SVC_BODY_READ_SECONDS, src/http/body.ts), each answering
// a problem in its own format.
import type { AppContext } from '../context.ts';
import { ClientClosed, readBodyBytes } from '../http/body.ts';
import { ApiError } from '../http/errors.ts';
import { OAuthFailure } from './oauth.ts';

export const FORM_BYTES = 16 * 1024;

// The parse hook answers a placeholder so that Elysia leaves the body unread.
const UNREAD = Object.freeze({});
export const unread = () => UNREAD;

/** Why a body could not be read: larger than its budget, slower than SVC_BODY_READ_SECONDS, or the client hung up. */
export type BodyProblem = { problem: 'too_large' | 'timeout' | 'closed' };

const decoder = new TextDecoder();

/**
 * A body whose Content-Length is within `max`: the connection frames it by that length, so it
 * cannot grow past it, and Bun reads it natively in one piece (no stream driven from JavaScript,
 * the larger part of a small tool call's read). The time budget still holds.
 */
async function readDeclared(ctx: AppContext, request: Request): Promise<string | BodyProblem> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), ctx.config.bodyReadMs);
  });
  try {
    const got = await Promise.race([request.arrayBuffer(), late]);
    if (got === 'late') return { problem: 'timeout' };
    return decoder.decode(got);
  } catch (e) {
    // A read that fails because the request was aborted is the client hanging up, not a fault.
    if (request.signal.aborted) return { problem: 'closed' };
    throw e;
  } finally {
    clearTimeout(timer);
  }
}

/** A request body read within `max` bytes and the body-read time budget. */
export async function readBody(ctx: AppContext, request: Request, max: number): Promise<string | BodyProblem> {
  const declared = request.headers.get('content-length');
  if (declared !== null && /^\d{1,15}$/.test(declared) && Number(declared) <= max && !request.headers.has('transfer-encoding'))
    return readDeclared(ctx, request);
  try {
    // maxTextChars only fills the envelope's 413 details, which these routes do not answer.
    const bytes = await readBodyBytes(request, { maxRequestBytes: max, maxTextChars: max }, ctx.config.bodyReadMs);
    return decoder.decode(bytes);
  } catch (e) {
    if (e instanceof ClientClosed) return { problem: 'closed' };
    if (e instanceof ApiError && e.code === 'REQUEST_TIMEOUT') return { problem: 'timeout' };
    if (e instanceof ApiError && e.code === 'PAYLOAD_TOO_LARGE') return { problem: 'too_large' };
    throw e;
  }
}

/** An OAuth endpoint's answer to a body it could not read (RFC 6749 JSON; `error` names what to fix). */
export function bodyFailure(ctx: AppContext, p: BodyProblem, tooLarge: OAuthFailure): OAuthFailure {
  if (p.problem === 'too_large') return tooLarge;
  if (p.problem === 'timeout')
    return new OAuthFailure(
      408,
      'invalid_request',
      `The request body did not arrive within ${ctx.config.bodyReadMs / 1000} seconds: send it whole, then resend.`,
    );
  // Nobody reads this answer (the client hung up); the request log records 499.
  return new OAuthFailure(400, 'invalid_request', 'The connection closed before the whole body arrived.');
}

/** The parameters of a form post (each at most once: RFC 6749 §3.1). */
export async function readForm(ctx: AppContext, request: Request): Promise<Record<string, string>> {
  const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') throw new OAuthFailure(400, 'invalid_request', 'Send the parameters as application/x-www-form-urlencoded.');
  const text = await readBody(ctx, request, FORM_BYTES);
  if (typeof text !== 'string') throw bodyFailure(ctx, text, new OAuthFailure(400, 'invalid_request', `The request body is larger than ${FORM_BYTES} bytes.`));
  const out: Record<string, string> = Object.create(null);
  for (const [k, val] of new URLSearchParams(text)) {
    if (k in out) throw new OAuthFailure(400, 'invalid_request', `${k} is sent more than once.`);
    out[k] = val;
  }
  return out;
}
