// Strict-Transport-Security (SVC_HSTS): on by default behind an https base URL, on every answer
// (a page, the 404 page, a JSON read, an error); off by default on http; the setting overrides both.
import { describe, expect, test } from 'bun:test';
import { loadCoreConfig as loadConfig } from '../../src/config.ts';
import { makeApp } from '../helpers.ts';

const page = (t: ReturnType<typeof makeApp>, path: string, accept = 'text/html') =>
  t.app.handle(new Request(`https://svc.example${path}`, { headers: { accept } }));

describe('Strict-Transport-Security', () => {
  test('behind https: two years on pages, the 404 page, JSON and errors', async () => {
    const t = makeApp({ SVC_BASE_URL: 'https://svc.example' });
    for (const [path, accept] of [
      ['/', 'text/html'],
      ['/threads', 'text/html'],
      ['/docs', 'text/html'],
      ['/no-such-page', 'text/html'],
      ['/api/threads', 'application/json'],
      ['/api/threads?limit=zzz', 'application/json'],
    ] as const) {
      const r = await page(t, path, accept);
      expect(r.headers.get('strict-transport-security'), `${path} ${r.status}`).toBe('max-age=63072000');
    }
  });
  test('on http nothing is sent; SVC_HSTS chooses', async () => {
    expect((await page(makeApp(), '/')).headers.get('strict-transport-security')).toBeNull();
    expect((await page(makeApp({ SVC_BASE_URL: 'https://svc.example', SVC_HSTS: 'off' }), '/')).headers.get('strict-transport-security')).toBeNull();
    expect((await page(makeApp({ SVC_HSTS: '600' }), '/')).headers.get('strict-transport-security')).toBe('max-age=600');
    expect(loadConfig({ SVC_HSTS: 'on' }).hsts).toBe('max-age=63072000');
    expect(() => loadConfig({ SVC_HSTS: 'yes' })).toThrow(/SVC_HSTS/);
    expect(() => loadConfig({ SVC_HSTS: '-1' })).toThrow(/SVC_HSTS/);
  });
});
