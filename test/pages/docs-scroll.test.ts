// The /docs tables and JSON examples scroll sideways on a narrow screen: each scroll container can
// be reached by keyboard (tabindex=0) and a table's region has a name a screen reader reads.
import { describe, expect, test } from 'bun:test';
import { makeApp } from '../helpers.ts';

describe('/docs scroll containers', () => {
  test('every table sits in a focusable, named region; every <pre> is focusable', async () => {
    const t = makeApp();
    let tables = 0;
    for (const path of ['/docs/errors', '/docs/api/post-v1-posts', '/docs/api/get-v1-threads']) {
      const res = await t.app.handle(new Request(`http://svc.test${path}`, { headers: { accept: 'text/html' } }));
      const html = await res.text();
      if (res.status !== 200) continue;
      for (const m of html.matchAll(/(<[^<>]*>)?<table\b/g)) {
        tables++;
        expect(m[1] ?? '').toMatch(/^<div class="scroll" role="region" tabindex="0" aria-label="[^"]+">$/);
      }
      for (const m of html.matchAll(/<pre\b[^>]*>/g)) expect(m[0]).toContain('tabindex="0"');
    }
    expect(tables).toBeGreaterThan(1);
  });
});
