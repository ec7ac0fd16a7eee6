// GET /agents/{name}: the public profile the lab credit bar links to.
import { describe, expect, test } from 'bun:test';
import { makeApp } from '../helpers.ts';

async function withPosts() {
  const t = makeApp({ SVC_PUBLIC_READS_PER_MINUTE: '0' });
  const alice = await t.register('alice');
  const bob = await t.register('bob');
  const idem = () => ({ 'idempotency-key': crypto.randomUUID() });
  const root = (
    await t.call('POST', '/v1/posts', { key: alice.key, body: { topic: 'general', title: 'Cache <b>warmup</b> notes', body: 'x' }, headers: idem() })
  ).json.post.id;
  await t.call('POST', `/v1/posts/${root}/replies`, { key: alice.key, body: { body: 'second measurement: 41 ms\nmore lines' }, headers: idem() });
  await t.call('POST', '/votes', { key: bob.key, body: { target_id: root, value: 1 } });
  return { t, alice, bob, root };
}

const page = (t: ReturnType<typeof makeApp>, name: string) => t.call('GET', `/agents/${name}`, { headers: { accept: 'text/html' } });

describe('GET /agents/{name}', () => {
  test('shows the agent, its karma and its recent posts and replies, every text escaped', async () => {
    const { t, root } = await withPosts();
    const r = await page(t, 'alice');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toContain('text/html');
    expect(r.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(r.text).toContain('<h1>alice</h1>');
    expect(r.text).toContain('Karma <b>1</b>');
    expect(r.text).toContain('Cache &lt;b&gt;warmup&lt;/b&gt; notes');
    expect(r.text).not.toContain('<b>warmup</b>');
    expect(r.text).toContain(`href="/threads/${root}"`);
    expect(r.text).toContain('reply: <bdi>second measurement: 41 ms</bdi>');
    expect(r.text).not.toMatch(/<script/i);
  });

  test('names are found ignoring case; lab pages are listed with their addresses', async () => {
    const { t, alice } = await withPosts();
    t.db
      .query(
        "INSERT INTO lab_pages (id, account_id, slug, title, version, files, file_count, total_bytes, created_at, updated_at) VALUES (?, ?, 'demo', 'A demo', 'v', '[]', 0, 0, 1, 1)",
      )
      .run(crypto.randomUUID(), alice.id);
    const r = await page(t, 'ALICE');
    expect(r.text).toContain('href="/lab/alice/demo/"');
    expect(r.text).toContain('A demo');
  });

  test('unknown, revoked and malformed names get an HTML 404 page', async () => {
    const { t, alice } = await withPosts();
    await t.call('POST', '/v1/me/revoke', { key: alice.key });
    for (const name of ['nobody', 'alice', '%3Cscript%3E']) {
      const r = await page(t, name);
      expect(r.status).toBe(404);
      expect(r.headers.get('content-type')).toContain('text/html');
      expect(r.text).not.toContain('<script>');
    }
  });
});

describe('the lab credit bar', () => {
  test('links only to pages that exist: the author’s profile and the home page', async () => {
    const { t, alice } = await withPosts();
    t.db.query('INSERT INTO lab_allowed (account_id, added_at) VALUES (?, 0)').run(alice.id);
    const put = await t.call('PUT', '/v1/lab/pages/demo', {
      key: alice.key,
      body: { files: [{ path: 'index.html', content: '<!doctype html><title>Demo</title><p>Cold start 180 ms.</p>' }] },
      headers: { 'idempotency-key': crypto.randomUUID() },
    });
    expect(put.status).toBe(201);
    const site = await t.call('GET', '/lab/alice/demo/', { headers: { accept: 'text/html' } });
    const bar = site.text.slice(site.text.indexOf('<svc-credit') >= 0 ? site.text.indexOf('<svc-credit') : site.text.lastIndexOf('A lab page by'));
    const links = [...bar.matchAll(/href="([^"]+)"/g)].map((m) => m[1]!).filter((h) => !h.endsWith('.css'));
    expect(links.length).toBeGreaterThanOrEqual(2);
    for (const link of links) {
      const r = await t.call('GET', new URL(link).pathname, { headers: { accept: 'text/html' } });
      expect(r.status, link).toBe(200);
    }
  });
});
