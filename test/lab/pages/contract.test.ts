// The lab answers as /openapi.json declares them: JSON answers from valibot schemas (201 for a new
// page, 200 for a replaced one), the kit stylesheet, the folder redirect and the media types a lab
// file is served with; near misses refused; Cache-Control of the owner's answers and public files.
import { describe, expect, test } from 'bun:test';
import { SERVED_TYPES } from '../../../src/lab/scan/paths.ts';
import { takedownLabPage } from '../../../src/lab/pages/pages.ts';
import { checkAnswer, ContractViolation, describedRoutes } from '../../contract.ts';
import { accepted, expectDeclared, servedSpec } from '../../votes/described.ts';
import { cleanSite, makeLabApp } from './harness.ts';

async function scene() {
  const t = makeLabApp();
  const a = await t.register('alice');
  const created = await t.publish(a.key, 'tides', cleanSite());
  expect(created.status).toBe(201);
  const replaced = await t.publish(a.key, 'tides', cleanSite());
  expect(replaced.status).toBe(200);
  return { t, a, created, replaced };
}

const JSON_ROUTES: [string, string, string][] = [
  ['GET', '/v1/lab/pages', '200'],
  ['PUT', '/v1/lab/pages/{slug}', '200'],
  ['PUT', '/v1/lab/pages/{slug}', '201'],
  ['GET', '/v1/lab/pages/{slug}', '200'],
  ['DELETE', '/v1/lab/pages/{slug}', '200'],
  ['GET', '/v1/lab/pages/{slug}/stats', '200'],
];

describe('lab answers in /openapi.json', () => {
  for (const [method, path, status] of JSON_ROUTES) {
    test(`${method} ${path} → ${status}: a declared schema with Cache-Control no-store`, async () => {
      const { op } = expectDeclared(await servedSpec(makeLabApp()), method, path, status);
      expect(op.responses[status].headers['Cache-Control'].schema.const).toBe('no-store');
    });
  }

  test('GET /lab/_kit/svc.css answers text/css', async () => {
    const op = (await servedSpec(makeLabApp())).paths['/lab/_kit/svc.css']!.get;
    expect(op['x-svc-contract']).toBe(true);
    expect(Object.keys(op.responses['200'].content)).toEqual(['text/css']);
  });

  test('a site address without its slash: 308 with Location, HTML 404 and 410', async () => {
    const op = (await servedSpec(makeLabApp())).paths['/lab/{agent}/{slug}']!.get;
    expect(op['x-svc-contract']).toBe(true);
    expect(op.responses['308'].headers.Location).toBeDefined();
    expect(op.responses['200']).toBeUndefined();
    for (const s of ['404', '410']) expect(Object.keys(op.responses[s].content)).toEqual(['text/html']);
  });

  test('a lab file: every served media type, the folder redirect, HTML 404 and 410, and no literal * in a path', async () => {
    const spec = await servedSpec(makeLabApp());
    expect(Object.keys(spec.paths).filter((p) => p.includes('*'))).toEqual([]);
    const op = spec.paths['/lab/{agent}/{slug}/{path}']!.get;
    const served = [...new Set([...SERVED_TYPES.values()].map((t) => t.contentType.split(';')[0]!))].sort();
    expect(Object.keys(op.responses['200'].content).sort()).toEqual(served);
    expect(op.responses['200'].content['application/json'].schema).toEqual({});
    expect(op.responses['308'].headers.Location).toBeDefined();
    for (const s of ['404', '410']) expect(Object.keys(op.responses[s].content)).toEqual(['text/html']);
  });
});

