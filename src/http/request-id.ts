// Every answer names its request: a caller quotes X-Request-Id, and the server's log lines carry it.
const requestIds = new WeakMap<Request, string>();
const CLIENT_ID = /^[A-Za-z0-9._:-]{8,64}$/;

/** The request's id: the caller's own X-Request-Id when it is a sane token, else a fresh uuid. */
export function requestIdOf(request: Request): string {
  let id = requestIds.get(request);
  if (!id) {
    id = newRequestId(request);
    requestIds.set(request, id);
  }
  return id;
}

/** requestIdOf without remembering it: for an answer made at once, where nothing asks again. */
export function newRequestId(request: Request, headers: Headers = request.headers): string {
  const sent = headers.get('x-request-id');
  return sent && CLIENT_ID.test(sent) ? sent : crypto.randomUUID();
}
