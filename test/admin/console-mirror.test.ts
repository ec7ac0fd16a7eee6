// The console's Articles and Mirror pages: lists from the same actions as `svc admin`, each change a
// CSRF form answered 303 to the page, which shows the result once; never a fetcher credential on a page.
import { describe, expect, test } from 'bun:test';
import { runAdmin } from '../../src/admin/cli.ts';
import { commentsApp } from '../comments/harness.ts';
import { makeExtApp, post } from '../ext/harness.ts';
import { act, send, signedIn } from './console-harness.ts';

describe('the Mirror page', () => {
  test('lists posts and credentials; the original is read (and audited) and the post withdrawn from it', async () => {
    const t = makeExtApp();
    await t.ingestOk([post({ text: 'Plain <b>outside</b> text' })]);
    const id = (t.db.query('SELECT id FROM ext_posts').get() as { id: string }).id;
    const [cred] = (runAdmin(t.ctx, ['fetcher', 'list']) as any).credentials;
    const s = await signedIn(t);
    const page = await send(t, 'GET', '/console/mirror', { cookie: s.cookie });
    expect(page.status).toBe(200);
    expect(page.text).toContain(id);
    expect(page.text).toContain(cred.credential_id);
    expect(page.text).not.toContain(t.fetcher);
    expect(page.text).not.toContain('<b>outside</b>');
    expect(page.text).toContain('action="/console/act/mirror-original"');
    expect(page.text).toContain('action="/console/act/fetcher-revoke"');

    const read = await act(t, s, 'mirror original', { back: 'mirror', post_id: id });
    expect([read.posted, read.location, read.status]).toEqual([303, '/console/mirror', 200]);
    expect(read.text).toContain('<h1>Mirror</h1>');
    expect(read.text).toContain('&lt;b&gt;outside&lt;/b&gt;');
    expect(t.db.query("SELECT count(*) AS n FROM ext_audit WHERE action = 'read_original'").get()).toEqual({ n: 1 });

    const noReason = await send(t, 'POST', '/console/act/mirror-withdraw', { cookie: s.cookie, form: { csrf: s.csrf, back: 'mirror', post_id: id } });
    expect(noReason.status).toBe(400);
    expect(noReason.text).toContain('<h1>Mirror</h1>');
    const done = await act(t, s, 'mirror withdraw', { post_id: id, reason: 'Personal details.' });
    expect(done.result).toMatchObject({ id, withdrawn: true, changed: true });
    expect((await send(t, 'GET', '/console/mirror', { cookie: s.cookie })).text).toContain('withdrawn');
  });

  test('an operator sees the credentials but may not revoke one', async () => {
    const t = makeExtApp();
    const [cred] = (runAdmin(t.ctx, ['fetcher', 'list']) as any).credentials;
    const s = await signedIn(t, 'opsy', 'operator');
    const page = await send(t, 'GET', '/console/mirror', { cookie: s.cookie });
    expect(page.text).toContain(cred.credential_id);
    expect(page.text).not.toContain('action="/console/act/fetcher-revoke"');
    const r = await act(t, s, 'fetcher revoke', { credential_id: cred.credential_id });
    expect([r.status, r.error]).toEqual([403, 'Only owner may fetcher revoke.']);
  });
});

describe('the Articles page', () => {
  test('renders with no article yet and hides a comment by id with the action’s own error text', async () => {
    const t = makeExtApp();
    const s = await signedIn(t);
    const page = await send(t, 'GET', '/console/articles', { cookie: s.cookie });
    expect(page.status).toBe(200);
    expect(page.text).toContain('No article yet.');
    expect(page.text).toContain('action="/console/act/pubs-comments-hide"');
    const r = await send(t, 'POST', '/console/act/pubs-comments-hide', { cookie: s.cookie, form: { csrf: s.csrf, back: 'articles', comment_id: 'nope' } });
    expect(r.status).toBe(400);
    expect(r.text).toContain('no visible comment nope');
    expect(r.text).toContain('<h1>Articles</h1>');
  });
});

describe('the Articles page with an article', () => {
  test('lists it published; hide and unhide from the page, each in the modlog with its reason', async () => {
    const h = await commentsApp();
    const { t } = h;
    const s = await signedIn(t);
    const id = h.article.postId;
    const listed = (runAdmin(t.ctx, ['pubs', 'articles']) as any).articles;
    expect(listed).toMatchObject([{ post_id: id, state: 'published' }]);
    const page = await send(t, 'GET', '/console/articles', { cookie: s.cookie });
    expect(page.text).toContain(id);
    expect(page.text).toContain('<em>published</em>');
    const hidden = await act(t, s, 'pubs hide', { back: 'articles', post_id: id, reason: 'Copied.' });
    expect([hidden.posted, hidden.location, hidden.status]).toEqual([303, '/console/articles', 200]);
    expect(hidden.text).toContain('<em>hidden</em>');
    expect(hidden.text).toContain('action="/console/act/pubs-unhide"');
    const shown = await act(t, s, 'pubs unhide', { post_id: id, reason: 'Theirs after all.' });
    expect(shown.result).toMatchObject({ article: { state: 'published' }, changed: true });
    const log = await t.call('GET', '/api/modlog', { headers: { 'x-agent-protocol': '', accept: '' } });
    // (after the owner's role grant of signing in)
    expect(log.json.entries.slice(0, 2).map((e: any) => [e.action, e.target.id, e.reason])).toEqual([
      ['article_restored', id, 'Theirs after all.'],
      ['article_hidden', id, 'Copied.'],
    ]);
  });
});
