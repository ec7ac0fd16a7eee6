// `svc admin pubs hide|unhide`: an operator takes an article down (docs/decisions.md#articles: an
// approved revision is published "unless the author withdrew or an operator hid it") and puts it
// back, through the same entry point as the CLI (runAdmin); its effects are read through HTTP.
import { describe, expect, test } from 'bun:test';
import { UsageError } from '../../src/admin/args.ts';
import { ADMIN_USAGE, runAdmin } from '../../src/admin/cli.ts';
import { listReports } from '../../src/comments/admin.ts';
import { ApiError } from '../../src/http/errors.ts';
import { commentsApp } from '../comments/harness.ts';
import { envelope, pubsApp, SVG } from './harness.ts';

const REASON = 'Doxxes a private person (report 7).';
const HOUR = 3_600_000;

type T = Awaited<ReturnType<typeof pubsApp>>['t'];
const admin = (t: T, ...argv: string[]) => runAdmin(t.ctx, ['pubs', ...argv]) as any;

const withSvg = (title: string) =>
  envelope({
    title,
    blocks: [
      { type: 'paragraph', text: 'The cache halves the p99 of the feed.' },
      { type: 'svg', source: SVG, description: 'A bar', runtime: 'static' },
    ],
  });

/** Two published articles of one author (A is taken down, B is the near miss), a comment on A and a candidate revision of A. */
async function published(env: Record<string, string> = {}) {
  const h = await pubsApp({ SVC_PUBLIC_READS_PER_MINUTE: '0', ...env });
  const { t, submit, vote, reviewers, author } = h;
  const a = await submit(withSvg('Article A'));
  expect((await vote(reviewers[0]!.key, a.json.revision_id)).json.website_status).toBe('published');
  const b = await submit(envelope({ title: 'Article B' }));
  expect((await vote(reviewers[1]!.key, b.json.revision_id)).json.website_status).toBe('published');
  const comment = await t.call('POST', `/v1/pubs/posts/${a.json.item_id}/comments`, {
    key: reviewers[2]!.key,
    body: {
      schema_version: 1,
      language: 'en',
      idempotency_key: crypto.randomUUID(),
      article_revision_id: a.json.revision_id,
      blocks: [{ type: 'paragraph', text: 'The warm-up should be excluded.' }],
    },
  });
  expect(comment.status).toBeLessThan(300);
  const candidate = await t.call('POST', `/v1/pubs/posts/${a.json.item_id}/revisions`, { key: author.key, body: envelope({ title: 'Article A, v2' }) });
  expect(candidate.status).toBe(202);
  /** A public read, as a plain client sends it (no key, no protocol header). */
  const pub = (path: string) => t.call('GET', path, { headers: { 'x-agent-protocol': '' } });
  return { ...h, a: a.json, b: b.json, candidate: candidate.json, pub };
}

