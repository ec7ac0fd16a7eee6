// Issue 28 item 7 for lab sites: a page whose author gave no viewport tag gets the usual one (a
// phone would otherwise lay it out 980 px wide), an author's own tag is kept as it is, and the
// Permissions-Policy names only features Chromium knows (no `bluetooth`, which it warns about).
import { describe, expect, test } from 'bun:test';
import { VIEWPORT_META, withDescription, withViewport } from '../../src/lab/pages/kit.ts';
import { makeLabApp } from './pages/harness.ts';

describe('withViewport', () => {
  test('after <head>, else <html>, else the doctype (never before it), else first; an author’s own tag is kept', () => {
    expect(withViewport('<!doctype html><html lang="en"><head><title>t</title></head><body>x</body></html>')).toBe(
      `<!doctype html><html lang="en"><head>${VIEWPORT_META}<title>t</title></head><body>x</body></html>`,
    );
    expect(withViewport('<!DOCTYPE html><HTML><body>x</body></HTML>')).toBe(`<!DOCTYPE html><HTML>${VIEWPORT_META}<body>x</body></HTML>`);
    expect(withViewport('<!doctype html><p>x')).toBe(`<!doctype html>${VIEWPORT_META}<p>x`);
    expect(withViewport('<p>x</p>')).toBe(`${VIEWPORT_META}<p>x</p>`);
    const own = '<html><head><META NAME=viewport content="width=600"></head></html>';
    expect(withViewport(own)).toBe(own);
    expect(withViewport(`<head><meta content="width=device-width" name='viewport'></head>`)).toBe(
      `<head><meta content="width=device-width" name='viewport'></head>`,
    );
  });
});

describe('withDescription', () => {
  test('a page without one gets a description naming its title (else its slug) and author, escaped; an author’s own is kept', () => {
    const page = { title: 'Tides <b>"now"</b>', slug: 'tides', agent: 'tidemaker' };
    expect(withDescription('<html><head><title>t</title></head></html>', page)).toBe(
      '<html><head><meta name="description" content="Tides &lt;b&gt;&quot;now&quot;&lt;/b&gt;: a lab page by tidemaker on svc. Agent-written; not checked by people."><title>t</title></head></html>',
    );
    expect(withDescription('<p>x</p>', { ...page, title: null })).toStartWith('<meta name="description" content="tides: a lab page by tidemaker');
    const own = `<head><META content="Mine" NAME='description'></head>`;
    expect(withDescription(own, page)).toBe(own);
  });
});

describe('a served lab page', () => {
  test('gets one viewport tag when it had none, keeps its own otherwise; no bluetooth in Permissions-Policy', async () => {
    const lab = makeLabApp();
    const owner = await lab.register('tidemaker');
    const bare = '<!doctype html><html><head><title>Tides</title></head><body><h1>Tides</h1></body></html>';
    const own = '<!doctype html><html><head><meta name="viewport" content="width=500"><title>Own</title></head><body><h1>Own</h1></body></html>';
    const r = await lab.publish(owner.key, 'tides', {
      title: 'Tides',
      files: [
        { path: 'index.html', content: bare },
        { path: 'own.html', content: own },
      ],
    });
    expect(r.status).toBe(201);
    const page = await lab.visit('/lab/tidemaker/tides/');
    expect(page.status).toBe(200);
    expect(page.text.match(/<meta name="viewport"/g)?.length).toBe(1);
    const described = '<meta name="description" content="Tides: a lab page by tidemaker on svc. Agent-written; not checked by people.">';
    expect(page.text.startsWith(`<!doctype html><html><head>${VIEWPORT_META}${described}<title>Tides</title>`)).toBe(true);
    const policy = page.headers.get('permissions-policy')!;
    expect(policy).toBe('camera=(), microphone=(), geolocation=(), payment=(), usb=(), serial=()');
    expect(policy).not.toContain('bluetooth');
    const kept = await lab.visit('/lab/tidemaker/tides/own.html');
    expect(kept.text.match(/<meta name="viewport"[^>]*>/g)).toEqual(['<meta name="viewport" content="width=500">']);
  });
});
