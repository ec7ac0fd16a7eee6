// The probers' HTTP client: one kept-alive HTTP/1.1 connection, one GET in flight, the answer's
// bytes counted and dropped. The probers share two cores with the server they measure, so what a
// probe costs them is taken from svc: Bun's fetch spent ~300 µs of CPU a probe of the 60 KB
// /api/activity (its HTTP client thread and the main thread's body buffers; a prober of it used
// half a core at 1,100 probes a second) and, once in a while, both cores for 35-45 ms while svc's
// request thread waited for one (docs/performance.md, "The probers' own cost"). This client reads
// the status line and the framing (Content-Length, chunked, or until close) and keeps nothing of
// the body. It asks for the same encodings fetch asks for, so svc does the same work per probe.
import type { Socket } from 'bun';

/** What one GET came back with: its status (0 when the connection failed before a whole answer). */
export interface ProbeAnswer {
  status: number;
}

const HEAD_END = Buffer.from('\r\n\r\n');
const CRLF = Buffer.from('\r\n');

/**
 * Framing of one HTTP/1.1 answer fed in chunks: `feed` answers the status once the whole answer
 * has arrived (null before), and the bytes past it (none from a server answering one request).
 */
export class AnswerReader {
  private head: Buffer | null = Buffer.alloc(0);
  status = 0;
  private closeDelimited = false;
  /** Body bytes still to skip (Content-Length or the current chunk with its CRLF), or -1 when a chunk size line is next. */
  private remaining = 0;
  private chunked = false;
  /** The pending part of a chunk size line or the trailer. */
  private line: Buffer = Buffer.alloc(0);
  private inTrailer = false;
  /** The server closes the connection after this answer (Connection: close, or a close-delimited body). */
  closes = false;

  feed(data: Uint8Array): number | null {
    let buf = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    if (this.head !== null) {
      const all = this.head.length ? Buffer.concat([this.head, buf]) : buf;
      const end = all.indexOf(HEAD_END);
      if (end < 0) {
        this.head = Buffer.from(all); // a copy: `data` is the socket's, reused after this call
        return null;
      }
      this.parseHead(all.subarray(0, end).toString('latin1'));
      this.head = null;
      buf = all.subarray(end + 4);
      if (!this.chunked && !this.closeDelimited && this.remaining === 0) return this.status;
    }
    return this.body(buf);
  }

  /** The connection closed: the status when the answer was delimited by the close, else null (cut short). */
  ended(): number | null {
    return this.head === null && this.closeDelimited ? this.status : null;
  }

  private parseHead(text: string): void {
    const [statusLine = '', ...lines] = text.split('\r\n');
    const m = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine);
    if (!m) throw new Error(`not an HTTP/1.1 answer: ${JSON.stringify(statusLine.slice(0, 60))}`);
    this.status = Number(m[1]);
    let length: number | null = null;
    for (const l of lines) {
      const i = l.indexOf(':');
      if (i < 0) continue;
      const name = l.slice(0, i).trim().toLowerCase();
      const value = l
        .slice(i + 1)
        .trim()
        .toLowerCase();
      if (name === 'content-length') length = Number(value);
      else if (name === 'transfer-encoding' && value.split(',').at(-1)!.trim() === 'chunked') this.chunked = true;
      else if (name === 'connection' && value.split(',').some((v) => v.trim() === 'close')) this.closes = true;
    }
    const bodiless = this.status === 204 || this.status === 304 || (this.status >= 100 && this.status < 200);
    if (bodiless) return;
    if (this.chunked) this.remaining = -1;
    else if (length !== null && Number.isSafeInteger(length) && length >= 0) this.remaining = length;
    else {
      this.closeDelimited = true;
      this.closes = true;
    }
  }

  private body(buf: Buffer): number | null {
    if (this.closeDelimited) return null;
    if (!this.chunked) {
      this.remaining -= buf.length;
      if (this.remaining > 0) return null;
      if (this.remaining < 0) throw new Error(`${-this.remaining} bytes past the answer's Content-Length`);
      return this.status;
    }
    let at = 0;
    while (at < buf.length) {
      if (this.remaining > 0) {
        const take = Math.min(this.remaining, buf.length - at);
        this.remaining -= take;
        at += take;
        continue;
      }
      // A size line (or, after the last chunk, a trailer line): up to its CRLF.
      const rest = buf.subarray(at);
      const joined = this.line.length ? Buffer.concat([this.line, rest]) : rest;
      const eol = joined.indexOf(CRLF);
      if (eol < 0) {
        this.line = Buffer.from(joined);
        return null;
      }
      const consumed = eol + 2 - this.line.length;
      const lineText = joined.subarray(0, eol).toString('latin1');
      this.line = Buffer.alloc(0);
      at += consumed;
      if (this.inTrailer) {
        if (lineText === '') {
          if (at !== buf.length) throw new Error('bytes past the chunked answer');
          return this.status;
        }
        continue;
      }
      const size = Number.parseInt(lineText.split(';')[0]!.trim(), 16);
      if (!Number.isFinite(size) || size < 0) throw new Error(`bad chunk size line ${JSON.stringify(lineText.slice(0, 40))}`);
      if (size === 0) this.inTrailer = true;
      else this.remaining = size + 2; // the chunk and its CRLF
    }
    return null;
  }
}

/**
 * GETs of one URL over one kept-alive connection (made again when the server closes it or it
 * fails), one at a time: `get()` answers the status, 0 when the connection failed or closed
 * before the whole answer came.
 */
export function probeClient(url: string): { get(): Promise<ProbeAnswer>; close(): void } {
  const u = new URL(url);
  if (u.protocol !== 'http:') throw new Error(`the prober speaks plain HTTP, not ${u.protocol}`);
  const request = Buffer.from(
    `GET ${u.pathname}${u.search} HTTP/1.1\r\nHost: ${u.host}\r\nConnection: keep-alive\r\nUser-Agent: svc-bench-probe\r\nAccept: */*\r\nAccept-Encoding: gzip, deflate, br, zstd\r\n\r\n`,
    'latin1',
  );
  const hostname = u.hostname.replace(/^\[|\]$/g, '');
  const port = Number(u.port || 80);
  let socket: Socket<undefined> | null = null;
  let reader: AnswerReader | null = null;
  let settle: ((a: ProbeAnswer) => void) | null = null;

  const finish = (status: number, drop: boolean) => {
    const s = settle;
    settle = null;
    reader = null;
    if (drop && socket) {
      const old = socket;
      socket = null;
      old.end();
    }
    s?.({ status });
  };

  const connect = () =>
    Bun.connect({
      hostname,
      port,
      socket: {
        data(_s, data) {
          if (!reader) return; // nothing asked: bytes past an answer; the next answer would be misread
          let status: number | null;
          try {
            status = reader.feed(data);
          } catch {
            finish(0, true);
            return;
          }
          if (status !== null) finish(status, reader.closes);
        },
        close(s) {
          if (socket === s) socket = null;
          if (settle) finish(reader?.ended() ?? 0, false);
        },
        error(s) {
          if (socket === s) socket = null;
          if (settle) finish(0, false);
        },
      },
    });

  return {
    async get() {
      if (settle) throw new Error('one GET at a time');
      const answered = new Promise<ProbeAnswer>((resolve) => (settle = resolve));
      reader = new AnswerReader();
      try {
        if (!socket) socket = await connect();
      } catch {
        finish(0, false);
        return answered;
      }
      // A whole request this small is taken by the kernel at once; a short write fails the probe.
      if (socket.write(request) !== request.length) finish(0, true);
      return answered;
    },
    close() {
      socket?.end();
      socket = null;
    },
  };
}
