// The console: sign-in, sessions, CSRF, and every action giving the same result as `svc admin`.
import { describe, expect, test } from 'bun:test';
import { runAdmin } from '../../src/admin/cli.ts';
import { IDLE_MS, SIGN_IN_ATTEMPTS } from '../../src/admin/console/session.ts';
import { createFetcherCredential } from '../../src/ext/credential.ts';
import { makeApp } from '../helpers.ts';
import { addCrew, setRole } from '../../src/accounts/admin.ts';
import { rootOf } from '../show/harness.ts';
import { act, send, signedIn, type T } from './console-harness.ts';

describe('console sign-in and sessions', () => {
  test('a key signs in once: the cookie is HttpOnly, SameSite=Strict, scoped to /console; the key is neither stored nor echoed', async () => {
    const t = makeApp();
    const s = await signedIn(t);
    expect(s.setCookie).toContain('HttpOnly');
    expect(s.setCookie).toContain('SameSite=Strict');
    expect(s.setCookie).toContain('Path=/console');
    expect(s.setCookie).not.toContain('Secure');
    const page = await send(t, 'GET', '/console/queue', { cookie: s.cookie });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.text).not.toContain(s.key);
    const token = s.cookie.split('=')[1]!;
    expect(JSON.stringify(t.db.query('SELECT * FROM console_sessions').all())).not.toContain(token);
    expect(JSON.stringify(t.db.query('SELECT * FROM console_sessions').all())).not.toContain(s.key);
  });

  test('behind https the cookie is Secure', async () => {
    const t = makeApp({ SVC_BASE_URL: 'https://svc.example' });
    expect((await signedIn(t)).setCookie).toContain('; Secure');
  });

  test('refusals: a wrong key 401, an agent without the role 403, too many attempts 429; no session without signing in', async () => {
    const t = makeApp();
    const plain = await t.register('plain');
    expect((await send(t, 'POST', '/console/sign-in', { form: { key: 'svc_nope' } })).status).toBe(401);
    const r = await send(t, 'POST', '/console/sign-in', { form: { key: plain.key } });
    expect([r.status, r.headers.get('set-cookie')]).toEqual([403, null]);
    expect(r.text).not.toContain(plain.key);
    expect((await send(t, 'GET', '/console/queue')).status).toBe(303);
    for (let i = 2; i < SIGN_IN_ATTEMPTS.limit; i++) await send(t, 'POST', '/console/sign-in', { form: { key: 'svc_nope' } });
    expect((await send(t, 'POST', '/console/sign-in', { form: { key: plain.key } })).status).toBe(429);
  });

  test('a POST without the CSRF token runs nothing (403); an idle session expires; a revoked role ends the session', async () => {
    const t = makeApp();
    const s = await signedIn(t);
    await t.register('bob');
    const bad = await send(t, 'POST', '/console/act/role-grant', { cookie: s.cookie, form: { name: 'bob', role: 'editor', csrf: 'x' } });
    expect(bad.status).toBe(403);
    expect(runAdmin(t.ctx, ['agents', 'list', '--q', 'bob'])).toMatchObject({ agents: [{ roles: [] }] });
    t.clock.advance(IDLE_MS + 1000);
    expect((await send(t, 'GET', '/console/queue', { cookie: s.cookie })).status).toBe(303);
    const again = await signedIn(t, 'boss2', 'operator');
    runAdmin(t.ctx, ['role', 'revoke', 'boss2', 'operator']);
    expect((await send(t, 'GET', '/console/queue', { cookie: again.cookie })).status).toBe(303);
  });

  test('an operator may not run an owner-only action: the action’s own error text', async () => {
    const t = makeApp();
    const s = await signedIn(t, 'opsy', 'operator');
    const r = await act(t, s, 'role grant', { name: 'opsy', role: 'owner' });
    expect(r.status).toBe(403);
    expect(r.error).toContain('Only owner may role grant');
  });
});

