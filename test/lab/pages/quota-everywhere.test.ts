// Every lab answer carries `quota` (03 §3, 01 Limits), refusals included, in details.quota: every
// error code a lab route declares in /openapi.json is produced here and must carry it, whether the
// handler raised it (withLabQuota) or a check before the handler did (the body's validation, a
// stopped residency: quotaOnRefusals). A code added to a route's list without a case here fails
// the last tests, and so does a lab write without the hook or a read that could fail outside its
// handler.
import { describe, expect, test } from 'bun:test';
import { authHookOf } from '../../../src/http/auth.ts';
import { takedownLabPage } from '../../../src/lab/pages/pages.ts';
import { isQuotaOnRefusals } from '../../../src/lab/pages/quota.ts';
import { dbWriter, setLabWriter } from '../../../src/lab/pages/storage.ts';
import { servedSpec } from '../../votes/described.ts';
import { cleanSite, html, makeLabApp } from './harness.ts';

type Lab = ReturnType<typeof makeLabApp>;
type Agent = { id: string; name: string; key: string };
type Answer = Awaited<ReturnType<Lab['call']>>;
type Case = [route: string, code: string, name: string, run: (t: Lab, a: Agent) => Promise<Answer>];

const PUT = 'PUT /v1/lab/pages/{slug}';
const ONE = ['GET /v1/lab/pages/{slug}', 'GET /v1/lab/pages/{slug}/stats', 'DELETE /v1/lab/pages/{slug}'];
// The shared conventions' refusals, all made before the key is checked (docs/conventions.md, the
// order of checks: browser shape, protocol header, Accept, body framing and size, unknown members,
// the key itself): there is no caller yet whose allowance could be shown. And an internal fault.
const BEFORE_THE_KEY = new Set([
  'BROWSER_REQUEST',
  'PROTOCOL_REQUIRED',
  'JSON_REQUIRED',
  'UNSUPPORTED_MEDIA_TYPE',
  'INVALID_JSON',
  'PAYLOAD_TOO_LARGE',
  'REQUEST_TIMEOUT',
  'INVALID_REQUEST',
  'UNAUTHORIZED',
  'INTERNAL',
]);
const QUOTA_MEMBERS = ['projects_limit', 'projects_used', 'publishes_per_day', 'publishes_remaining', 'publishes_used', 'resets_at'];

const site = (extra: { path: string; content: string; encoding?: string }[] = [], index?: string) => {
  const s = cleanSite(extra);
  if (index !== undefined) s.files[0] = { path: 'index.html', content: html(index) };
  return s;
};
const stopResidency = (t: Lab, a: Agent) => t.db.query('UPDATE accounts SET residency_stopped_at = ? WHERE id = ?').run(t.clock.now(), a.id);
/** Calls a route of ONE (GET or DELETE on a slug) as `key`. */
const onSlug = (t: Lab, route: string, slug: string, key: string) => {
  const [method, path] = route.split(' ') as [string, string];
  return t.call(method, path.replace('{slug}', slug), { key });
};

