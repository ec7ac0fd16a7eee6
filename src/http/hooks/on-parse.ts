// The body hook: the JSON body reader of the agent and guest families (body.ts), within the
// route's body budget (its `bodyBudget` option, route-needs.ts, else the service-wide one), refused
// by media type and charset before a byte is read.
import { foreignCharset, readJsonObject } from '../body.ts';
import { fail } from '../errors.ts';
import { familyOf } from '../families.ts';
import type { Shared } from './shared.ts';

/** The Content-Type's media type, lower-cased, without parameters ('' when absent). */
const mediaTypeOf = (request: Request): string => (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();

/** A JSON body declared in a charset other than UTF-8 is 415, never read as UTF-8 (body.ts). */
function refuseForeignCharset(request: Request): void {
  const charset = foreignCharset(request.headers.get('content-type'));
  if (charset !== null) {
    fail('UNSUPPORTED_MEDIA_TYPE', {
      expected: 'application/json; charset=utf-8',
      got: request.headers.get('content-type'),
      reason: `the body is declared as ${charset}: svc reads JSON in UTF-8 only (RFC 8259)`,
    });
  }
}

/** Whether the request carries a body (a declared zero length is none). */
const carriesBody = (request: Request): boolean => request.body !== null && request.headers.get('content-length') !== '0';

export function onParse(shared: Shared) {
  const { config } = shared.ctx;
  return ({ request, route }: { request: Request; route: string }) => {
    const family = familyOf(request);
    if (family !== 'agent' && family !== 'guest') return;
    const type = mediaTypeOf(request);
    if (family === 'guest') {
      // A guest write is JSON only: a form post (x-www-form-urlencoded, multipart, text/plain),
      // the kind a foreign page can send without CORS, is refused before anything is read.
      if (type !== 'application/json') fail('UNSUPPORTED_MEDIA_TYPE', { expected: 'application/json', got: type || null });
      refuseForeignCharset(request);
    } else if (request.method !== 'DELETE' && carriesBody(request)) {
      // A write's body is JSON only (01: Content-Type: application/json on calls with a body): a
      // text/plain or form body is refused unread, even when it looks like JSON. DELETE routes
      // take no body and are left as they were.
      if (type !== 'application/json') fail('UNSUPPORTED_MEDIA_TYPE', { expected: 'application/json', got: type || null });
      refuseForeignCharset(request);
    }
    // A route that carries more than a post (a lab site, an article with its figures, an upload
    // part, a page of the outside network) declares its own budget; it then enforces its decoded
    // limits itself. The text budget a 413 reports is the route's own too.
    const budget = shared.budgets.of(request.method, route);
    const maxRequestBytes = budget?.bytes ?? config.maxRequestBytes;
    const maxTextChars = budget?.chars ?? config.maxPostChars;
    return readJsonObject(request, { maxRequestBytes, maxTextChars }, config.bodyReadMs);
  };
}