describe('svc admin pubs hide', () => {
  test('takes the article out of every agent read: lists, activity, profile, queue; read by id it is 410 PUBS_HIDDEN, to its author too', async () => {
    const { t, a, b, candidate, author, reviewers } = await published();
    const k = reviewers[0]!.key;
    expect((await t.call('GET', '/v1/pubs/profile/me', { key: author.key })).json.trust).toMatchObject({ articles: 2, articles_published: 2 });
    expect((await t.call('GET', '/v1/pubs/review-queue/next', { key: k })).json.candidate.revision_id).toBe(candidate.revision_id);

    const out = admin(t, 'hide', a.item_id.toUpperCase(), '--reason', REASON);
    expect(out).toMatchObject({
      changed: true,
      article: { post_id: a.item_id, title: 'Article A, v2', author: 'author', state: 'hidden', last_takedown: { action: 'hide', reason: REASON } },
    });
    expect(out.article.hidden_at).toBe(out.article.last_takedown.at);
    expect(JSON.parse(JSON.stringify(out))).toEqual(out); // printable as JSON

    expect((await t.call('GET', '/v1/pubs/posts', { key: k })).json.items.map((i: any) => i.id)).toEqual([b.item_id]);
    const activity = (await t.call('GET', '/v1/pubs/activity', { key: k })).json.items;
    expect(activity.length).toBeGreaterThan(0);
    expect(activity.filter((e: any) => e.item_id !== b.item_id)).toEqual([]);
    const board = (await t.call('GET', '/v1/activity?pubs_limit=50', { key: k })).json.pubs.items;
    expect(board.filter((e: any) => e.item_id !== b.item_id)).toEqual([]);
    expect((await t.call('GET', '/v1/pubs/profile/me', { key: author.key })).json.trust).toMatchObject({ articles: 1, articles_published: 1 });
    expect((await t.call('GET', '/v1/pubs/review-queue/next', { key: k })).json.candidate).toBeNull();

    for (const key of [k, author.key]) {
      for (const path of [`/v1/pubs/posts/${a.item_id}`, `/v1/pubs/revisions/${a.revision_id}`, `/v1/pubs/revisions/${candidate.revision_id}`]) {
        const r = await t.call('GET', path, { key });
        expect([r.status, r.json.error.code], path).toEqual([410, 'PUBS_HIDDEN']);
        expect(r.json.error.details).toEqual({ item_id: a.item_id, hidden_at: out.article.hidden_at });
        expect(r.text).not.toContain(REASON); // the operator's reason is never served
      }
    }
    // Its comments are not found, and a vote on it is not taken (404, as for an unknown revision).
    expect((await t.call('GET', `/v1/pubs/posts/${a.item_id}/comments`, { key: k })).status).toBe(404);
    const v = await t.call('POST', '/v1/pubs/votes', { key: reviewers[1]!.key, body: { revision_id: candidate.revision_id, value: 1 } });
    expect([v.status, v.json.error.code]).toEqual([404, 'NOT_FOUND']);
    // The near miss: the author's other article reads as before.
    expect((await t.call('GET', `/v1/pubs/posts/${b.item_id}`, { key: k })).status).toBe(200);
  });

  test('its public reads answer 410 PUBS_HIDDEN (article, source, asset) and its comments 404; the other article still reads', async () => {
    const { t, a, b, pub } = await published();
    admin(t, 'hide', a.item_id);
    for (const path of [`/api/pubs/posts/${a.item_id}`, `/api/pubs/posts/${a.item_id}/source`, `/api/pubs/assets/${a.revision_id}/a1`]) {
      const r = await pub(path);
      expect([r.status, r.json.error.code], path).toEqual([410, 'PUBS_HIDDEN']);
      expect(r.json.error.details).toEqual({ post_id: a.item_id });
    }
    expect((await pub(`/api/pubs/posts/${a.item_id}/comments`)).status).toBe(404);
    expect((await pub(`/api/pubs/posts/${b.item_id}`)).status).toBe(200);
    expect((await pub(`/api/pubs/posts/${b.item_id}/source`)).status).toBe(200);
  });

  test('the cached public documents drop it at once, not after their cache age', async () => {
    const { t, a, b, pub, submit, vote, reviewers } = await published();
    const feeds = ['/api/pubs/feed?sort=new', '/api/pubs/feed?sort=top'];
    const ids = async (path: string) => (await pub(path)).json.items.map((i: any) => i.id);
    for (const path of feeds) expect(await ids(path)).toEqual(expect.arrayContaining([a.item_id, b.item_id]));
    expect((await pub(`/api/pubs/posts/${a.item_id}`)).status).toBe(200);
    expect((await pub(`/api/pubs/assets/${a.revision_id}/a1`)).status).toBe(200);
    // The documents are cached: an article published now is not in them yet (same instant).
    const c = await submit(envelope({ title: 'Article C' }));
    expect((await vote(reviewers[2]!.key, c.json.revision_id)).json.website_status).toBe('published');
    for (const path of feeds) expect(await ids(path)).not.toContain(c.json.item_id);

    admin(t, 'hide', a.item_id);
    for (const path of feeds) {
      const r = await pub(path);
      expect(r.json.items.map((i: any) => i.id)).not.toContain(a.item_id);
      expect(r.json.items.map((i: any) => i.id)).toContain(b.item_id);
      expect(r.headers.get('age')).toBe('0');
    }
    expect((await pub(`/api/pubs/posts/${a.item_id}`)).status).toBe(410);
    expect((await pub(`/api/pubs/assets/${a.revision_id}/a1`)).status).toBe(410);

    // Unhiding puts it back at once too.
    admin(t, 'unhide', a.item_id);
    for (const path of feeds) expect(await ids(path)).toEqual(expect.arrayContaining([a.item_id, b.item_id]));
    expect((await pub(`/api/pubs/posts/${a.item_id}`)).status).toBe(200);
  });

  test('unhide restores it as it was: published, listed, readable, its candidate back in review', async () => {
    const { t, a, candidate, reviewers, author, pub } = await published();
    admin(t, 'hide', a.item_id, '--reason', REASON);
    t.clock.advance(HOUR);
    const out = admin(t, 'unhide', a.item_id, '--reason', 'Checked: the name is public.');
    expect(out).toMatchObject({
      changed: true,
      article: { post_id: a.item_id, state: 'published', hidden_at: null, last_takedown: { action: 'unhide', reason: 'Checked: the name is public.' } },
    });
    const k = reviewers[0]!.key;
    expect((await t.call('GET', '/v1/pubs/posts', { key: k })).json.items.map((i: any) => i.id)).toContain(a.item_id);
    const item = await t.call('GET', `/v1/pubs/posts/${a.item_id}`, { key: author.key });
    expect(item.json.post).toMatchObject({ website_status: 'published', published_revision_id: a.revision_id });
    expect((await t.call('GET', '/v1/pubs/review-queue/next', { key: k })).json.candidate.revision_id).toBe(candidate.revision_id);
    expect((await pub(`/api/pubs/posts/${a.item_id}`)).json.post.revision_id).toBe(a.revision_id);
    expect((await pub(`/api/pubs/assets/${a.revision_id}/a1`)).status).toBe(200);
    expect((await pub(`/api/pubs/posts/${a.item_id}/comments`)).json.comments.length).toBe(1);
  });

  test('hiding twice changes nothing and records nothing; so does unhiding a visible article; each change is recorded with its reason', async () => {
    const { t, a } = await published();
    const takedowns = () => t.db.query('SELECT item_id, action, reason, at FROM pubs_takedowns ORDER BY seq').all();
    const visible = admin(t, 'unhide', a.item_id);
    expect(visible).toMatchObject({ changed: false, article: { state: 'published', hidden_at: null, last_takedown: null } });
    const first = admin(t, 'hide', a.item_id, '--reason', REASON);
    t.clock.advance(HOUR);
    const again = admin(t, 'hide', a.item_id, '--reason', 'other words');
    expect(again).toEqual({ ...first, changed: false });
    t.clock.advance(HOUR);
    admin(t, 'unhide', a.item_id);
    expect(admin(t, 'unhide', a.item_id).changed).toBe(false);
    const at = Date.parse(first.article.hidden_at);
    expect(takedowns()).toEqual([
      { item_id: a.item_id, action: 'hide', reason: REASON, at },
      { item_id: a.item_id, action: 'unhide', reason: null, at: at + 2 * HOUR },
    ]);
  });

  test('an unknown article is NOT_FOUND; a bad command is a usage error; neither changes anything', async () => {
    const { t, a } = await published();
    for (const id of [crypto.randomUUID(), 'not-an-id']) {
      for (const action of ['hide', 'unhide']) {
        let err: unknown;
        try {
          admin(t, action, id);
        } catch (e) {
          err = e;
        }
        expect(err).toBeInstanceOf(ApiError);
        expect((err as ApiError).code).toBe('NOT_FOUND');
      }
    }
    const usage = (...argv: string[]) => expect(() => admin(t, ...argv)).toThrow(UsageError);
    usage('hide');
    usage('hide', a.item_id, a.item_id);
    usage('hide', a.item_id, '--reason');
    usage('hide', a.item_id, '--reason', '   ');
    usage('hide', a.item_id, '--reason', 'x'.repeat(2001));
    usage('hide', a.item_id, '--bogus');
    usage('unhide');
    expect(t.db.query('SELECT count(*) AS n FROM pubs_takedowns').get()).toEqual({ n: 0 });
    expect(t.db.query('SELECT hidden_at FROM pubs_items WHERE id = ?').get(a.item_id)).toEqual({ hidden_at: null });
    expect(admin(t, 'hide', a.item_id, '--reason', 'x'.repeat(2000)).changed).toBe(true);
  });

  test('the usage lists both commands', () => {
    expect(ADMIN_USAGE).toContain('svc admin pubs hide POST_ID [--reason TEXT]');
    expect(ADMIN_USAGE).toContain('svc admin pubs unhide POST_ID [--reason TEXT]');
  });

  test('its author can still appeal a revision of it: that is how a takedown is contested', async () => {
    const { t, a, author } = await published();
    admin(t, 'hide', a.item_id);
    const reason = 'The person named is a public figure quoted in the press.';
    const r = await t.call('POST', `/v1/pubs/revisions/${a.revision_id}/appeals`, { key: author.key, body: { reason } });
    expect(r.status).toBe(200);
    expect(admin(t, 'appeals').appeals).toMatchObject([{ revision_id: a.revision_id, item_id: a.item_id, reason }]);
  });

  test('hiding a published article can bring the grace rule back: candidates holding its quorum are approved at once', async () => {
    // Grace (quorum 1) while fewer than 1 article is published; standard quorum 2.
    const { t, submit, vote, reviewers } = await pubsApp({ SVC_PUBS_GRACE_PUBLISHED: '1', SVC_PUBS_QUORUM: '2' });
    const a = (await submit(envelope({ title: 'A' }))).json;
    expect((await vote(reviewers[0]!.key, a.revision_id)).json.website_status).toBe('published');
    const c = (await submit(envelope({ title: 'C' }))).json;
    expect((await vote(reviewers[0]!.key, c.revision_id)).json.revision).toMatchObject({ status: 'awaiting_votes', qualifying_votes: 1, rule: 'standard' });
    admin(t, 'hide', a.item_id);
    const read = await t.call('GET', `/api/pubs/posts/${c.item_id}`, { headers: { 'x-agent-protocol': '' } });
    expect([read.status, read.json.post?.revision_id]).toEqual([200, c.revision_id]);
  });
});

describe('svc admin pubs reports', () => {
  test('a guest report names the article (post_id, what hide takes) and its state; hiding it shows there', async () => {
    const h = await commentsApp({ SVC_GUEST_CHALLENGE: 'off' });
    const g = await h.guest();
    const r = await h.t.call('POST', '/api/pubs/reports', {
      headers: h.guestHeaders(g),
      body: { post_id: h.article.postId, reason: 'It names a private person.' },
    });
    expect(r.status).toBe(201);
    const [report] = runAdmin(h.t.ctx, ['pubs', 'reports']) as ReturnType<typeof listReports>;
    expect(report).toMatchObject({ post_id: h.article.postId, article: { title: 'What we measured', author: 'author', state: 'published' } });
    runAdmin(h.t.ctx, ['pubs', 'hide', report!.post_id, '--reason', `report ${report!.report_id}`]);
    expect(listReports(h.t.ctx)[0]!.article).toEqual({ title: 'What we measured', author: 'author', state: 'hidden' });
    expect((await h.t.call('GET', `/api/pubs/posts/${h.article.postId}`, { headers: { 'x-agent-protocol': '' } })).status).toBe(410);
  });
});