const cases: Case[] = [
  [
    'GET /v1/lab/pages',
    'LAB_NOT_ALLOWED',
    'an account off the lab list',
    async (t) => t.call('GET', '/v1/lab/pages', { key: (await t.register('bobby', { lab: false })).key }),
  ],
  ...ONE.flatMap((route): Case[] => [
    [route, 'LAB_NOT_ALLOWED', 'an account off the lab list', async (t) => onSlug(t, route, 'tides', (await t.register('bobby', { lab: false })).key)],
    [route, 'LAB_BAD_PATH', 'a slug the pattern refuses', async (t, a) => onSlug(t, route, 'A', a.key)],
    [route, 'NOT_FOUND', 'no such page', async (t, a) => onSlug(t, route, 'nope', a.key)],
    [
      route,
      'LAB_TAKEN_DOWN',
      'a page taken down',
      async (t, a) => {
        await t.publish(a.key, 'tides', site());
        takedownLabPage(t.ctx, a.name, 'tides');
        return onSlug(t, route, 'tides', a.key);
      },
    ],
  ]),
  [
    'DELETE /v1/lab/pages/{slug}',
    'RESIDENCY_STOPPED',
    'a stopped residency (refused before the handler)',
    async (t, a) => {
      await t.publish(a.key, 'tides', site());
      stopResidency(t, a);
      return t.call('DELETE', '/v1/lab/pages/tides', { key: a.key });
    },
  ],
  // The publish: the audit's three (the body's validation, before the handler), then the rest.
  [PUT, 'LAB_INVALID', 'no files at all (validation)', (t, a) => t.publish(a.key, 'p2', { files: [] })],
  [
    PUT,
    'LAB_INVALID',
    'an unknown encoding (validation)',
    (t, a) => t.publish(a.key, 'p2', { files: [{ path: 'index.html', content: 'x', encoding: 'utf16' }] }),
  ],
  [
    PUT,
    'LAB_TOO_LARGE',
    '61 files (validation)',
    (t, a) => t.publish(a.key, 'p2', { files: Array.from({ length: 61 }, (_, i) => ({ path: i ? `f${i}.txt` : 'index.html', content: 'x' })) }),
  ],
  [
    PUT,
    'LAB_INVALID',
    'a title that is not a string (validation)',
    (t, a) => t.publish(a.key, 'p2', { title: 5, files: [{ path: 'index.html', content: 'x' }] }),
  ],
  [
    PUT,
    'LAB_BAD_PATH',
    'a path over 1000 characters (validation)',
    (t, a) => t.publish(a.key, 'p2', site([{ path: `${'a'.repeat(1001)}.txt`, content: 'x' }])),
  ],
  [PUT, 'LAB_INVALID', 'broken base64', (t, a) => t.publish(a.key, 'p2', site([{ path: 'a.png', content: '@@@', encoding: 'base64' }]))],
  [PUT, 'LAB_TOO_LARGE', 'a 513 KB file', (t, a) => t.publish(a.key, 'p2', site([{ path: 'big.txt', content: 'a'.repeat(513 * 1024) }]))],
  [PUT, 'LAB_BAD_PATH', 'a bad slug', (t, a) => t.publish(a.key, 'A', site())],
  [PUT, 'LAB_BAD_PATH', 'no index.html (the scan)', (t, a) => t.publish(a.key, 'p2', { files: [{ path: 'home.html', content: html('<p>hi</p>') }] })],
  [PUT, 'LAB_NOT_ALLOWED', 'an account off the lab list', async (t) => t.publish((await t.register('bobby', { lab: false })).key, 'p2', site())],
  [PUT, 'SECRET_LIKE', 'an AWS key id in the title', (t, a) => t.publish(a.key, 'p2', { ...site(), title: 'AKIAIOSFODNN7EXAMPLE' })],
  [PUT, 'SECRET_LIKE', 'an AWS key id in a file', (t, a) => t.publish(a.key, 'p2', site([{ path: 'k.txt', content: 'AKIAIOSFODNN7EXAMPLE' }]))],
  [PUT, 'LAB_WALLET_CODE', 'wallet code', (t, a) => t.publish(a.key, 'p2', site([{ path: 'w.js', content: "const p = window['eth' + 'ereum']" }]))],
  [
    PUT,
    'LAB_EXTERNAL_SCRIPT',
    'a script from another host',
    (t, a) => t.publish(a.key, 'p2', site([], '<p>hi</p><script src="https://cdn.example/x.js"></script>')),
  ],
  [
    PUT,
    'LAB_EXTERNAL_REDIRECT',
    'a redirect from a script',
    (t, a) => t.publish(a.key, 'p2', site([{ path: 'r.js', content: "window['loc' + 'ation'] = 'https://elsewhere.example/'" }])),
  ],
  [
    PUT,
    'LAB_CREDIT_TAMPER',
    'a rule hiding the credit bar',
    (t, a) => t.publish(a.key, 'p2', site([{ path: 'hide.css', content: '.svc-credit { display: none }' }])),
  ],
  [
    PUT,
    'LAB_PRICE_TALK',
    'price talk in visible text',
    (t, a) => t.publish(a.key, 'p2', site([], '<h1>Our token</h1><p>This token is going to 10x by Friday.</p>')),
  ],
  [
    PUT,
    'LAB_SELF_PITCH',
    'self pitch in visible text',
    (t, a) => t.publish(a.key, 'p2', site([], '<p>We are the best team on the board, and here is why.</p>')),
  ],
  [PUT, 'LAB_BAD_TYPE', 'a .png holding a page', (t, a) => t.publish(a.key, 'p2', site([{ path: 'x.png', content: html('<p>not an image</p>') }]))],
  [
    PUT,
    'LAB_QUOTA',
    'a sixth project',
    async (t, a) => {
      for (const s of ['p1', 'p2', 'p3', 'p4', 'p5']) expect((await t.publish(a.key, s, site())).status).toBe(201);
      return t.publish(a.key, 'p6', site());
    },
  ],
  [
    PUT,
    'LAB_TAKEN_DOWN',
    'a slug taken down',
    async (t, a) => {
      takedownLabPage(t.ctx, a.name, 'p2');
      return t.publish(a.key, 'p2', site());
    },
  ],
  [
    PUT,
    'LAB_STORAGE_UNAVAILABLE',
    'storage failing',
    async (t, a) => {
      setLabWriter(t.ctx, {
        insert: () => {
          throw new Error('disk full');
        },
      });
      try {
        return await t.publish(a.key, 'p2', site());
      } finally {
        setLabWriter(t.ctx, dbWriter);
      }
    },
  ],
  [PUT, 'IDEMPOTENCY_KEY_REQUIRED', 'no Idempotency-Key', (t, a) => t.call('PUT', '/v1/lab/pages/p2', { key: a.key, body: site() })],
  [PUT, 'INVALID_IDEMPOTENCY_KEY', 'an Idempotency-Key that is no uuid', (t, a) => t.publish(a.key, 'p2', site(), 'not-a-uuid')],
  [
    PUT,
    'IDEMPOTENCY_CONFLICT',
    'a key used for another site',
    async (t, a) => {
      const idem = crypto.randomUUID();
      await t.publish(a.key, 'p1', site(), idem);
      return t.publish(a.key, 'p2', site(), idem);
    },
  ],
  [
    PUT,
    'RESIDENCY_STOPPED',
    'a stopped residency (refused before the handler)',
    async (t, a) => {
      stopResidency(t, a);
      return t.publish(a.key, 'p2', site());
    },
  ],
];

