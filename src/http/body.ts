import { ApiError, fail } from './errors.ts';

export const MAX_JSON_DEPTH = 32;

interface BodyBudget {
  maxRequestBytes: number;
  maxTextChars: number;
}

/**
 * The 408 for a body that did not arrive. It closes the connection (Connection: close, which Bun
 * honours by closing the socket once the answer is written): the rest of the body may still be on
 * its way, so nothing after it on that connection could be read as a request of its own, and a
 * client that trickles should not keep the socket for the server's keep-alive time.
 */
function bodyLate(details: Record<string, unknown>): never {
  const err = new ApiError('REQUEST_TIMEOUT', details);
  err.headers.connection = 'close';
  throw err;
}

/**
 * The 413. When the rest of the body was never read (its declared length, or the count while it
 * streamed, passed the budget) the connection closes after the answer, as for the 408: what follows
 * on it is the unread body, not a next request.
 */
function tooLarge(budget: BodyBudget, extra: Record<string, unknown>, unread = true): never {
  const err = new ApiError('PAYLOAD_TOO_LARGE', { max_request_bytes: budget.maxRequestBytes, max_text_chars: budget.maxTextChars, ...extra });
  if (unread) err.headers.connection = 'close';
  throw err;
}

// Deep nesting is refused before any recursive walk (validation, content scans) can blow the stack.
export function depthOf(value: unknown, limit: number): number {
  let max = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (d > max) max = d;
    if (max > limit) return max;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, d + 1]);
  }
  return max;
}

/**
 * The client hung up before its whole body arrived. Nobody reads the answer (a 400 INVALID_JSON,
 * nothing stored); the request log records it as 499, not as a fault of the service.
 */
export class ClientClosed extends ApiError {
  constructor() {
    super('INVALID_JSON', { reason: 'the connection closed before the whole body arrived' });
  }
}

/**
 * The body's bytes, read within both budgets: the length header is checked first so a huge upload
 * is refused without reading it, and the bytes are counted while they arrive because the header can
 * lie or be absent (chunked uploads). A client that trickles its body is answered 408 once
 * `deadlineMs` has passed, so it cannot hold a request open for ever.
 */
export async function readBodyBytes(request: Request, budget: BodyBudget, deadlineMs: number): Promise<Uint8Array> {
  const length = request.headers.get('content-length');
  const declared = Number(length ?? '0');
  if (declared > budget.maxRequestBytes) tooLarge(budget, { received_bytes: declared });
  // A body with its length (not chunked) is read whole in one native read: no stream is made, no
  // promise per chunk (a JS ReadableStream cost ~10 % of a small write's CPU). The length already
  // bounds what arrives over a socket; the count is checked again after the read all the same (a
  // Request made in-process may carry a length its body does not keep).
  if (length !== null && request.headers.get('transfer-encoding') === null) return readWhole(request, budget, deadlineMs);
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), deadlineMs);
  });
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), late]);
      if (next === 'late') bodyLate({ budget_seconds: deadlineMs / 1000, received_bytes: total });
      if (next.done) break;
      total += next.value.byteLength;
      if (total > budget.maxRequestBytes) tooLarge(budget, { received_bytes: total });
      chunks.push(next.value);
    }
  } catch (err) {
    void reader.cancel().catch(() => {});
    // A read that fails because the request was aborted is the client hanging up, not a fault.
    if (!(err instanceof ApiError) && request.signal.aborted) throw new ClientClosed();
    throw err;
  } finally {
    clearTimeout(timer);
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.byteLength;
  }
  return bytes;
}

/** readBodyBytes for a body whose length was declared: the same budgets, deadline and hang-up answer. */
async function readWhole(request: Request, budget: BodyBudget, deadlineMs: number): Promise<Uint8Array> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), deadlineMs);
  });
  const read = request.bytes();
  let bytes: Uint8Array | 'late';
  try {
    bytes = await Promise.race([read, late]);
  } catch (err) {
    if (request.signal.aborted) throw new ClientClosed();
    throw err;
  } finally {
    clearTimeout(timer);
  }
  if (bytes === 'late') {
    // Nobody waits for the read any more: its end (or its failure once the connection closes) is
    // dropped. A whole-body read cannot say how much of it arrived: the details give the length declared.
    read.catch(() => {});
    bodyLate({ budget_seconds: deadlineMs / 1000, expected_bytes: Number(request.headers.get('content-length')) });
  }
  if (bytes.byteLength > budget.maxRequestBytes) tooLarge(budget, { received_bytes: bytes.byteLength }, false);
  return bytes;
}

