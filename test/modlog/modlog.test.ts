// GET /api/modlog and /modlog: every operator action on public content, at once, with its public
// reason, and never a key, an address, an e-mail, an actor or a private report's text.
import { describe, expect, test } from 'bun:test';
import { MODLOG_KINDS } from '../../src/actions/action.ts';
import { runAdmin } from '../../src/admin/cli.ts';
import { commentsApp } from '../comments/harness.ts';
import { makeApp } from '../helpers.ts';

const PUBLIC = { 'x-agent-protocol': '', accept: '' };

describe('the moderation log', () => {
  test('runs every operator action; the log shows each public one and none of the secrets', async () => {
    const h = await commentsApp();
    const { t } = h;
    const g = await h.guest();
    const c = await h.guestComment(g);
    const reportText = 'Private report text: the guest thinks this is plagiarism';
    const challenge = (await h.solve(g)).payload;
    const rep = await t.call('POST', '/api/pubs/reports', { headers: h.guestHeaders(g), body: { post_id: h.article.postId, reason: reportText, challenge } });
    expect(rep.status).toBe(201);
    // Warm the cached log: every action below must show at once.
    expect((await t.call('GET', '/api/modlog', { headers: PUBLIC })).json.entries).toEqual([]);

    const secrets: string[] = [reportText, g.cookie, g.csrf, 'owner.secret@example.org', 'press@news.example.org', '203.0.113.9'];
    const created = runAdmin(t.ctx, ['agent', 'create', 'mallory', '--role', 'reporter']) as any;
    secrets.push(created.api_key);
    secrets.push((runAdmin(t.ctx, ['agent', 'reissue', 'mallory']) as any).api_key);
    secrets.push((runAdmin(t.ctx, ['fetcher', 'create']) as any).credential);
    runAdmin(t.ctx, [
      'outreach',
      'configure',
      '--domain',
      'news.example.org',
      '--mailbox',
      'press',
      '--postal-address',
      '1 Example Street, 12345 Springfield',
      '--forward-to',
      'owner.secret@example.org',
    ]);
    const post = await t.call('POST', '/v1/posts', {
      key: h.other.key,
      headers: { 'idempotency-key': crypto.randomUUID() },
      body: { topic: 'general', title: 'Spam', body: 'Spam body.' },
    });
    runAdmin(t.ctx, ['posts', 'remove', post.json.post.id, '--reason', 'Spam: selling tickets.']);
    runAdmin(t.ctx, ['posts', 'restore', post.json.post.id]);
    runAdmin(t.ctx, ['pubs', 'hide', h.article.postId, '--reason', 'Copied from another site.']);
    runAdmin(t.ctx, ['pubs', 'unhide', h.article.postId, '--reason', 'The author showed it is theirs.']);
    runAdmin(t.ctx, ['pubs', 'comments', 'hide', c.json.comment.id]);
    runAdmin(t.ctx, ['pubs', 'reports', 'resolve', rep.json.report_id]);
    runAdmin(t.ctx, ['lab', 'takedown', 'other', 'phish', '--reason', 'A login form copying a bank.']);
    runAdmin(t.ctx, ['role', 'grant', 'other', 'editor']);
    runAdmin(t.ctx, ['role', 'revoke', 'other', 'editor']);
    runAdmin(t.ctx, ['agent', 'revoke', 'mallory', '--reason', 'Key abuse.']);

    const api = await t.call('GET', '/api/modlog', { headers: PUBLIC });
    expect(api.status).toBe(200);
    expect(api.json).toMatchObject({ version: 1, content_is_untrusted: true, next_before: null });
    // A mirror post's withdrawal needs the outside mirror set up: test/modlog/mirror.test.ts.
    expect(new Set(api.json.entries.map((e: any) => e.action))).toEqual(new Set(MODLOG_KINDS.filter((k) => k !== 'mirror_post_withdrawn')));
    expect(api.json.entries[0]).toEqual({
      at: expect.any(String),
      action: 'key_revoked',
      target: { type: 'agent', id: 'mallory', role: null },
      reason: 'Key abuse.',
    });
    expect(api.json.entries.find((e: any) => e.action === 'post_removed')).toMatchObject({
      target: { type: 'post', id: post.json.post.id },
      reason: 'Spam: selling tickets.',
    });
    expect(api.json.entries.find((e: any) => e.action === 'role_granted').target).toEqual({ type: 'agent', id: 'other', role: 'editor' });
    const page = await t.call('GET', '/modlog', { headers: { ...PUBLIC, accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(page.text).toContain('Spam: selling tickets.');
    for (const text of [api.text, page.text]) {
      for (const secret of secrets) expect(text).not.toContain(secret);
      expect(text).not.toContain('"cli"');
      expect(text).not.toContain(created.api_key.slice(0, 10));
    }
  });

  test('pages with cursors, newest first; a bad cursor is 400 INVALID_CURSOR', async () => {
    const t = makeApp();
    await t.register('ann');
    for (const role of ['editor', 'reporter', 'operator']) runAdmin(t.ctx, ['role', 'grant', 'ann', role]);
    const first = await t.call('GET', '/api/modlog?limit=2', { headers: PUBLIC });
    expect(first.json.entries.map((e: any) => e.target.role)).toEqual(['operator', 'reporter']);
    const older = await t.call('GET', `/api/modlog?limit=2&before=${first.json.next_before}`, { headers: PUBLIC });
    expect([older.json.entries.map((e: any) => e.target.role), older.json.next_before]).toEqual([['editor'], null]);
    runAdmin(t.ctx, ['role', 'grant', 'ann', 'owner']);
    const newer = await t.call('GET', `/api/modlog?after=${first.json.next_after}`, { headers: PUBLIC });
    expect(newer.json.entries.map((e: any) => e.target.role)).toEqual(['owner']);
    expect((await t.call('GET', '/api/modlog?before=bogus', { headers: PUBLIC })).json.error.code).toBe('INVALID_CURSOR');
  });
});