const DRAFT_TEXT =
  'Most open data portals never say when a dataset changes\nRead the portal before you build on it: ask its maintainers how often they refresh, and write that down.';
const DRAFT_META = ['Format: post', 'Audience: people who build dashboards on public datasets', 'Evidence: none'].join('\n');

describe('each action through the CLI and through the console gives the same result', () => {
  // [action, CLI argv, form fields]; ROOT and REPLY name posts made in each app.
  const steps: [string, string[], Record<string, string>][] = [
    ['role grant', ['role', 'grant', 'bob', 'editor'], { name: 'bob', role: 'editor' }],
    ['role revoke', ['role', 'revoke', 'bob', 'editor'], { name: 'bob', role: 'editor' }],
    ['crew add', ['crew', 'add', 'bob', '--desk', 'lab'], { name: 'bob', desk: 'lab' }],
    ['shift set', ['shift', 'set', 'bob', 'off'], { name: 'bob', shift: 'off' }],
    ['crew remove', ['crew', 'remove', 'bob'], { name: 'bob' }],
    ['resident add', ['resident', 'add', 'bob'], { name: 'bob' }],
    ['residency stop', ['residency', 'stop', 'bob'], { name: 'bob' }],
    ['residency resume', ['residency', 'resume', 'bob'], { name: 'bob' }],
    ['resident remove', ['resident', 'remove', 'bob'], { name: 'bob' }],
    ['lab allow', ['lab', 'allow', 'bob'], { name: 'bob' }],
    ['lab deny', ['lab', 'deny', 'bob'], { name: 'bob' }],
    ['lab takedown', ['lab', 'takedown', 'bob', 'site', '--reason', 'phishing'], { name: 'bob', slug: 'site', reason: 'phishing' }],
    ['posts remove', ['posts', 'remove', 'REPLY', '--reason', 'off topic'], { post_id: 'REPLY', reason: 'off topic' }],
    ['posts remove', ['posts', 'remove', 'ROOT', '--reason', 'spam'], { post_id: 'ROOT', reason: 'spam' }],
    ['posts restore', ['posts', 'restore', 'ROOT'], { post_id: 'ROOT' }],
    ['posts restore', ['posts', 'restore', 'REPLY'], { post_id: 'REPLY' }],
    ['posts remove', ['posts', 'remove', 'ROOT', '--reason', 'This is going to the moon'], { post_id: 'ROOT', reason: 'This is going to the moon' }],
    ['posts restore', ['posts', 'restore', 'ROOT'], { post_id: 'ROOT' }],
    ['agents list', ['agents', 'list', '--q', 'bo'], { q: 'bo' }],
    ['pubs reports', ['pubs', 'reports'], {}],
    ['pubs appeals', ['pubs', 'appeals'], {}],
    ['outreach queue', ['outreach', 'queue'], {}],
    [
      'outreach configure',
      ['outreach', 'configure', '--domain', 'svc.example', '--mailbox', 'outreach', '--postal-address', '1 Main St', '--mode', 'review'],
      { domain: 'svc.example', mailbox: 'outreach', postal_address: '1 Main St', mode: 'review' },
    ],
    ['outreach channel set', ['outreach', 'channel', 'set', 'one', 'https://hooks.example/abc'], { channel: 'one', url: 'https://hooks.example/abc' }],
    ['outreach channel set', ['outreach', 'channel', 'set', 'two', 'ftp://nope'], { channel: 'two', url: 'ftp://nope' }],
    ['outreach channel clear', ['outreach', 'channel', 'clear', 'one'], { channel: 'one' }],
    ['outreach status', ['outreach', 'status'], {}],
    ['buyback add', ['buyback', 'add', '--usd', '12.5', '--note', 'first'], { usd: '12.5', note: 'first' }],
    // The console asks twice before these (confirm: the target's name); the CLI's command is its own confirmation.
    ['agent reissue', ['agent', 'reissue', 'bob'], { name: 'bob', confirm: 'bob' }],
    ['agent revoke', ['agent', 'revoke', 'bob', '--reason', 'abuse'], { name: 'bob', reason: 'abuse', confirm: 'bob' }],
    ['agent reissue', ['agent', 'reissue', 'bob'], { name: 'bob', confirm: 'bob' }],
    ['role grant', ['role', 'grant', 'nobody', 'owner'], { name: 'nobody', role: 'owner', confirm: 'nobody' }],
    // The desk's pick: an editor's own Pick: reply (the owner takes the editor role to pick).
    ['show drafts', ['show', 'drafts'], {}],
    ['role grant', ['role', 'grant', 'boss', 'editor'], { name: 'boss', role: 'editor' }],
    [
      'show pick',
      ['show', 'pick', 'DRAFT', '--note', 'This is going to the moon', '--as', 'boss'],
      { root_id: 'DRAFT', note: 'This is going to the moon', as: 'boss' },
    ],
    [
      'show pick',
      ['show', 'pick', 'DRAFT', '--note', 'a hook people will repeat', '--as', 'boss'],
      { root_id: 'DRAFT', note: 'a hook people will repeat', as: 'boss' },
    ],
    ['show pick', ['show', 'pick', 'DRAFT', '--as', 'boss'], { root_id: 'DRAFT', as: 'boss' }],
    ['show drafts', ['show', 'drafts'], {}],
    ['show queue', ['show', 'queue'], {}],
    ['show reject', ['show', 'reject', 'SHOW', '--reason', 'This is going to the moon'], { root_id: 'SHOW', reason: 'This is going to the moon' }],
    ['show approve', ['show', 'approve', 'SHOW', '--as', 'boss'], { root_id: 'SHOW', as: 'boss' }],
    ['show approve', ['show', 'approve', 'SHOW'], { root_id: 'SHOW' }],
    ['show reject', ['show', 'reject', 'SHOW', '--reason', 'late'], { root_id: 'SHOW', reason: 'late' }],
    ['show queue', ['show', 'queue'], {}],
    ['fetcher list', ['fetcher', 'list'], {}],
    ['mirror list', ['mirror', 'list', '--limit', '5'], { limit: '5' }],
    ['mirror original', ['mirror', 'original', 'MIRROR'], { post_id: 'MIRROR' }],
    ['mirror withdraw', ['mirror', 'withdraw', 'MIRROR', '--reason', 'This is going to the moon'], { post_id: 'MIRROR', reason: 'This is going to the moon' }],
    ['mirror withdraw', ['mirror', 'withdraw', 'MIRROR', '--reason', 'Doxxing'], { post_id: 'MIRROR', reason: 'Doxxing' }],
    ['mirror withdraw', ['mirror', 'withdraw', 'MIRROR', '--reason', 'Again'], { post_id: 'MIRROR', reason: 'Again' }],
    ['mirror original', ['mirror', 'original', 'ROOT'], { post_id: 'ROOT' }],
    ['fetcher revoke', ['fetcher', 'revoke', 'CRED'], { credential_id: 'CRED' }],
    ['fetcher revoke', ['fetcher', 'revoke', 'CRED'], { credential_id: 'CRED' }],
    ['fetcher list', ['fetcher', 'list'], {}],
    ['pubs articles', ['pubs', 'articles'], {}],
    ['pubs hide', ['pubs', 'hide', 'ROOT', '--reason', 'copied'], { post_id: 'ROOT', reason: 'copied' }],
    ['pubs comments hide', ['pubs', 'comments', 'hide', 'REPLY'], { comment_id: 'REPLY' }],
  ];

  async function world() {
    const t = makeApp({ SVC_EXT_ACCOUNT_ID: '1000' });
    const bob = await t.register('bob');
    const idem = () => ({ 'idempotency-key': crypto.randomUUID() });
    const root = (await t.call('POST', '/v1/posts', { key: bob.key, headers: idem(), body: { topic: 'general', title: 'T', body: 'B' } })).json.post
      .id as string;
    const reply = (await t.call('POST', `/v1/posts/${root}/replies`, { key: bob.key, headers: idem(), body: { body: 'R' } })).json.reply.id as string;
    // A Show root the editor's desk picked, waiting for the owner.
    const author = await t.register('showy');
    addCrew(t.ctx, 'showy', 'research');
    const desk = await t.register('desk');
    setRole(t.ctx, 'grant', 'desk', 'editor');
    const show = (await t.call('POST', '/v1/posts', { key: author.key, headers: idem(), body: rootOf() })).json.post.id as string;
    await t.call('POST', `/v1/posts/${show}/replies`, { key: desk.key, headers: idem(), body: { body: 'Pick: ship it' } });
    // A second Show root nobody picked yet: a draft.
    const draft = (await t.call('POST', '/v1/posts', { key: author.key, headers: idem(), body: rootOf(DRAFT_TEXT, DRAFT_META) })).json.post.id as string;
    // One mirror post, delivered the way the fetcher does (test/ext/harness.ts).
    const fetcher = createFetcherCredential(t.ctx);
    const lease = await t.call('POST', '/v1/ext/ingest/lease', { key: fetcher.credential });
    const outside = { id: '5000', author_id: '2000', created_at: '2026-11-23T11:00:00.000Z', text: 'An outside post' };
    await t.call('POST', '/v1/ext/ingest', { key: fetcher.credential, body: { lease_id: lease.json.lease_id, posts: [outside], users: [], cursor: null } });
    const mirror = (t.db.query('SELECT id FROM ext_posts').get() as { id: string }).id;
    return { t, ids: { ROOT: root, REPLY: reply, SHOW: show, DRAFT: draft, MIRROR: mirror, CRED: fetcher.credential_id } as Record<string, string> };
  }

  const normal = (v: unknown, ids: Record<string, string>) => {
    let s = JSON.stringify(v ?? null);
    for (const [k, id] of Object.entries(ids)) s = s.replaceAll(id, k);
    // Ids made by the steps themselves (the owner's Show reply) are each world's own.
    s = s.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, 'ID');
    return JSON.parse(s.replace(/svc_[0-9A-Za-z]{40}/g, 'KEY').replace(/"svc_[0-9A-Za-z]{6}"/g, '"PREFIX"'));
  };

  test('the table', async () => {
    const cli = await world();
    const web = await world();
    const s = await signedIn(web.t);
    runAdmin(cli.t.ctx, ['agent', 'create', 'boss', '--role', 'owner']);
    for (const [name, argv, form] of steps) {
      let viaCli: { result?: unknown; error?: string };
      try {
        viaCli = {
          result: await runAdmin(
            cli.t.ctx,
            argv.map((a) => cli.ids[a] ?? a),
          ),
        };
      } catch (e) {
        viaCli = { error: (e as Error).message };
      }
      const filled = Object.fromEntries(Object.entries(form).map(([k, v]) => [k, web.ids[v] ?? v]));
      const viaWeb = await act(web.t, s, name, filled);
      expect(normal(viaWeb.error ?? null, web.ids), name).toEqual(normal(viaCli.error ?? null, cli.ids));
      expect(normal(viaWeb.result, web.ids), name).toEqual(normal(viaCli.result, cli.ids));
    }
    // The same audit log, but for who acted.
    const log = (t: T) =>
      t.db
        .query(
          "SELECT action, target, reason, modlog FROM audit_log WHERE action != 'agent create' AND target != 'boss owner' AND action NOT LIKE 'console sign-in%' ORDER BY seq",
        )
        .all();
    expect(normal(log(web.t), web.ids)).toEqual(normal(log(cli.t), cli.ids));
    expect(web.t.db.query("SELECT DISTINCT actor FROM audit_log WHERE action = 'posts remove'").all()).toEqual([{ actor: 'boss' }]);
    expect(web.t.db.query("SELECT actor, target FROM audit_log WHERE action = 'show approve'").all()).toEqual([{ actor: 'boss', target: web.ids.SHOW }]);
    // The pick is the editor's own labelled reply, as an API pick records it, in both worlds.
    for (const w of [cli, web])
      expect(
        w.t.db
          .query(
            'SELECT a.name, l.label, p.body FROM show_labels l JOIN accounts a ON a.id = l.author_id JOIN posts p ON p.id = l.reply_id WHERE l.root_id = ?',
          )
          .all(w.ids.DRAFT!),
      ).toEqual([{ name: 'boss', label: 'pick', body: 'Pick: a hook people will repeat' }]);
  });
});

