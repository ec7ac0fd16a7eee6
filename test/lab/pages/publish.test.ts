// PUT /v1/lab/pages/{slug} and the public address: publish, replay, limits, quota, storage
// failures, takedowns, and the served page with its credit bar and headers.
import { describe, expect, test } from 'bun:test';
import { takedownLabPage } from '../../../src/lab/pages/pages.ts';
import type { ScanPool } from '../../../src/lab/pages/scan.ts';
import { dbWriter, STAGE_CHUNK_BYTES, setLabWriter, stageChunks } from '../../../src/lab/pages/storage.ts';
import { cleanSite, html, makeLabApp } from './harness.ts';

const KB = 1024;
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]).toString('base64');

describe('a clean publish round trip', () => {
  test('the site is served at its public address with the credit bar, CSP and nosniff', async () => {
    const t = makeLabApp();
    const a = await t.register('alice');
    const r = await t.publish(a.key, 'tides', cleanSite([{ path: 'img/dot.png', content: PNG, encoding: 'base64' }]));
    expect(r.status).toBe(201);
    expect(r.json.page).toMatchObject({ slug: 'tides', title: 'Tide tables', url: 'http://svc.test/lab/alice/tides/', file_count: 4 });
    expect(r.json.quota).toMatchObject({ projects_limit: 5, projects_used: 1, publishes_per_day: 20, publishes_used: 1 });

    const page = await t.visit('/lab/alice/tides/');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.headers.get('content-security-policy')).toContain("connect-src 'none'");
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('cross-origin-opener-policy')).toBe('same-origin');
    // An opaque origin for the page: no cookie or storage of the service's origin is reachable.
    expect(page.headers.get('content-security-policy')).toMatch(/(^|; )sandbox allow-scripts$/);
    expect(page.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(page.headers.get('set-cookie')).toBeNull();
    expect(page.text).toContain('<h1>Tide tables</h1>');
    expect(page.text).toMatch(/<svc-credit id="svc-credit" class="svc-credit"[^>]*>.*alice.*<\/svc-credit><\/body>/s);
    expect(page.text).toContain('href="/lab/_kit/svc.css"');

    const css = await t.visit('/lab/alice/tides/style.css');
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(css.text).toBe('body { font-family: serif }');
    const png = await t.visit('/lab/alice/tides/img/dot.png');
    expect(png.headers.get('content-type')).toBe('image/png');
    expect((await t.visit('/lab/alice/tides/index.html')).text).toContain('svc-credit');
  });

  test('the directory address without its slash redirects to it; unknown files are 404', async () => {
    const t = makeLabApp();
    const a = await t.register('alice');
    await t.publish(a.key, 'tides', cleanSite());
    const r = await t.visit('/lab/alice/tides');
    expect(r.status).toBe(308);
    expect(r.headers.get('location')).toBe('/lab/alice/tides/');
    for (const path of [
      '/lab/alice/tides/nope.html',
      '/lab/alice/other/',
      '/lab/bob/tides/',
      '/lab/alice/tides/%2e%2e/%2e%2e/svc.sqlite',
      '/lab/alice/tides/..%2fstyle.css',
    ]) {
      expect((await t.visit(path)).status).toBe(404);
    }
  });

  test('the kit stylesheet is public and styles the credit bar', async () => {
    const t = makeLabApp();
    const r = await t.visit('/lab/_kit/svc.css');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(r.text).toContain('svc-credit#svc-credit.svc-credit');
  });

  test('republishing replaces the whole site', async () => {
    const t = makeLabApp();
    const a = await t.register('alice');
    await t.publish(a.key, 'tides', cleanSite([{ path: 'old.txt', content: 'old' }]));
    const r = await t.publish(a.key, 'tides', { files: [{ path: 'index.html', content: html('<p>v2</p>') }] });
    expect(r.status).toBe(200);
    expect(r.json.created).toBe(false);
    expect((await t.visit('/lab/alice/tides/')).text).toContain('<p>v2</p>');
    expect((await t.visit('/lab/alice/tides/old.txt')).status).toBe(404);
  });
});

