// Compressed answers (src/http/compress.ts): a public text document goes out in the coding the
// caller prefers (br, then gzip), made once per cached copy, with Vary: Accept-Encoding and a tag
// of its own per coding; 304s hold for every coding; nothing that is not public is compressed.
import { describe, expect, test } from 'bun:test';
import { brotliDecompressSync } from 'node:zlib';
import { preferredCoding } from '../../src/http/compress.ts';
import { encodedTag, identityTag, matchesEtag } from '../../src/http/etag.ts';
import { publicCache } from '../../src/http/public-cache.ts';
import { STYLESHEET_PATH } from '../../src/pages/html.ts';
import { board, seedMany } from '../public/fixtures.ts';

/** A raw answer: status, headers and the bytes as sent (app.handle does not decode them). */
async function get(t: { app: { handle(r: Request): Promise<Response> } }, path: string, headers: Record<string, string> = {}) {
  const res = await t.app.handle(new Request(`http://localhost${path}`, { headers }));
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
}

const decode = (coding: string | null, bytes: Uint8Array): string =>
  new TextDecoder().decode(coding === 'br' ? brotliDecompressSync(bytes) : coding === 'gzip' ? Bun.gunzipSync(bytes as Uint8Array<ArrayBuffer>) : bytes);

/** A board whose activity document is well past the compression threshold. */
async function busyBoard() {
  const {
    t,
    agents: [alice],
  } = await board('alice');
  seedMany(t, alice!, 40, (i) => ({ title: `A thread about the cache, number ${i}`, body: 'Measured twice, written once. '.repeat(8) }));
  return t;
}

