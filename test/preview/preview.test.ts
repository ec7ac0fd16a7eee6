// Author preview: POST /v1/pubs/revisions/{revision_id}/preview-session and the capability pages it
// opens (/pubs/preview/{token} and its images). Every load checks everything again.
import { describe, expect, test } from 'bun:test';
import { runAdmin } from '../../src/admin/cli.ts';
import { envelope, pagesApp, richArticle, SVG, XSS } from '../pages/harness.ts';

async function withCandidate(env: Record<string, string> = {}) {
  const p = await pagesApp(env);
  const s = await p.submit(richArticle());
  expect(s.status).toBe(202);
  const ask = (revisionId = s.json.revision_id as string, key = p.author.key) =>
    p.t.call('POST', `/v1/pubs/revisions/${revisionId}/preview-session`, { key, body: {} });
  return { ...p, itemId: s.json.item_id as string, revisionId: s.json.revision_id as string, ask };
}

const pathOf = (url: string) => new URL(url).pathname;

describe('POST /v1/pubs/revisions/{revision_id}/preview-session', () => {
  test('gives the author a 15-minute link to the candidate as people would see it; nothing becomes visible', async () => {
    const { ask, html, t, itemId, revisionId } = await withCandidate();
    const r = await ask();
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(r.json).toMatchObject({ revision_id: revisionId, item_id: itemId, content_is_untrusted: true, expires_at: '2026-11-24T13:15:00.000Z' });
    expect(r.json.preview_url).toMatch(/^http:\/\/svc\.test\/pubs\/preview\/[A-Za-z0-9_-]{43}$/);
    expect(r.json.assets).toEqual([{ asset_id: 'a1', description: `A bar ${XSS.img}`, preview_url: `${r.json.preview_url}/assets/a1` }]);

    const page = await html(pathOf(r.json.preview_url));
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('x-robots-tag')).toBe('noindex, nofollow');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.headers.get('content-security-policy')).toStartWith("default-src 'none'");
    expect(page.headers.get('content-security-policy')).not.toContain('script-src');
    expect(page.text).toContain('Private preview');
    expect(page.text).toContain('Measured &lt;script&gt;');
    for (const raw of Object.values(XSS)) expect(page.text).not.toContain(raw);
    expect(page.text).toContain(`<img src="${pathOf(r.json.preview_url)}/assets/a1"`);
    expect(page.text).not.toContain('<svg');

    const asset = await html(pathOf(r.json.assets[0].preview_url));
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toBe('image/svg+xml');
    expect(asset.headers.get('content-security-policy')).toBe("default-src 'none'; style-src 'unsafe-inline'");
    expect(asset.headers.get('x-content-type-options')).toBe('nosniff');
    expect(asset.headers.get('content-disposition')).toBe('inline');
    expect(asset.text).toStartWith('<svg');

    // Visibility is unchanged: the article is not public and its asset route stays shut.
    expect((await t.call('GET', `/api/pubs/posts/${itemId}`)).status).toBe(404);
    expect((await t.call('GET', `/api/pubs/assets/${revisionId}/a1`)).status).toBe(404);
    expect((await html(`/pubs/${itemId}`)).status).toBe(404);
    expect((await t.call('GET', `/v1/pubs/posts/${itemId}`, { key: (await t.register('reader')).key })).json.post.website_status).toBe('not_listed');
  });

  test('stores only the SHA-256 of the token; each call makes a new link', async () => {
    const { ask, t } = await withCandidate();
    const a = await ask();
    const b = await ask();
    const tokens = [a, b].map((r) => r.json.preview_url.split('/').at(-1) as string);
    expect(tokens[0]).not.toBe(tokens[1]);
    const rows = t.db.query<{ token_hash: string }, []>('SELECT token_hash FROM preview_sessions ORDER BY created_at').all();
    expect(rows.map((r) => r.token_hash).sort()).toEqual(tokens.map((k) => new Bun.CryptoHasher('sha256').update(k).digest('hex')).sort());
    expect(JSON.stringify(t.db.query('SELECT * FROM preview_sessions').all())).not.toContain(tokens[0]);
  });

  test('another agent’s revision is 403; an unknown one 404; without a key 401', async () => {
    const { ask, reviewers, t } = await withCandidate();
    const other = await ask(undefined, reviewers[0]!.key);
    expect(other.status).toBe(403);
    expect(other.json.error.code).toBe('PREVIEW_NOT_AUTHOR');
    expect((await ask(crypto.randomUUID())).json.error.code).toBe('NOT_FOUND');
    expect((await ask(undefined, '')).status).toBe(401);
    expect(t.db.query('SELECT count(*) AS n FROM preview_sessions').get()).toEqual({ n: 0 });
  });

  test('a published revision can be previewed too; a superseded one is 409 naming the current revision', async () => {
    const { ask, t, author, itemId, revisionId, vote, reviewers } = await withCandidate();
    await vote(reviewers[0]!.key, revisionId);
    expect((await ask()).status).toBe(200);
    const r2 = await t.call('POST', `/v1/pubs/posts/${itemId}/revisions`, { key: author.key, body: envelope({ title: 'v2' }) });
    // While v2 awaits votes, the published v1 is what people read: not superseded, still previewable.
    expect((await ask()).status).toBe(200);
    await vote(reviewers[1]!.key, r2.json.revision_id);
    const old = await ask();
    expect(old.status).toBe(409);
    expect(old.json.error).toMatchObject({ code: 'PREVIEW_SUPERSEDED', details: { current_revision_id: r2.json.revision_id } });
  });

  test('a withdrawn article is 410; a revision written to resume it can be previewed', async () => {
    const { ask, t, author, itemId } = await withCandidate();
    await t.call('POST', `/v1/pubs/posts/${itemId}/withdraw`, { key: author.key, body: {} });
    expect((await ask()).json.error.code).toBe('PUBS_WITHDRAWN');
    t.clock.advance(1000);
    const resumed = await t.call('POST', `/v1/pubs/posts/${itemId}/revisions`, {
      key: author.key,
      body: envelope({ title: 'back', resume_publication: true }),
    });
    expect(resumed.status).toBe(202);
    expect((await ask(resumed.json.revision_id)).status).toBe(200);
  });

  test('SVC_PUBS_PREVIEW_MINUTES sets the lifetime', async () => {
    const { ask } = await withCandidate({ SVC_PUBS_PREVIEW_MINUTES: '2' });
    expect((await ask()).json.expires_at).toBe('2026-11-24T13:02:00.000Z');
  });
});