describe('idempotent publishing', () => {
  test('a replay answers the first response and costs no publish', async () => {
    const t = makeLabApp();
    const a = await t.register('alice');
    const key = crypto.randomUUID();
    const first = await t.publish(a.key, 'tides', cleanSite(), key);
    const again = await t.publish(a.key, 'tides', cleanSite(), key);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.json).toEqual(first.json);
    expect((await t.call('GET', '/v1/lab/pages', { key: a.key })).json.quota.publishes_used).toBe(1);
  });

  test('the same key with another site is a conflict; no key is refused', async () => {
    const t = makeLabApp();
    const a = await t.register('alice');
    const key = crypto.randomUUID();
    await t.publish(a.key, 'tides', cleanSite(), key);
    expect((await t.publish(a.key, 'other', cleanSite(), key)).json.error.code).toBe('IDEMPOTENCY_CONFLICT');
    const none = await t.call('PUT', '/v1/lab/pages/tides', { key: a.key, body: cleanSite() });
    expect(none.json.error.code).toBe('IDEMPOTENCY_KEY_REQUIRED');
  });

  test('the publication lookup finds the page', async () => {
    const t = makeLabApp();
    const a = await t.register('alice');
    const key = crypto.randomUUID();
    const r = await t.publish(a.key, 'tides', cleanSite(), key);
    const found = await t.call('GET', '/v1/me/publications/lookup', { key: a.key, headers: { 'idempotency-key': key } });
    expect(found.json).toMatchObject({ found: true, id: r.json.page.id, url: 'http://svc.test/lab/alice/tides/' });
  });
});

describe('who may publish', () => {
  test('an account off the lab list gets 403 LAB_NOT_ALLOWED with its quota', async () => {
    const t = makeLabApp();
    const b = await t.register('bobby', { lab: false });
    const r = await t.publish(b.key, 'tides', cleanSite());
    expect(r.status).toBe(403);
    expect(r.json.error.code).toBe('LAB_NOT_ALLOWED');
    expect(r.json.error.details.quota).toMatchObject({ projects_limit: 5 });
    expect((await t.call('GET', '/v1/lab/pages', { key: b.key })).json.error.code).toBe('LAB_NOT_ALLOWED');
  });

  test.each(['A', 'ab_c', '-abc', 'a', 'x'.repeat(49), 'UPPER'])('slug %p is refused with LAB_BAD_PATH', async (slug) => {
    const t = makeLabApp();
    const a = await t.register('alice');
    const r = await t.publish(a.key, slug, cleanSite());
    expect(r.json.error.code).toBe('LAB_BAD_PATH');
    expect(r.json.error.details.field).toBe('slug');
  });
});

describe('size limits', () => {
  const filler = (n: number, bytes: number) => Array.from({ length: n }, (_, i) => ({ path: `f${i}.txt`, content: 'a'.repeat(bytes) }));
  const index = { path: 'index.html', content: html('<p>sizes</p>') };

  test('a 61st file is 413 LAB_TOO_LARGE', async () => {
    const t = makeLabApp();
    const a = await t.register('alice');
    const r = await t.publish(a.key, 'sizes', { files: [index, ...filler(60, 10)] });
    expect(r.status).toBe(413);
    expect(r.json.error.code).toBe('LAB_TOO_LARGE');
  });

  test('a 513 KB file is 413 LAB_TOO_LARGE naming it', async () => {
    const t = makeLabApp();
    const a = await t.register('alice');
    const r = await t.publish(a.key, 'sizes', { files: [index, { path: 'big.txt', content: 'a'.repeat(513 * KB) }] });
    expect(r.status).toBe(413);
    expect(r.json.error.details).toMatchObject({ reason: 'file_too_large', file: 'big.txt', max_file_bytes: 512 * KB });
  });

  test('exactly 2 MB in all passes; one byte more does not', async () => {
    const t = makeLabApp();
    const a = await t.register('alice');
    const indexBytes = new TextEncoder().encode(index.content).byteLength;
    const files = [index, ...filler(3, 512 * KB), { path: 'rest.txt', content: 'a'.repeat(512 * KB - indexBytes) }];
    const ok = await t.publish(a.key, 'sizes', { files });
    expect(ok.status).toBe(201);
    expect(ok.json.page.total_bytes).toBe(2 * 1024 * KB);
    files.push({ path: 'one.txt', content: 'a' });
    const over = await t.publish(a.key, 'sizes', { files });
    expect(over.json.error.details.reason).toBe('site_too_large');
  });
});

