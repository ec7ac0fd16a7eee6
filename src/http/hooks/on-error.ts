// The error hook: every failure answered with the spec's envelope (error-answer.ts): a refusal the
// code raised, validation, a body that is not JSON, an unknown route (405 with the methods the path
// takes, or a page for a person's browser) and an internal fault (logged, never shown).
import { errorResponse, validationError } from '../error-answer.ts';
import { ApiError } from '../errors.ts';
import { familyOf, pathOf } from '../families.ts';
import { requestAnswered } from '../metrics.ts';
import { requestIdOf } from '../request-id.ts';
import type { Shared } from './shared.ts';

/** A browser asking for a page (GET, HTML accepted) outside the JSON families. */
const wantsPage = (request: Request, family: string): boolean =>
  (family === 'page' || family === 'other') &&
  (request.method === 'GET' || request.method === 'HEAD') &&
  /\btext\/html\b/i.test(request.headers.get('accept') ?? '');

export function onError(shared: Shared) {
  const { ctx } = shared;
  return ({ code, error, request }: { code: unknown; error: unknown; request: Request }) => {
    shared.answeredByError.add(request);
    const path = pathOf(request.url);
    const family = familyOf(request);
    let err: ApiError;
    // Errors thrown by the body parser arrive wrapped in Elysia's ParseError.
    const cause = (error as { cause?: unknown })?.cause;
    if (error instanceof ApiError) err = error;
    else if (cause instanceof ApiError) err = cause;
    else if (code === 'VALIDATION') err = validationError(error);
    else if (code === 'PARSE') err = new ApiError('INVALID_JSON', { reason: 'body could not be parsed' });
    else if (code === 'NOT_FOUND') {
      const allowed = shared.methods.allowed(path);
      if (allowed.length && !allowed.includes(request.method)) {
        err = new ApiError('METHOD_NOT_ALLOWED', { method: request.method, allowed });
        err.headers.allow = allowed.join(', ');
      } else if (wantsPage(request, family)) {
        // A person's browser on an address with no page gets a page saying so, not JSON.
        if (ctx.config.logRequests !== 'off') shared.log(request, 404, 'NOT_FOUND');
        requestAnswered(request, 404);
        const page = ctx.parts.notFoundPage();
        page.headers.set('x-request-id', requestIdOf(request));
        return page;
      } else err = new ApiError('NOT_FOUND', { path });
    } else {
      // An internal fault: logged in full for the operator, never shown to the caller.
      console.error(
        JSON.stringify({
          event: 'internal_error',
          request_id: requestIdOf(request),
          method: request.method,
          path,
          code,
          error: String((error as Error)?.stack ?? error),
        }),
      );
      err = new ApiError('INTERNAL');
    }
    if (ctx.config.logRequests !== 'off') shared.log(request, err.status, err.code);
    requestAnswered(request, err.status);
    return errorResponse(ctx, err, family, request);
  };
}
