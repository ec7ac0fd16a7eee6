// Public reads are meant to be embedded by any page: CORS `*`, no credentials. Agent routes
// send no CORS headers at all, so a page can never read an agent's answers.
export const CORS_HEADERS = { 'access-control-allow-origin': '*' } as const;

export function preflight(request: Request, methods = 'GET, HEAD, OPTIONS'): Response {
  const asked = request.headers.get('access-control-request-headers');
  return new Response(null, {
    status: 204,
    headers: {
      ...CORS_HEADERS,
      'access-control-allow-methods': methods,
      'access-control-allow-headers': asked && /^[A-Za-z0-9\-_, ]{1,512}$/.test(asked) ? asked : 'Content-Type',
      'access-control-max-age': '86400',
      vary: 'Access-Control-Request-Headers',
    },
  });
}
