// Post/Redirect/Get for console actions (docs/operations.md, "The console", finding 8 of the
// security audit): an action's POST answers 303 to the page it came from, the next GET shows its
// result once, and a refresh neither shows it again nor runs the action again. A reissued key is
// kept in memory only, for that session, for a few minutes; a captured form is still bound to its
// session by the csrf token.
import { describe, expect, test } from 'bun:test';
import { FLASH_MS } from '../../src/admin/console/flash.ts';
import { makeApp } from '../helpers.ts';
import { send, signedIn, type T } from './console-harness.ts';

const KEY = /svc_[0-9A-Za-z]{40}/;
const reissues = (t: T) => t.db.query("SELECT count(*) AS n FROM audit_log WHERE action = 'agent reissue'").get();
const live = async (t: T, key: string) => (await t.call('GET', '/v1/me', { key })).status === 200;

describe('an action answers 303 and its page shows the result once', () => {
  test('the POST answers 303 to the page it came from (with its query); the next GET shows the result, a second GET no more', async () => {
    const t = makeApp();
    const s = await signedIn(t);
    await t.register('eve');
    const form = { csrf: s.csrf, back: 'agents?q=eve', name: 'eve', confirm: 'eve' };
    const post = await send(t, 'POST', '/console/act/agent-reissue', { cookie: s.cookie, form });
    expect([post.status, post.headers.get('location'), post.headers.get('cache-control')]).toEqual([303, '/console/agents?q=eve', 'no-store']);
    expect(post.text).toBe('');
    expect(reissues(t)).toEqual({ n: 1 });
    const first = await send(t, 'GET', '/console/agents?q=eve', { cookie: s.cookie });
    expect(first.status).toBe(200);
    expect(first.text).toContain('<strong>agent reissue</strong>: done.');
    const key = KEY.exec(first.text)![0];
    expect(await live(t, key)).toBe(true);
    // A refresh (or Back, then forward) is a GET: the page again, without the result; nothing ran.
    const again = await send(t, 'GET', '/console/agents?q=eve', { cookie: s.cookie });
    expect(again.status).toBe(200);
    expect(again.text).not.toContain('agent reissue</strong>: done');
    expect(again.text).not.toMatch(KEY);
    expect(reissues(t)).toEqual({ n: 1 });
    expect(await live(t, key)).toBe(true);
  });

  test('the key is kept nowhere but memory: not in the database, not for another session, gone after a few minutes', async () => {
    const t = makeApp();
    const s = await signedIn(t);
    const other = await signedIn(t, 'opal', 'owner');
    await t.register('eve');
    const post = await send(t, 'POST', '/console/agent/eve/reissue', { cookie: s.cookie, form: { csrf: s.csrf, back: 'agents', confirm: 'eve' } });
    expect(post.status).toBe(303);
    // Another session's page does not show it.
    expect((await send(t, 'GET', '/console/agents', { cookie: other.cookie })).text).not.toMatch(KEY);
    // Nothing the database holds carries it.
    const dump = JSON.stringify(
      t.db
        .query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table'")
        .all()
        .flatMap((r) => t.db.query(`SELECT * FROM "${r.name}"`).all()),
    );
    expect(dump).not.toMatch(KEY);
    // Left unread past FLASH_MS, it is gone.
    t.clock.advance(FLASH_MS + 1000);
    expect((await send(t, 'GET', '/console/agents', { cookie: s.cookie })).text).not.toMatch(KEY);
  });

  test('results of two actions before the next page are both shown, once', async () => {
    const t = makeApp();
    const s = await signedIn(t);
    await t.register('eve');
    for (const v of ['allow', 'deny'])
      expect((await send(t, 'POST', `/console/act/lab-${v}`, { cookie: s.cookie, form: { csrf: s.csrf, back: 'queue', name: 'eve' } })).status).toBe(303);
    const page = await send(t, 'GET', '/console/queue', { cookie: s.cookie });
    expect(page.text).toContain('<strong>lab allow</strong>: done.');
    expect(page.text).toContain('<strong>lab deny</strong>: done.');
    expect((await send(t, 'GET', '/console/queue', { cookie: s.cookie })).text).not.toContain('</strong>: done.');
  });

  test('an action that ended its own session: 303 to /console, whose sign-in page shows the new key once and clears the cookie', async () => {
    const t = makeApp();
    const s = await signedIn(t);
    const post = await send(t, 'POST', '/console/agent/boss/reissue', { cookie: s.cookie, form: { csrf: s.csrf, back: 'agents', confirm: 'boss' } });
    expect([post.status, post.headers.get('location'), post.headers.get('set-cookie')]).toEqual([303, '/console', null]);
    const page = await send(t, 'GET', '/console', { cookie: s.cookie });
    expect(page.status).toBe(200);
    expect(page.text).toContain('That ended this session: sign in again.');
    expect(page.headers.get('set-cookie')).toContain('Max-Age=0');
    const key = KEY.exec(page.text)![0];
    expect((await send(t, 'GET', '/console', { cookie: s.cookie })).text).not.toMatch(KEY);
    expect((await send(t, 'POST', '/console/sign-in', { form: { key } })).status).toBe(303);
  });

  test('a refused action keeps its error page (no redirect), and leaves nothing for the next page', async () => {
    const t = makeApp();
    const s = await signedIn(t);
    const r = await send(t, 'POST', '/console/act/agent-reissue', {
      cookie: s.cookie,
      form: { csrf: s.csrf, back: 'agents', name: 'nobody', confirm: 'nobody' },
    });
    expect(r.status).toBe(404);
    expect(r.text).toContain('<p class="error" role="alert"><strong>agent reissue</strong>');
    expect((await send(t, 'GET', '/console/agents', { cookie: s.cookie })).text).not.toContain('agent reissue</strong>');
  });
});

describe('a captured form: what re-sending the same POST body does', () => {
  test('without the session’s cookie, or with another session’s, it runs nothing; with its own live session it runs again', async () => {
    const t = makeApp();
    const s = await signedIn(t);
    await t.register('eve');
    const form = { csrf: s.csrf, back: 'agents', name: 'eve', confirm: 'eve' };
    expect((await send(t, 'POST', '/console/act/agent-reissue', { cookie: s.cookie, form })).status).toBe(303);
    expect(reissues(t)).toEqual({ n: 1 });
    // The body alone (no cookie): the sign-in page, nothing runs.
    const bare = await send(t, 'POST', '/console/act/agent-reissue', { form });
    expect([bare.status, bare.headers.get('location')]).toEqual([303, '/console']);
    // Under another session (another operator, or the same one signed in again): its csrf differs, 403.
    const other = await signedIn(t, 'opal', 'owner');
    expect((await send(t, 'POST', '/console/act/agent-reissue', { cookie: other.cookie, form })).status).toBe(403);
    expect(reissues(t)).toEqual({ n: 1 });
    // The whole request (cookie and body) replays while that session lives (the token is per
    // session): the action runs again. Signing out ends that.
    expect((await send(t, 'POST', '/console/act/agent-reissue', { cookie: s.cookie, form })).status).toBe(303);
    expect(reissues(t)).toEqual({ n: 2 });
    await send(t, 'POST', '/console/sign-out', { cookie: s.cookie, form: { csrf: s.csrf } });
    expect((await send(t, 'POST', '/console/act/agent-reissue', { cookie: s.cookie, form })).headers.get('location')).toBe('/console');
    expect(reissues(t)).toEqual({ n: 2 });
  });
});