/**
 * A JSON body's declared charset, when it is not UTF-8: JSON exchanged between systems is UTF-8
 * (RFC 8259 §8.1) and svc reads nothing else, so a body declared as UTF-16 or Latin-1 is refused
 * (415) rather than read as UTF-8 and stored changed. No charset, `utf-8` and `utf8` (any case,
 * quoted or not) are UTF-8. Returns null when the body may be read.
 */
export function foreignCharset(contentType: string | null): string | null {
  if (!contentType) return null;
  for (const param of contentType.split(';').slice(1)) {
    const eq = param.indexOf('=');
    if (eq < 0 || param.slice(0, eq).trim().toLowerCase() !== 'charset') continue;
    const value = param
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1')
      .toLowerCase();
    if (value !== 'utf-8' && value !== 'utf8') return value;
  }
  return null;
}

const jsonPath = (path: (string | number)[]): string => path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('') || 'body';

/**
 * I-JSON (RFC 7493): no string, member name included, may hold U+0000 or a lone surrogate
 * ("\udc00"). JSON.parse accepts both; stored, one becomes a NUL that truncates C consumers and the
 * other a U+FFFD that silently changes the text, so both are refused with the field's path.
 */
function badString(value: unknown): { field: string; reason: string } | null {
  const stack: [unknown, (string | number)[]][] = [[value, []]];
  const check = (s: string, path: (string | number)[]) => {
    if (s.includes('\u0000')) return { field: jsonPath(path), reason: 'holds U+0000 (NUL), which no field accepts' };
    if (!s.isWellFormed()) return { field: jsonPath(path), reason: 'holds a lone surrogate escape (such as \\udc00): send whole characters' };
    return null;
  };
  while (stack.length) {
    const [v, path] = stack.pop()!;
    if (typeof v === 'string') {
      const bad = check(v, path);
      if (bad) return bad;
    } else if (Array.isArray(v)) {
      for (const [i, child] of v.entries()) stack.push([child, [...path, i]]);
    } else if (v !== null && typeof v === 'object') {
      for (const [k, child] of Object.entries(v)) {
        const bad = check(k, [...path, k]);
        if (bad) return { ...bad, reason: `member name ${bad.reason}` };
        stack.push([child, [...path, k]]);
      }
    }
  }
  return null;
}

/**
 * Bodies from this size on are read in steps with the request thread given back between them (its
 * decoding, its parse, its checks: about 1-2 ms each for a 2.7 MB lab site). Four such bodies that
 * arrive together otherwise held every other request for their whole 20-40 ms (docs/performance.md,
 * "The index without positions": the lab-publish row's stalls).
 */
export const STEPPED_BODY_BYTES = 256 * 1024;

/** The next turn of the event loop: sockets that became readable meanwhile are served first. */
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** An agent request's body as a JSON object, within its budgets, refused before anything is stored. */
export async function readJsonObject(request: Request, budget: BodyBudget, deadlineMs: number): Promise<Record<string, unknown>> {
  const bytes = await readBodyBytes(request, budget, deadlineMs);
  if (bytes.byteLength === 0) return {};
  const stepped = bytes.byteLength >= STEPPED_BODY_BYTES;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    fail('INVALID_JSON', { reason: 'body is not valid UTF-8' });
  }
  if (text.trim() === '') return {};
  if (stepped) await nextTurn();
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    fail('INVALID_JSON', { reason: 'body is not valid JSON' });
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    fail('INVALID_JSON', { reason: `body must be a JSON object, got ${Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value}` });
  }
  if (stepped) await nextTurn();
  if (depthOf(value, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) {
    fail('INVALID_JSON', { reason: 'body is nested too deeply', max_depth: MAX_JSON_DEPTH });
  }
  const bad = badString(value);
  if (bad) fail('INVALID_JSON', bad);
  if (stepped) await nextTurn();
  return value as Record<string, unknown>;
}

/** Characters as a reader counts them (code points), not UTF-16 units: one emoji is one character. */
export function charCount(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}
