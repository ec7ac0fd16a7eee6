// readBodyBytes (src/http/body.ts): a body whose length is declared is read whole in one native
// read, without a stream (a JS ReadableStream and a promise per chunk cost a small write ~10 % of
// its CPU); the budgets, the deadline and the hang-up answer hold on that path as on the other.
import { describe, expect, test } from 'bun:test';
import { readBodyBytes, readJsonObject, STEPPED_BODY_BYTES } from '../../src/http/body.ts';
import { ApiError } from '../../src/http/errors.ts';

const BUDGET = { maxRequestBytes: 64, maxTextChars: 20 };

/** A Request whose `body` getter records that it was used (the stream it makes). */
function watched(init: RequestInit): { request: Request; streamMade: () => boolean } {
  const request = new Request('http://localhost/v1/posts', { method: 'POST', ...init } as RequestInit);
  let made = false;
  const proto = Object.getPrototypeOf(request);
  const getter = Object.getOwnPropertyDescriptor(proto, 'body')!.get!;
  Object.defineProperty(request, 'body', {
    get() {
      made = true;
      return getter.call(request);
    },
  });
  return { request, streamMade: () => made };
}

const refusal = async (p: Promise<unknown>): Promise<ApiError> => {
  try {
    await p;
  } catch (e) {
    return e as ApiError;
  }
  throw new Error('not refused');
};

describe('a body with its length', () => {
  test('is read whole without a stream', async () => {
    const body = '{"topic":"general"}';
    const r = watched({ body, headers: { 'content-length': String(body.length) } });
    expect(new TextDecoder().decode(await readBodyBytes(r.request, BUDGET, 1000))).toBe(body);
    expect(r.streamMade()).toBe(false);
  });

  test('is still counted: a Request made in-process with a length its body exceeds is 413', async () => {
    const r = watched({ body: 'x'.repeat(200), headers: { 'content-length': '10' } });
    const e = await refusal(readBodyBytes(r.request, BUDGET, 1000));
    expect(e.code).toBe('PAYLOAD_TOO_LARGE');
    expect(e.details).toMatchObject({ max_request_bytes: 64, received_bytes: 200 });
  });

  test('that does not arrive within the deadline is 408 REQUEST_TIMEOUT with the length declared', async () => {
    let timer: ReturnType<typeof setInterval> | undefined;
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{'));
        timer = setInterval(() => controller.enqueue(new TextEncoder().encode(' ')), 50);
      },
      cancel() {
        clearInterval(timer);
      },
    });
    const r = watched({ body: stream, headers: { 'content-length': '40' }, duplex: 'half' } as RequestInit);
    const e = await refusal(readBodyBytes(r.request, BUDGET, 200));
    clearInterval(timer);
    expect(e.code).toBe('REQUEST_TIMEOUT');
    expect(e.details).toEqual({ budget_seconds: 0.2, expected_bytes: 40 });
  });

  test('a body sent without a length (chunked) is still read as a stream and cut off at the budget', async () => {
    const r = watched({ body: new Blob(['y'.repeat(100)]).stream(), duplex: 'half' } as RequestInit);
    const e = await refusal(readBodyBytes(r.request, BUDGET, 1000));
    expect(e.code).toBe('PAYLOAD_TOO_LARGE');
    expect(r.streamMade()).toBe(true);
  });
});

describe('a body read in steps (STEPPED_BODY_BYTES and more): the same object, the same refusals', () => {
  const budget = { maxRequestBytes: 8 * 1024 * 1024, maxTextChars: 8 * 1024 * 1024 };
  const big = 'x'.repeat(STEPPED_BODY_BYTES);
  const read = (raw: string) =>
    readJsonObject(new Request('http://svc.test/', { method: 'PUT', body: raw, headers: { 'content-type': 'application/json' } }), budget, 5_000);
  const refusedAs = async (raw: string) => {
    const e = (await read(raw).catch((err: unknown) => err)) as ApiError;
    expect(e).toBeInstanceOf(ApiError);
    return { code: e.code, details: e.details };
  };

  test('a large object comes back as JSON.parse reads it', async () => {
    const raw = JSON.stringify({
      files: [
        { path: 'index.html', content: big },
        { path: 'a.css', content: 'b{}' },
      ],
      title: 'é 😀',
    });
    expect(raw.length).toBeGreaterThanOrEqual(STEPPED_BODY_BYTES);
    expect(await read(raw)).toEqual(JSON.parse(raw));
  });

  test('a large body that is not JSON, not an object, too deep, or holds a lone surrogate is refused as a small one is', async () => {
    expect(await refusedAs(`{"a":"${big}"`)).toEqual({ code: 'INVALID_JSON', details: { reason: 'body is not valid JSON' } });
    expect(await refusedAs(`["${big}"]`)).toEqual({ code: 'INVALID_JSON', details: { reason: 'body must be a JSON object, got an array' } });
    expect(await refusedAs(`{"a":"${big}","d":${'['.repeat(40)}${']'.repeat(40)}}`)).toEqual({
      code: 'INVALID_JSON',
      details: { reason: 'body is nested too deeply', max_depth: 32 },
    });
    expect((await refusedAs(`{"a":"${big}","files":[{"content":"x\\udc00"}]}`)).details?.field).toBe('files[0].content');
  });
});
