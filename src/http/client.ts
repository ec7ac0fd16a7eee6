// The client address used by per-address limits: the socket's, or behind a trusted reverse
// proxy the last X-Forwarded-For hop (the one the proxy itself appended; earlier hops are
// whatever the client claimed and cannot be trusted).
// The socket's address may be given as a function: asking Bun for it (server.requestIP) costs more
// than the rest of a cached read, and behind the proxy it is not needed.
export function clientAddress(request: Request, socketAddress: string | null | undefined | (() => string | null | undefined), trustProxy: boolean): string {
  if (trustProxy) {
    const xff = request.headers.get('x-forwarded-for');
    if (xff) {
      const last = xff
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
        .at(-1);
      if (last) return last;
    }
  }
  return (typeof socketAddress === 'function' ? socketAddress() : socketAddress) ?? 'local';
}