describe('malformed publishes are LAB_INVALID with details.field', () => {
  test.each([
    ['no files', {}, 'files'],
    ['files not an array', { files: 'index.html' }, 'files'],
    ['a file without content', { files: [{ path: 'index.html' }] }, 'files[0].content'],
    ['an unknown encoding', { files: [{ path: 'index.html', content: 'x', encoding: 'hex' }] }, 'files[0].encoding'],
    ['broken base64', { files: [{ path: 'index.html', content: '@@@', encoding: 'base64' }] }, 'files[0].content'],
    ['a title that is not a string', { title: 5, files: [{ path: 'index.html', content: 'x' }] }, 'title'],
  ])('%s', async (_name, body, field) => {
    const t = makeLabApp();
    const a = await t.register('alice');
    const r = await t.publish(a.key, 'tides', body);
    expect(r.status).toBe(422);
    expect(r.json.error.code).toBe('LAB_INVALID');
    expect(r.json.error.details.field).toBe(field);
  });
});

describe('base64 files decode the same whichever way they are written', () => {
  // 1,001 bytes: the base64 ends in one pad character; a PNG signature so the type sniff agrees.
  const bytes = new Uint8Array(1001);
  for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 31) % 256;
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const b64 = Buffer.from(bytes).toString('base64');
  // The last character before the pad carries 2 bits past the last byte: set them, the bytes stay.
  const lastBits = (s: string) => {
    const at = s.indexOf('=') - 1;
    const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
    return s.slice(0, at) + ALPHABET[ALPHABET.indexOf(s[at]!) | 0b11] + s.slice(at + 1);
  };
  test.each([
    ['plain', b64],
    ['wrapped at 76 characters with CRLF', b64.replace(/.{76}/g, '$&\r\n')],
    ['spaces and tabs between the characters, and in the padding', `${b64.slice(0, 10)} \t${b64.slice(10, -1)} ${b64.slice(-1)}\n`],
    ['a no-break space (U+00A0) and a vertical tab inside', `${b64.slice(0, 8)}\u00a0${b64.slice(8, 20)}\v${b64.slice(20)}`],
    ['bits set past the last byte', lastBits(b64)],
  ])('%s: accepted, and the file is served byte for byte', async (_name, content) => {
    expect(lastBits(b64)).not.toBe(b64);
    const t = makeLabApp();
    const a = await t.register('alice');
    const r = await t.publish(a.key, 'tides', cleanSite([{ path: 'img/b.png', content, encoding: 'base64' }]));
    expect(r.status).toBe(201);
    const res = await t.app.handle(new Request('http://svc.test/lab/alice/tides/img/b.png'));
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(bytes);
  });

  test.each([
    ['the pad left out', b64.replace(/=+$/, '')],
    ['the URL-safe alphabet', b64.replaceAll('+', '-').replaceAll('/', '_')],
    ['a pad in the middle', `${b64.slice(0, 8)}=${b64.slice(8)}`],
    ['a pad too many', `${b64}=`],
  ])('%s: refused as bad_base64', async (_name, content) => {
    const t = makeLabApp();
    const a = await t.register('alice');
    const r = await t.publish(a.key, 'tides', cleanSite([{ path: 'img/b.png', content, encoding: 'base64' }]));
    expect(r.status).toBe(422);
    expect(r.json.error).toMatchObject({ code: 'LAB_INVALID', details: { field: 'files[3].content', reason: 'bad_base64' } });
  });
});

