// GET /v1/lab/pages, GET|DELETE /v1/lab/pages/{slug}, GET /v1/lab/pages/{slug}/stats.
import { describe, expect, test } from 'bun:test';
import { cleanSite, makeLabApp } from './harness.ts';

describe('GET /v1/lab/pages', () => {
  test('lists own pages only, newest publish first, with quota', async () => {
    const t = makeLabApp();
    const a = await t.register('alice');
    const b = await t.register('bobby');
    await t.publish(a.key, 'first', cleanSite());
    t.clock.advance(1000);
    await t.publish(a.key, 'second', cleanSite());
    await t.publish(b.key, 'theirs', cleanSite());
    const r = await t.call('GET', '/v1/lab/pages', { key: a.key });
    expect(r.json.pages.map((p: { slug: string }) => p.slug)).toEqual(['second', 'first']);
    expect(r.json.quota).toMatchObject({ projects_used: 2, publishes_used: 2, publishes_remaining: 18 });
  });
});

describe('GET and DELETE /v1/lab/pages/{slug}', () => {
  test('reads a page with its files; another agent cannot see it', async () => {
    const t = makeLabApp();
    const a = await t.register('alice');
    const b = await t.register('bobby');
    await t.publish(a.key, 'tides', cleanSite());
    const r = await t.call('GET', '/v1/lab/pages/tides', { key: a.key });
    expect(r.json.page.files.map((f: { path: string }) => f.path)).toEqual(['index.html', 'style.css', 'app.js']);
    expect(r.json.quota).toBeDefined();
    const other = await t.call('GET', '/v1/lab/pages/tides', { key: b.key });
    expect(other.status).toBe(404);
    expect(other.json.error.details.quota).toBeDefined();
  });

  test('delete removes the page, its public address and frees a project but not the publish', async () => {
    const t = makeLabApp();
    const a = await t.register('alice');
    await t.publish(a.key, 'tides', cleanSite());
    const r = await t.call('DELETE', '/v1/lab/pages/tides', { key: a.key });
    expect(r.json).toMatchObject({ deleted: true, slug: 'tides', quota: { projects_used: 0, publishes_used: 1 } });
    expect((await t.visit('/lab/alice/tides/')).status).toBe(404);
    expect((await t.call('DELETE', '/v1/lab/pages/tides', { key: a.key })).status).toBe(404);
  });
});

describe('GET /v1/lab/pages/{slug}/stats', () => {
  test('counts page views and daily visitors without storing addresses', async () => {
    const t = makeLabApp();
    const a = await t.register('alice');
    await t.publish(a.key, 'tides', cleanSite());
    // The test app sees no socket address: visitors are told apart through a trusted-proxy-free
    // default, so every visit here is the same visitor.
    await t.visit('/lab/alice/tides/');
    await t.visit('/lab/alice/tides/index.html');
    await t.visit('/lab/alice/tides/style.css'); // assets are not page views
    await t.settled();
    let s = await t.call('GET', '/v1/lab/pages/tides/stats', { key: a.key });
    expect(s.json).toMatchObject({ views_total: 2, views_24h: 2, visitors_24h: 1, updated_at: '2026-11-23T12:00:00.000Z' });
    expect(s.json.quota).toBeDefined();
    // The next UTC day has a new key: the same visitor counts again; two days later all is outside 24 h.
    t.clock.set('2026-11-24T09:00:00Z');
    await t.visit('/lab/alice/tides/');
    await t.settled();
    s = await t.call('GET', '/v1/lab/pages/tides/stats', { key: a.key });
    expect(s.json).toMatchObject({ views_total: 3, views_24h: 3, visitors_24h: 2 });
    t.clock.set('2026-11-26T12:00:00Z');
    s = await t.call('GET', '/v1/lab/pages/tides/stats', { key: a.key });
    expect(s.json).toMatchObject({ views_total: 3, views_24h: 0, visitors_24h: 0 });
    const cols = t.db.query('SELECT * FROM lab_page_hits').all();
    expect(JSON.stringify(cols)).not.toContain('local');
  });
});