describe('every lab refusal carries quota', () => {
  // Rest parameters: a fixed arity above a row's length would make bun pass a done callback.
  test.each(cases)('%s → %s: %s', async (...[, code, , run]: Case) => {
    const t = makeLabApp();
    const a = await t.register('alice');
    const r = await run(t, a);
    expect(r.json.error?.code).toBe(code);
    const quota = r.json.error.details?.quota;
    expect(Object.keys(quota ?? {}).sort()).toEqual(QUOTA_MEMBERS);
    // The caller's own allowance as it stands after the refusal (which cost nothing).
    const now = await t.call('GET', '/v1/lab/pages', { key: a.key });
    if (now.status === 200) expect(quota).toEqual(now.json.quota);
  });

  test('a refusal before the key is checked (401) has no caller, so no quota', async () => {
    const t = makeLabApp();
    const r = await t.publish(`svc_${'A1b2C3d4E5'.repeat(4)}`, 'p2', { files: [] });
    expect(r.status).toBe(401);
    expect(r.json.error.details?.quota).toBeUndefined();
  });
});

describe('no lab route can answer a code without it', () => {
  test('every code a lab route declares in /openapi.json has a case above', async () => {
    const spec = await servedSpec(makeLabApp());
    const covered = new Set(cases.map(([route, code]) => `${route} ${code}`));
    const missing: string[] = [];
    let routes = 0;
    for (const [path, ops] of Object.entries(spec.paths as Record<string, Record<string, { 'x-svc-errors'?: string[] }>>)) {
      if (!path.startsWith('/v1/lab/')) continue;
      for (const [method, op] of Object.entries(ops)) {
        routes++;
        for (const code of op['x-svc-errors'] ?? []) {
          const name = `${method.toUpperCase()} ${path} ${code}`;
          if (!BEFORE_THE_KEY.has(code) && !covered.has(name)) missing.push(name);
        }
      }
    }
    expect(routes).toBe(5);
    expect(missing).toEqual([]);
  });

  test('every lab write adds quota to refusals from before its handler; no lab read can fail outside its handler', () => {
    const t = makeLabApp();
    type Hook = { fn?: unknown; scope?: string };
    const hooks = (h: unknown): Hook[] => (Array.isArray(h) ? h : h ? [h as Hook] : []);
    const lab = (t.app.routes as unknown as { method: string; path: string; hooks: Record<string, unknown> }[]).filter((r) => r.path.startsWith('/v1/lab/'));
    expect(lab.length).toBe(5);
    for (const r of lab) {
      if (r.method !== 'GET') {
        expect({ route: `${r.method} ${r.path}`, hook: hooks(r.hooks.mapResponse).some((h) => isQuotaOnRefusals(h.fn)) }).toEqual({
          route: `${r.method} ${r.path}`,
          hook: true,
        });
        continue;
      }
      // A read: after the key check only its handler (wrapped by withLabQuota) can refuse. A query,
      // body or header schema, or a hook of its own, would add a refusal outside it: give the read
      // quotaOnRefusals too (it then loses the MCP server's direct call, src/mcp/dispatch.ts).
      const own = [...hooks(r.hooks.transform), ...hooks(r.hooks.beforeHandle)].filter((h) => h.scope !== 'global' && authHookOf(h.fn) === null);
      expect({ route: r.path, query: r.hooks.query ?? null, body: r.hooks.body ?? null, headers: r.hooks.headers ?? null, own: own.length }).toEqual({
        route: r.path,
        query: null,
        body: null,
        headers: null,
        own: 0,
      });
    }
  });
});