describe('an action addressed by what it acts on (/console/{group}/{target}/{verb})', () => {
  const post = async (t: T, s: { cookie: string; csrf: string }, path: string, fields: Record<string, string> = {}) =>
    send(t, 'POST', path, { cookie: s.cookie, form: { csrf: s.csrf, back: 'board', ...fields } });

  test('posts/{id}/remove and …/restore run the same actions as the CLI; agent/{name}/reissue shows the new key once', async () => {
    const t = makeApp();
    const s = await signedIn(t);
    const author = await t.register('spammer');
    const root = await t.call('POST', '/v1/posts', {
      key: author.key,
      headers: { 'idempotency-key': crypto.randomUUID() },
      body: { topic: 'general', title: 'Off topic', body: 'A thread about nothing.' },
    });
    const id = root.json.post.id as string;
    expect((await t.call('GET', `/api/thread/${id}`)).status).toBe(200);
    const removed = await post(t, s, `/console/posts/${id}/remove`, { reason: 'spam' });
    expect([removed.status, removed.headers.get('location')]).toEqual([303, '/console/board']);
    expect((await t.call('GET', `/api/thread/${id}`)).status).toBe(404);
    expect(t.db.query("SELECT action, target, reason, actor FROM audit_log WHERE action LIKE 'posts %'").all()).toEqual([
      { action: 'posts remove', target: id, reason: 'spam', actor: 'boss' },
    ]);
    expect((await post(t, s, `/console/posts/${id}/restore`)).status).toBe(303);
    expect((await t.call('GET', `/api/thread/${id}`)).status).toBe(200);
    const reissued = await post(t, s, '/console/agent/spammer/reissue', { confirm: 'spammer' });
    expect(reissued.status).toBe(303);
    expect((await t.call('GET', '/v1/me', { key: author.key })).status).toBe(401);
    const shown = await send(t, 'GET', reissued.headers.get('location')!, { cookie: s.cookie });
    expect(shown.text).toMatch(/svc_[0-9A-Za-z]{40}/);
  });

  test('refusals: no csrf 403 and nothing runs; an unknown action or one without an argument 404; the action’s own error', async () => {
    const t = makeApp();
    const s = await signedIn(t);
    const author = await t.register('writer');
    const root = await t.call('POST', '/v1/posts', {
      key: author.key,
      headers: { 'idempotency-key': crypto.randomUUID() },
      body: { topic: 'general', title: 'Fine', body: 'A fine thread.' },
    });
    const id = root.json.post.id as string;
    const forged = await send(t, 'POST', `/console/posts/${id}/remove`, { cookie: s.cookie, form: { reason: 'spam' } });
    expect(forged.status).toBe(403);
    expect(t.db.query("SELECT count(*) AS n FROM audit_log WHERE action = 'posts remove'").get()).toEqual({ n: 0 });
    expect((await post(t, s, `/console/posts/${id}/explode`)).status).toBe(404);
    expect((await post(t, s, '/console/outreach/x/status')).status).toBe(404);
    const noReason = await post(t, s, `/console/posts/${id}/remove`);
    expect(noReason.status).toBe(400);
    expect(noReason.text).toContain('<strong>posts remove</strong>: reason:');
    expect((await send(t, 'POST', `/console/posts/${id}/remove`, { form: { csrf: s.csrf, reason: 'x' } })).status).toBe(303);
  });
});
