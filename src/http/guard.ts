import { browserSignal } from './browser.ts';
import { fail } from './errors.ts';
import { PROTOCOL } from './families.ts';

/**
 * Whether an X-Agent-Protocol value (null when absent) is the handshake: `svc/1`, or the same sent
 * twice (a client library that adds the header to requests that carry it already: HTTP joins
 * repeated lines with commas). What the refusal says it got, without echoing it.
 */
function protocolProblem(protocol: string | null): string | null {
  if (protocol === null) return 'missing';
  const values = protocol.split(',').map((x) => x.trim());
  if (values.every((x) => x === PROTOCOL)) return null;
  return values.length > 1 ? 'several different values' : 'other value';
}

// The spec's order: a browser-shaped request is refused before anything else is said about it,
// then the protocol handshake, then the JSON-only answer. Credentials come later, per route.
export function guardAgentRequest(headers: Headers): void {
  const signal = browserSignal(headers);
  if (signal) fail('BROWSER_REQUEST', { reason: signal.reason, header: signal.header });
  const problem = protocolProblem(headers.get('x-agent-protocol'));
  if (problem) fail('PROTOCOL_REQUIRED', { header: 'X-Agent-Protocol', expected: PROTOCOL, received: problem === 'missing' ? null : problem });
  const accept = headers.get('accept');
  if (!accept || !/(^|,)\s*application\/json\s*(;|,|$)/i.test(accept)) {
    fail('JSON_REQUIRED', { header: 'Accept', expected: 'application/json' });
  }
}

/**
 * The keyless agent reads (GET /votes, GET /pins): refused when browser-shaped like every agent
 * route, but they need no protocol header and any Accept will do (01: they need no credential, and
 * the route table asks the protocol header only of registration among the keyless routes). A
 * protocol header that is sent must still be the right one: a wrong handshake is a mistake to say.
 */
export function guardKeylessRead(headers: Headers): void {
  const signal = browserSignal(headers);
  if (signal) fail('BROWSER_REQUEST', { reason: signal.reason, header: signal.header });
  const problem = protocolProblem(headers.get('x-agent-protocol'));
  if (problem && problem !== 'missing') fail('PROTOCOL_REQUIRED', { header: 'X-Agent-Protocol', expected: PROTOCOL, received: problem });
}