describe('a crafted site is refused through the route', () => {
  test('obfuscated wallet code answers 422 with file and line, stores nothing and costs nothing', async () => {
    const t = makeLabApp();
    const a = await t.register('alice');
    const r = await t.publish(a.key, 'tides', cleanSite([{ path: 'w.js', content: "// hi\nconst p = window['eth' + 'ereum']" }]));
    expect(r.status).toBe(422);
    expect(r.json.error.code).toBe('LAB_WALLET_CODE');
    expect(r.json.error.details).toMatchObject({ file: 'w.js', line: 2 });
    expect(r.json.error.details.quota.publishes_used).toBe(0);
    expect((await t.visit('/lab/alice/tides/')).status).toBe(404);
  });
});

describe('the lab allowance', () => {
  test('a sixth project is 429 LAB_QUOTA with retry_at; deleting one frees a slot', async () => {
    const t = makeLabApp();
    const a = await t.register('alice');
    for (const s of ['p1', 'p2', 'p3', 'p4', 'p5']) expect((await t.publish(a.key, s, cleanSite())).status).toBe(201);
    const r = await t.publish(a.key, 'p6', cleanSite());
    expect(r.status).toBe(429);
    expect(r.json.error.code).toBe('LAB_QUOTA');
    expect(r.json.error.details).toMatchObject({ reason: 'projects', retry_at: '2026-11-24T00:00:00.000Z' });
    expect(r.headers.get('retry-after')).not.toBeNull();
    // Republishing an existing project still works.
    expect((await t.publish(a.key, 'p1', cleanSite())).status).toBe(200);
    await t.call('DELETE', '/v1/lab/pages/p2', { key: a.key });
    expect((await t.publish(a.key, 'p6', cleanSite())).status).toBe(201);
  });

  test('the 21st publish of a UTC day is refused until midnight', async () => {
    const t = makeLabApp();
    const a = await t.register('alice');
    for (let i = 0; i < 20; i++) expect((await t.publish(a.key, 'tides', cleanSite())).status).toBeLessThan(300);
    const r = await t.publish(a.key, 'tides', cleanSite());
    expect(r.json.error).toMatchObject({ code: 'LAB_QUOTA', details: { reason: 'publishes' } });
    t.clock.set('2026-11-24T00:00:01Z');
    expect((await t.publish(a.key, 'tides', cleanSite())).status).toBe(200);
  });
});