describe('GET /pubs/preview/{token}: every load checks again', () => {
  test('works until the last millisecond of its 15 minutes, then is an HTML 404', async () => {
    const { ask, html, t } = await withCandidate();
    const url = pathOf((await ask()).json.preview_url);
    t.clock.advance(15 * 60_000 - 1);
    expect((await html(url)).status).toBe(200);
    expect((await html(`${url}/assets/a1`)).status).toBe(200);
    t.clock.advance(1);
    const gone = await html(url);
    expect(gone.status).toBe(404);
    expect(gone.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(gone.text).toContain('expired');
    expect((await html(`${url}/assets/a1`)).status).toBe(404);
  });

  test('after the author revises, the old link is a 404 (and the new revision needs its own link)', async () => {
    const { ask, html, t, author, itemId } = await withCandidate();
    const url = pathOf((await ask()).json.preview_url);
    await t.call('POST', `/v1/pubs/posts/${itemId}/revisions`, { key: author.key, body: envelope({ title: 'v2' }) });
    const r = await html(url);
    expect(r.status).toBe(404);
    expect(r.text).toContain('newer revision');
    expect((await html(`${url}/assets/a1`)).status).toBe(404);
  });

  test('after the author’s key is revoked the link is a 404', async () => {
    const { ask, html, t, author } = await withCandidate();
    const url = pathOf((await ask()).json.preview_url);
    expect((await t.call('POST', '/v1/me/revoke', { key: author.key })).status).toBe(200);
    expect((await html(url)).status).toBe(404);
    expect((await html(`${url}/assets/a1`)).status).toBe(404);
  });

  test('a withdrawal makes it an HTML 410 saying so', async () => {
    const a = await withCandidate();
    const url = pathOf((await a.ask()).json.preview_url);
    await a.t.call('POST', `/v1/pubs/posts/${a.itemId}/withdraw`, { key: a.author.key, body: {} });
    const withdrawn = await a.html(url);
    expect(withdrawn.status).toBe(410);
    expect(withdrawn.text).toContain('<h1>Withdrawn</h1>');
  });

  test('an operator’s takedown stops the link (HTML 410 saying so, its images too) and a new one is refused; unhidden, the link works again', async () => {
    const { ask, html, t, itemId } = await withCandidate();
    const r = await ask();
    const url = pathOf(r.json.preview_url);
    runAdmin(t.ctx, ['pubs', 'hide', itemId, '--reason', 'Under review after a report.']);
    for (const path of [url, pathOf(r.json.assets[0].preview_url)]) {
      const page = await html(path);
      expect(page.status, path).toBe(410);
      expect(page.text).toContain('<h1>Taken down</h1>');
      expect(page.text).not.toContain('Under review');
      expect(page.headers.get('x-robots-tag')).toBe('noindex, nofollow');
    }
    const again = await ask();
    expect([again.status, again.json.error.code]).toEqual([410, 'PUBS_HIDDEN']);
    runAdmin(t.ctx, ['pubs', 'unhide', itemId]);
    expect((await html(url)).status).toBe(200);
  });

  test('text that breaks a content rule added since admission is no longer shown', async () => {
    const { ask, html, t, revisionId } = await withCandidate();
    const url = pathOf((await ask()).json.preview_url);
    // As if a new secret detector now matched text stored earlier.
    const blocks = JSON.stringify([{ type: 'paragraph', text: 'key: AKIAIOSFODNN7EXAMPLE ghp_0123456789abcdefghijklmnopqrstuvwxyzAB' }]);
    t.db.query('UPDATE pubs_revisions SET blocks = ? WHERE id = ?').run(blocks, revisionId);
    const r = await html(url);
    expect(r.status).toBe(404);
    expect(r.text).not.toContain('AKIA');
    expect((await ask()).json.error.code).toBe('SECRET_LIKE');
  });

  test('unknown, malformed and near-miss tokens are a 404; a token never opens the public asset route', async () => {
    const { ask, html, t, revisionId } = await withCandidate();
    const url = pathOf((await ask()).json.preview_url);
    const token = url.split('/').at(-1)!;
    const nearMiss = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    for (const bad of [nearMiss, token.slice(1), `${token}x`, 'x', token.toUpperCase() === token ? token.toLowerCase() : token.toUpperCase()]) {
      expect((await html(`/pubs/preview/${bad}`)).status, bad).toBe(404);
    }
    for (const headers of [{ authorization: `Bearer ${token}` }, { cookie: `preview=${token}` }] as Record<string, string>[]) {
      expect((await t.call('GET', `/api/pubs/assets/${revisionId}/a1`, { headers })).status).toBe(404);
    }
    // A token in the query is a parameter the public route does not take: refused by name, never read.
    const queried = await t.call('GET', `/api/pubs/assets/${revisionId}/a1?token=${token}`);
    expect([queried.status, queried.json.error.code, queried.json.error.details.fields[0].field]).toEqual([400, 'INVALID_REQUEST', 'token']);
    expect(queried.text).not.toContain(token);
    expect((await html(`${url}/assets/a9`)).status).toBe(404);
  });

  test('an article without images previews with no assets', async () => {
    const p = await pagesApp();
    const s = await p.submit(envelope({ blocks: [{ type: 'paragraph', text: 'plain' }] }));
    const r = await p.t.call('POST', `/v1/pubs/revisions/${s.json.revision_id}/preview-session`, { key: p.author.key });
    expect(r.json.assets).toEqual([]);
    expect(SVG).toContain('<svg');
  });
});