describe('the description holds real lab answers, and refuses their near misses', () => {
  type Scene = Awaited<ReturnType<typeof scene>>;
  const cases: [string, number, (s: Scene) => any, (a: any) => unknown, boolean][] = [
    ['a new page', 201, (s) => s.created.json, (a) => a, true],
    ['a replaced page', 200, (s) => s.replaced.json, (a) => a, true],
    ['created as a string', 201, (s) => s.created.json, (a) => ({ ...a, created: 'yes' }), false],
    ['no quota', 200, (s) => s.replaced.json, ({ quota: _, ...a }) => a, false],
    ['a quota with an extra member', 200, (s) => s.replaced.json, (a) => ({ ...a, quota: { ...a.quota, bonus: 1 } }), false],
    ['file_count 0', 200, (s) => s.replaced.json, (a) => ({ ...a, page: { ...a.page, file_count: 0 } }), false],
    ['a slug the pattern refuses', 200, (s) => s.replaced.json, (a) => ({ ...a, page: { ...a.page, slug: 'Tides' } }), false],
    ['a file without its size', 200, (s) => s.replaced.json, (a) => ({ ...a, page: { ...a.page, files: [{ path: 'index.html' }] } }), false],
  ];
  for (const [name, status, pick, change, ok] of cases) {
    test(`PUT → ${status}: ${name} → ${ok ? 'accepted' : 'refused'}`, async () => {
      const s = await scene();
      expect(await accepted(s.t, 'PUT', '/v1/lab/pages/tides', status, change(pick(s)))).toBe(ok);
    });
  }

  const media: [string, string, boolean][] = [
    ['/lab/alice/tides/style.css', 'text/css; charset=utf-8', true],
    ['/lab/alice/tides/app.js', 'text/javascript; charset=utf-8', true],
    ['/lab/alice/tides/dot.png', 'image/png', true],
    ['/lab/alice/tides/font.woff2', 'font/woff2', true],
    ['/lab/alice/tides/doc.pdf', 'application/pdf', false],
    ['/lab/alice/tides/page.xhtml', 'application/xhtml+xml', false],
  ];
  for (const [path, type, ok] of media) {
    test(`a lab file served as ${type} → ${ok ? 'accepted' : 'refused'}`, async () => {
      const t = makeLabApp();
      const { routes } = await describedRoutes(`lab-media:${crypto.randomUUID()}`, () => servedSpec(t) as never);
      const check = () => checkAnswer(routes, 'GET', path, 200, type, 'x');
      if (ok) expect(check).not.toThrow();
      else expect(check).toThrow(ContractViolation);
    });
  }
});

describe('Cache-Control of lab answers', () => {
  const cases: [string, (s: Awaited<ReturnType<typeof scene>>) => Promise<{ status: number; headers: Headers }>, number, string][] = [
    ['PUT (new page)', async (s) => s.created, 201, 'no-store'],
    ['PUT (replaced page)', async (s) => s.replaced, 200, 'no-store'],
    ['GET /v1/lab/pages', (s) => s.t.call('GET', '/v1/lab/pages', { key: s.a.key }), 200, 'no-store'],
    ['GET /v1/lab/pages/tides', (s) => s.t.call('GET', '/v1/lab/pages/tides', { key: s.a.key }), 200, 'no-store'],
    ['GET /v1/lab/pages/tides/stats', (s) => s.t.call('GET', '/v1/lab/pages/tides/stats', { key: s.a.key }), 200, 'no-store'],
    ['DELETE /v1/lab/pages/tides', (s) => s.t.call('DELETE', '/v1/lab/pages/tides', { key: s.a.key }), 200, 'no-store'],
    ['GET /lab/_kit/svc.css', (s) => s.t.visit('/lab/_kit/svc.css'), 200, 'public, max-age=3600'],
    ['GET /lab/alice/tides/style.css', (s) => s.t.visit('/lab/alice/tides/style.css'), 200, 'public, max-age=60'],
    ['GET /lab/alice/tides (redirect)', (s) => s.t.visit('/lab/alice/tides'), 308, 'no-store'],
    ['GET /lab/alice/gone/ (unknown)', (s) => s.t.visit('/lab/alice/gone/'), 404, 'no-store'],
  ];
  for (const [name, get, status, expected] of cases) {
    test(`${name}: ${status}, ${expected}`, async () => {
      const r = await get(await scene());
      expect(r.status).toBe(status);
      expect(r.headers.get('cache-control')).toBe(expected);
    });
  }

  test('a taken-down site answers an HTML 410 at both lab addresses', async () => {
    const s = await scene();
    takedownLabPage(s.t.ctx, 'alice', 'tides');
    for (const path of ['/lab/alice/tides', '/lab/alice/tides/index.html']) {
      const r = await s.t.visit(path);
      expect(r.status).toBe(410);
      expect(r.headers.get('content-type')).toStartWith('text/html');
    }
  });
});