describe('atomic publishing', () => {
  test('a storage failure is 503 LAB_STORAGE_UNAVAILABLE, keeps the old version serving and costs nothing', async () => {
    const t = makeLabApp();
    const a = await t.register('alice');
    await t.publish(a.key, 'tides', { files: [{ path: 'index.html', content: html('<p>v1</p>') }] });
    const before = t.db.query('SELECT path, version FROM lab_site_files ORDER BY path').all();
    let writes = 0;
    setLabWriter(t.ctx, {
      insert: (ctx, pageId, version, path, bytes) => {
        if (++writes === 2) throw new Error('disk full');
        dbWriter.insert(ctx, pageId, version, path, bytes);
      },
    });
    const r = await t.publish(a.key, 'tides', cleanSite());
    expect(r.status).toBe(503);
    expect(r.json.error.code).toBe('LAB_STORAGE_UNAVAILABLE');
    expect(r.json.error.details.quota.publishes_used).toBe(1);
    const page = await t.visit('/lab/alice/tides/');
    expect(page.text).toContain('<p>v1</p>');
    expect((await t.visit('/lab/alice/tides/style.css')).status).toBe(404);
    // The first file of the failed publish was rolled back with the rest: the old version's rows only.
    expect(t.db.query('SELECT path, version FROM lab_site_files ORDER BY path').all()).toEqual(before);
    // The same key can be retried once storage is back.
    setLabWriter(t.ctx, dbWriter);
    expect((await t.publish(a.key, 'tides', cleanSite())).status).toBe(200);
  });

  test('a replaced site is written before its transaction, in chunks with the request thread free between them, and inert until published', async () => {
    const t = makeLabApp();
    const a = await t.register('alice');
    expect((await t.publish(a.key, 'tides', { files: [{ path: 'index.html', content: html('<p>v1</p>') }] })).status).toBe(201);
    // Six 200 KB scripts: more than one STAGE_CHUNK_BYTES chunk.
    const big = cleanSite(Array.from({ length: 6 }, (_, i) => ({ path: `lib${i}.js`, content: `const x${i} = 1;\n${' '.repeat(200 * 1024)}` })));
    const liveVersion = () => t.db.query<{ version: string }, []>("SELECT version FROM lab_pages WHERE slug = 'tides'").get()!.version;
    // A macrotask counter: writes in one transaction share a tick; the request thread ran between chunks when they differ.
    let tick = 0;
    let stop = false;
    const spin = () => {
      tick++;
      if (!stop) setImmediate(spin);
    };
    spin();
    const seen: { tick: number; path: string; live: boolean }[] = [];
    setLabWriter(t.ctx, {
      insert: (ctx, pageId, version, path, bytes) => {
        seen.push({ tick, path, live: liveVersion() === version });
        dbWriter.insert(ctx, pageId, version, path, bytes);
      },
    });
    const r = await t.publish(a.key, 'tides', big);
    stop = true;
    setLabWriter(t.ctx, dbWriter);
    expect(r.status).toBe(200);
    expect(seen.map((s) => s.path)).toEqual(big.files.map((f) => f.path));
    // Written while the page still named the previous version: nobody was served a half site.
    expect(seen.every((s) => !s.live)).toBe(true);
    expect(new Set(seen.map((s) => s.tick)).size).toBeGreaterThanOrEqual(Math.ceil((6 * 200 * 1024) / STAGE_CHUNK_BYTES));
    expect((await t.visit('/lab/alice/tides/lib5.js')).status).toBe(200);
    // Only the live version keeps rows.
    expect(t.db.query<{ n: number }, [string]>('SELECT count(DISTINCT version) AS n FROM lab_site_files WHERE version <> ?').get(liveVersion())!.n).toBe(0);
  });

  test('two publishes of one page at once: the one that lands last serves, whole, and no other rows remain', async () => {
    const t = makeLabApp();
    const a = await t.register('alice');
    expect((await t.publish(a.key, 'tides', cleanSite())).status).toBe(201);
    const site = (n: number) => cleanSite(Array.from({ length: 4 }, (_, i) => ({ path: `lib${i}.js`, content: `const v = ${n};\n${' '.repeat(150 * 1024)}` })));
    // Both scans answer together (a barrier in place of the worker), so both sites are staged
    // before either lands: each publish's transaction must spare the other's staged rows.
    const waiting: (() => void)[] = [];
    const barrier = {
      defaultTimeoutMs: 5_000,
      run: (files: unknown) =>
        new Promise<{ finding: null; files: unknown }>((resolve) => {
          waiting.push(() => resolve({ finding: null, files }));
          if (waiting.length === 2) for (const go of waiting) go();
        }),
    };
    t.ctx.workers.labScan = barrier as unknown as ScanPool;
    const [x, y] = await Promise.all([t.publish(a.key, 'tides', site(1)), t.publish(a.key, 'tides', site(2))]);
    expect([x.status, y.status]).toEqual([200, 200]);
    await t.settled(); // the sweep of the version that lost
    const live = t.db.query<{ version: string; files: string }, []>("SELECT version, files FROM lab_pages WHERE slug = 'tides'").get()!;
    const rows = t.db.query<{ version: string; path: string }, []>('SELECT version, path FROM lab_site_files ORDER BY path').all();
    expect(rows.every((r) => r.version === live.version)).toBe(true);
    expect(rows.map((r) => r.path)).toEqual((JSON.parse(live.files) as { path: string }[]).map((f) => f.path).sort());
    const served = await t.visit('/lab/alice/tides/lib3.js');
    expect(served.status).toBe(200);
    expect(served.text).toMatch(/^const v = [12];/);
  });

  test('staging chunks: files in order, about STAGE_CHUNK_BYTES each, a larger file alone', () => {
    const f = (path: string, n: number) => ({ path, bytes: new Uint8Array(n) });
    const chunks = stageChunks([f('a', 100), f('b', 100), f('c', 300), f('d', 50), f('e', 60)], 200);
    expect(chunks.map((c) => c.map((x) => x.path))).toEqual([['a', 'b'], ['c'], ['d', 'e']]);
    expect(stageChunks([])).toEqual([]);
  });

  test('the files live in the database: nothing is written to the data folder, a replaced or deleted site leaves no rows', async () => {
    const t = makeLabApp();
    const a = await t.register('alice');
    const { readdirSync } = await import('node:fs');
    const files = () => t.db.query<{ version: string; path: string }, []>('SELECT version, path FROM lab_site_files ORDER BY path').all();
    const first = await t.publish(a.key, 'tides', cleanSite());
    expect(first.status).toBe(201);
    expect(files().map((f) => f.path)).toEqual(first.json.page.files.map((f: { path: string }) => f.path).sort());
    const v1 = files()[0]!.version;
    expect((await t.publish(a.key, 'tides', { files: [{ path: 'index.html', content: html('<p>v2</p>') }] })).status).toBe(200);
    const now = files();
    expect(now.map((f) => f.path)).toEqual(['index.html']);
    expect(now[0]!.version).not.toBe(v1);
    expect((await t.visit('/lab/alice/tides/')).text).toContain('<p>v2</p>');
    expect(readdirSync(t.dataDir)).toEqual([]);
    await t.call('DELETE', '/v1/lab/pages/tides', { key: a.key });
    expect(files()).toEqual([]);
    expect((await t.visit('/lab/alice/tides/')).status).toBe(404);
  });

  test('a file is served byte for byte', async () => {
    const t = makeLabApp();
    const a = await t.register('alice');
    const bytes = new Uint8Array(300 * KB);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7919) % 251;
    bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const r = await t.publish(a.key, 'tides', cleanSite([{ path: 'big.png', content: Buffer.from(bytes).toString('base64'), encoding: 'base64' }]));
    expect(r.status).toBe(201);
    const res = await t.app.handle(new Request('http://svc.test/lab/alice/tides/big.png'));
    expect(res.status).toBe(200);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(bytes);
  });
});

describe('takedowns', () => {
  test('a taken-down page is 410 in public and 409 LAB_TAKEN_DOWN to its agent', async () => {
    const t = makeLabApp();
    const a = await t.register('alice');
    await t.publish(a.key, 'tides', cleanSite());
    const done = takedownLabPage(t.ctx, 'alice', 'tides');
    expect(done).toMatchObject({ name: 'alice', slug: 'tides', removed_page: true });
    expect((await t.visit('/lab/alice/tides/')).status).toBe(410);
    const again = await t.publish(a.key, 'tides', cleanSite());
    expect(again.status).toBe(409);
    expect(again.json.error.code).toBe('LAB_TAKEN_DOWN');
    expect((await t.call('GET', '/v1/lab/pages/tides', { key: a.key })).json.error.code).toBe('LAB_TAKEN_DOWN');
    expect((await t.call('GET', '/v1/lab/pages', { key: a.key })).json.pages).toEqual([]);
  });
});
