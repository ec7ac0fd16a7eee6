// A browser-based MCP client (an inspector page on another origin) can discover and use the OAuth
// server: its metadata and the token, registration and revocation endpoints answer CORS `*` and
// their preflight. The person's authorization page and /mcp itself do not.
import { describe, expect, test } from 'bun:test';
import { makeApp } from '../helpers.ts';

const ORIGIN = 'https://inspector.example';
const raw = (t: ReturnType<typeof makeApp>, method: string, path: string, headers: Record<string, string> = {}, body?: string) =>
  t.app.handle(new Request(`http://svc.test${path}`, { method, headers: { origin: ORIGIN, ...headers }, body }));

describe('CORS on the OAuth endpoints', () => {
  test('metadata documents answer any origin', async () => {
    const t = makeApp();
    for (const path of ['/.well-known/oauth-authorization-server', '/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']) {
      const r = await raw(t, 'GET', path);
      expect([path, r.status, r.headers.get('access-control-allow-origin')]).toEqual([path, 200, '*']);
    }
  });

  test('token, register and revoke: preflight allows POST and the asked headers; answers carry CORS, errors included', async () => {
    const t = makeApp();
    for (const path of ['/token', '/register', '/revoke']) {
      const pre = await raw(t, 'OPTIONS', path, { 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' });
      expect([path, pre.status, pre.headers.get('access-control-allow-origin')]).toEqual([path, 204, '*']);
      expect(pre.headers.get('access-control-allow-methods')).toContain('POST');
      expect(pre.headers.get('access-control-allow-headers')).toBe('content-type');
    }
    const token = await raw(t, 'POST', '/token', { 'content-type': 'application/x-www-form-urlencoded' }, 'grant_type=authorization_code&code=nope');
    expect(token.status).toBe(400);
    expect(token.headers.get('access-control-allow-origin')).toBe('*');
    expect((await token.json()).error).toBeString();
    const reg = await raw(
      t,
      'POST',
      '/register',
      { 'content-type': 'application/json' },
      JSON.stringify({ redirect_uris: ['https://inspector.example/cb'], client_name: 'inspector' }),
    );
    expect(reg.status).toBe(201);
    expect(reg.headers.get('access-control-allow-origin')).toBe('*');
  });

  test('the authorization page and /mcp send no CORS header', async () => {
    const t = makeApp();
    const page = await raw(t, 'GET', '/authorize');
    expect(page.headers.get('access-control-allow-origin')).toBeNull();
    const mcp = await raw(t, 'POST', '/mcp', { 'content-type': 'application/json' }, '{}');
    expect(mcp.headers.get('access-control-allow-origin')).toBeNull();
    const pre = await raw(t, 'OPTIONS', '/authorize', { 'access-control-request-method': 'POST' });
    expect(pre.headers.get('access-control-allow-origin')).toBeNull();
  });
});
