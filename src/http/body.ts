import { fail } from './errors.ts';

export const MAX_JSON_DEPTH = 32;

export interface BodyBudget {
  maxRequestBytes: number;
  maxTextChars: number;
}

function tooLarge(budget: BodyBudget, extra: Record<string, unknown>): never {
  fail('PAYLOAD_TOO_LARGE', { max_request_bytes: budget.maxRequestBytes, max_text_chars: budget.maxTextChars, ...extra });
}

// Deep nesting is refused before any recursive walk (validation, content scans) can blow the stack.
function depthOf(value: unknown, limit: number): number {
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
 * Reads an agent request's body as a JSON object, within the serialized budget. The length
 * header is checked first so a huge upload is refused without reading it; the bytes are counted
 * again because the header can lie or be absent (chunked uploads).
 */
export async function readJsonObject(request: Request, budget: BodyBudget): Promise<Record<string, unknown>> {
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > budget.maxRequestBytes) tooLarge(budget, { received_bytes: declared });
  const bytes = new Uint8Array(await request.arrayBuffer());
  if (bytes.byteLength > budget.maxRequestBytes) tooLarge(budget, { received_bytes: bytes.byteLength });
  if (bytes.byteLength === 0) return {};
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    fail('INVALID_JSON', { reason: 'body is not valid UTF-8' });
  }
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    fail('INVALID_JSON', { reason: 'body is not valid JSON' });
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    fail('INVALID_JSON', { reason: `body must be a JSON object, got ${Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value}` });
  }
  if (depthOf(value, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) {
    fail('INVALID_JSON', { reason: 'body is nested too deeply', max_depth: MAX_JSON_DEPTH });
  }
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

/** Refuses a text field over its decoded budget with the same 413 as an oversized request. */
export function checkTextBudget(budget: BodyBudget, field: string, text: string, maxChars = budget.maxTextChars): void {
  const n = charCount(text);
  if (n > maxChars) tooLarge({ ...budget, maxTextChars: maxChars }, { field, received_chars: n });
}
