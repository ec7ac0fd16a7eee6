// Raw HTTP/1.1 over a socket, for what fetch cannot send: a body that stops half-way and never
// finishes, and a client that hangs up in the middle of its body.
import { connect, type Socket } from 'node:net';
import { until } from '../until.ts';

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

function open(base: string, method: string, path: string, headers: Record<string, string>, declared: number, first: string): Socket {
  const url = new URL(base);
  const socket = connect(Number(url.port), url.hostname, () => {
    const head = Object.entries({ host: url.host, ...headers, 'content-length': String(declared) })
      .map(([k, v]) => `${k}: ${v}`)
      .join('\r\n');
    socket.write(`${method} ${path} HTTP/1.1\r\n${head}\r\n\r\n${first}`);
  });
  return socket;
}

/** The answer in `raw` once it is whole (by Content-Length or the last chunk), else null. */
function parse(raw: string): RawAnswer | null {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) return null;
  const [statusLine, ...lines] = raw.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const at = line.indexOf(':');
    headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
  }
  const rest = raw.slice(end + 4);
  let body: string;
  if (headers['transfer-encoding'] === 'chunked') {
    if (!rest.includes('0\r\n\r\n')) return null;
    body = '';
    for (let at = 0; ; ) {
      const eol = rest.indexOf('\r\n', at);
      const size = Number.parseInt(rest.slice(at, eol), 16);
      if (!size) break;
      body += rest.slice(eol + 2, eol + 2 + size);
      at = eol + 2 + size + 2;
    }
  } else {
    const length = Number(headers['content-length'] ?? '0');
    if (Buffer.byteLength(rest) < length) return null;
    body = rest;
  }
  return { status: Number(statusLine!.split(' ')[1]), headers, body };
}

/**
 * Sends the head of a request declaring a `declared`-byte body, then only `first` of it, and waits
 * for the server's answer (with `declared` equal to the length of `first`, the body is whole).
 */
export function stalledRequest(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  first: string,
  declared = 1000,
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    let raw = '';
    const socket = open(base, method, path, headers, declared, first);
    socket.on('data', (d) => {
      raw += d.toString();
      const answer = parse(raw);
      if (answer) {
        socket.destroy();
        resolve(answer);
      }
    });
    socket.on('error', reject);
    socket.on('close', () => reject(new Error(`the server closed the connection without a whole answer: ${JSON.stringify(raw.slice(0, 200))}`)));
  });
}

/** Sends the head and the first bytes of a body, waits until the server has taken the request (`taken`), then hangs up. */
export async function hangUp(base: string, method: string, path: string, headers: Record<string, string>, first: string, taken: () => boolean): Promise<void> {
  const socket = open(base, method, path, headers, 1000, first);
  socket.on('error', () => {});
  await until(`the server to take ${method} ${path}`, taken);
  socket.destroy();
}