describe('which coding a caller gets (RFC 9110 §12.5.3)', () => {
  const CASES: [string | null, 'br' | 'gzip' | null][] = [
    [null, null],
    ['', null],
    ['gzip, deflate, br', 'br'],
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip', 'gzip'],
    ['x-gzip', 'gzip'],
    ['GZIP;Q=1', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['br;q=0.5, gzip;q=0.8', 'gzip'],
    ['br;q=0.8, gzip;q=0.8', 'br'],
    ['*', 'br'],
    ['gzip;q=0, *', 'br'],
    ['*;q=0', null],
    ['identity', null],
    ['deflate', null],
    ['br;q=nonsense, gzip', 'gzip'],
  ];
  for (const [header, coding] of CASES) test(`${JSON.stringify(header)} → ${coding ?? 'identity'}`, () => expect(preferredCoding(header)).toBe(coding));

  test('a coding tag revalidates the same bytes in any coding, and only those bytes', () => {
    const tag = '"abc123"';
    expect(encodedTag(tag, 'br')).toBe('"abc123.br"');
    expect(identityTag('"abc123.gz"')).toBe(tag);
    for (const held of ['"abc123"', '"abc123.br"', 'W/"abc123.gz"', '"x", "abc123.br"', '*']) expect(matchesEtag(held, tag)).toBe(true);
    for (const held of ['"abc124.br"', '"abc123.zz"', '"abc12"']) expect(matchesEtag(held, tag)).toBe(false);
  });
});

describe('a cached public document, compressed once per copy', () => {
  for (const coding of ['br', 'gzip'] as const) {
    test(`${coding}: the same document, fewer bytes, its own tag, Vary: Accept-Encoding; the hot path answers alike`, async () => {
      const t = await busyBoard();
      const plain = await get(t, '/api/activity');
      expect(plain.headers.get('content-encoding')).toBeNull();
      expect(plain.headers.get('vary')).toContain('Accept-Encoding');
      const first = await get(t, '/api/activity', { 'accept-encoding': coding });
      expect(first.headers.get('content-encoding')).toBe(coding);
      expect(first.headers.get('vary')).toContain('Accept-Encoding');
      expect(first.headers.get('etag')).toBe(encodedTag(plain.headers.get('etag')!, coding));
      expect(decode(coding, first.bytes)).toBe(decode(null, plain.bytes));
      expect(first.bytes.byteLength).toBeLessThan(plain.bytes.byteLength / 3);
      // The second read is the hot path's: the same bytes and headers, the coding's own tag.
      const answered = publicCache(t.ctx).hot.answered;
      const second = await get(t, '/api/activity', { 'accept-encoding': `identity;q=0.5, ${coding}` });
      expect(publicCache(t.ctx).hot.answered).toBe(answered + 1);
      expect(second.bytes).toEqual(first.bytes);
      expect(second.headers.get('etag')).toBe(first.headers.get('etag'));
      expect(second.headers.get('content-encoding')).toBe(coding);
      // And a caller that takes no coding still gets the identity bytes from the hot path.
      const again = await get(t, '/api/activity');
      expect(again.bytes).toEqual(plain.bytes);
      expect(again.headers.get('content-encoding')).toBeNull();
    });
  }

  test('the compressed bytes are made once per copy, not per request, and a new copy makes its own', async () => {
    const t = await busyBoard();
    await get(t, '/api/activity', { 'accept-encoding': 'br' });
    // The cache's one entry (its private map: what a copy keeps is the point of the test).
    const entries = (publicCache(t.ctx) as unknown as { entries: Map<string, { encoded?: { br?: Uint8Array } }> }).entries;
    const doc = [...entries.values()].find((e) => e.encoded?.br)!;
    const made = doc.encoded!.br;
    expect(made).toBeInstanceOf(Uint8Array);
    for (let i = 0; i < 3; i++) await get(t, '/api/activity', { 'accept-encoding': 'br' });
    expect(doc.encoded!.br).toBe(made);
  });

  test('If-None-Match: 304 for the tag of any coding of the bytes held, on the route and on the hot path', async () => {
    const t = await busyBoard();
    const br = await get(t, '/api/activity', { 'accept-encoding': 'br' });
    const tag = br.headers.get('etag')!;
    for (let i = 0; i < 2; i++) {
      const same = await get(t, '/api/activity', { 'accept-encoding': 'br', 'if-none-match': tag });
      expect([same.status, same.bytes.byteLength, same.headers.get('etag')]).toEqual([304, 0, tag]);
      // A caller that switched to gzip still holds these bytes: 304 with the gzip form's tag.
      const other = await get(t, '/api/activity', { 'accept-encoding': 'gzip', 'if-none-match': tag });
      expect([other.status, other.headers.get('etag')]).toEqual([304, tag.replace('.br"', '.gz"')]);
    }
  });

  test('a small document is not compressed: it would save less than it costs', async () => {
    const { t } = await board();
    const r = await get(t, '/api/activity', { 'accept-encoding': 'br, gzip' });
    expect(r.bytes.byteLength).toBeLessThan(1024);
    expect(r.headers.get('content-encoding')).toBeNull();
    expect(r.headers.get('vary')).toContain('Accept-Encoding');
  });

  test('an HTML page too (the thread list), decoded to the very page', async () => {
    const t = await busyBoard();
    const plain = await get(t, '/threads', { accept: 'text/html' });
    const br = await get(t, '/threads', { accept: 'text/html', 'accept-encoding': 'br' });
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(decode('br', br.bytes)).toBe(decode(null, plain.bytes));
  });
});

describe('static files and what is never compressed', () => {
  test("the site's stylesheet: compressed once, its 304 holds for every coding", async () => {
    const { t } = await board();
    const plain = await get(t, STYLESHEET_PATH);
    const gz = await get(t, STYLESHEET_PATH, { 'accept-encoding': 'gzip' });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(decode('gzip', gz.bytes)).toBe(decode(null, plain.bytes));
    expect(gz.headers.get('etag')).toBe(encodedTag(plain.headers.get('etag')!, 'gzip'));
    const held = await get(t, STYLESHEET_PATH, { 'accept-encoding': 'br', 'if-none-match': gz.headers.get('etag')! });
    expect(held.status).toBe(304);
  });

  test('an agent read (personal, never cached) is not compressed', async () => {
    const {
      t,
      agents: [alice],
    } = await board('alice');
    seedMany(t, alice!, 40, () => ({ body: 'Measured twice, written once. '.repeat(8) }));
    const r = await t.call('GET', '/v1/posts?limit=50', { key: alice!.key, headers: { 'accept-encoding': 'br, gzip' } });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-encoding')).toBeNull();
  });
});
