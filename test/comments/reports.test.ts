// Guest reports (private, never hiding anything) and the widget files served by the service.
import { describe, expect, test } from 'bun:test';
import { nextUtcMidnight } from '../../src/clock.ts';
import { runAdmin } from '../../src/admin/cli.ts';
import { listReports } from '../../src/comments/admin.ts';
import { commentsApp } from './harness.ts';

describe('POST /api/pubs/reports', () => {
  test('stores a private report under the guest checks; it hides nothing', async () => {
    const h = await commentsApp();
    const g = await h.guest();
    const c = await h.guestComment(g);
    const report = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
      h.t.call('POST', '/api/pubs/reports', { headers: h.guestHeaders(g, headers), body });
    const noOrigin = await report({ post_id: h.article.postId, reason: 'spam', challenge: (await h.solve(g)).payload }, { origin: 'https://evil.example' });
    expect(noOrigin.json.error.code).toBe('GUEST_ORIGIN_REFUSED');
    const r = await report({ post_id: h.article.postId, comment_id: c.json.comment.id, reason: 'This is spam.', challenge: (await h.solve(g)).payload });
    expect(r.status).toBe(201);
    const listed = listReports(h.t.ctx, { open: true });
    expect(listed).toEqual([
      {
        report_id: r.json.report_id,
        post_id: h.article.postId,
        article: { title: 'What we measured', author: 'author', state: 'published' },
        comment_id: c.json.comment.id,
        reason: 'This is spam.',
        created_at: r.json.received_at,
        resolved_at: null,
      },
    ]);
    const pub = await h.t.call('GET', `/api/pubs/posts/${h.article.postId}/comments`, { headers: { 'x-agent-protocol': '' } });
    expect(pub.json.comments.length).toBe(1);
    // The operator: `svc admin pubs reports`, then resolve it (still hiding nothing).
    expect(await runAdmin(h.t.ctx, ['pubs', 'reports'])).toEqual(listed);
    expect(await runAdmin(h.t.ctx, ['pubs', 'reports', 'resolve', r.json.report_id])).toEqual({ report_id: r.json.report_id, resolved: true });
    expect(await runAdmin(h.t.ctx, ['pubs', 'reports'])).toEqual([]);
    expect(((await runAdmin(h.t.ctx, ['pubs', 'reports', '--all'])) as { resolved_at: string | null }[])[0]!.resolved_at).not.toBeNull();
    expect(() => runAdmin(h.t.ctx, ['pubs', 'reports', 'resolve', r.json.report_id])).toThrow(/no open report/);
    const after = await h.t.call('GET', `/api/pubs/posts/${h.article.postId}/comments`, { headers: { 'x-agent-protocol': '' } });
    expect(after.json.comments.length).toBe(1);
  });

  test('5 reports per session per UTC day (retry at UTC midnight); the challenge is required while enabled', async () => {
    const h = await commentsApp();
    const g = await h.guest();
    const noChallenge = await h.t.call('POST', '/api/pubs/reports', { headers: h.guestHeaders(g), body: { post_id: h.article.postId, reason: 'spam' } });
    expect(noChallenge.json.error.code).toBe('GUEST_CHALLENGE_REQUIRED');
    for (let i = 0; i < 5; i++) {
      const r = await h.t.call('POST', '/api/pubs/reports', {
        headers: h.guestHeaders(g),
        body: { post_id: h.article.postId, reason: `spam ${i}`, challenge: (await h.solve(g)).payload },
      });
      expect(r.status).toBe(201);
    }
    const over = await h.t.call('POST', '/api/pubs/reports', {
      headers: h.guestHeaders(g),
      body: { post_id: h.article.postId, reason: 'more', challenge: (await h.solve(g)).payload },
    });
    expect([over.status, over.json.error.code, over.json.error.details.scope]).toEqual([429, 'GUEST_RATE_LIMIT', 'session']);
    expect(over.json.error.details.retry_at).toBe(new Date(nextUtcMidnight(h.t.clock.now())).toISOString());
    expect(listReports(h.t.ctx).length).toBe(5);
  });

  // docs/decisions.md#content-rules: every string a guest sends in a member the route takes is scanned for
  // secrets; a report is private and may quote the price talk it reports, so only the secret rule
  // applies to it. A member the route does not take is refused by name before the scan (issue 28
  // item 1), its value never echoed.
  const secrets: [name: string, over: Record<string, unknown>, where: string][] = [
    ['a key-like reason', { reason: 'this comment leaks AKIAIOSFODNN7EXAMPLE' }, 'reason'],
  ];
  for (const [name, over, where] of secrets) {
    test(`${name}: 422 SECRET_LIKE naming its path, nothing stored`, async () => {
      const h = await commentsApp({ SVC_GUEST_CHALLENGE: 'off' });
      const g = await h.guest();
      const r = await h.t.call('POST', '/api/pubs/reports', { headers: h.guestHeaders(g), body: { post_id: h.article.postId, reason: 'spam', ...over } });
      expect([r.status, r.json.error.code, r.json.error.details]).toEqual([422, 'SECRET_LIKE', { kind: 'aws_access_key', where }]);
      expect(r.text).not.toContain('AKIAIOSFODNN7EXAMPLE');
      expect(listReports(h.t.ctx)).toEqual([]);
    });
  }

  test('a key-like string nested in a member the route does not know: 400 INVALID_REQUEST naming meta, the key not echoed, nothing stored', async () => {
    const h = await commentsApp({ SVC_GUEST_CHALLENGE: 'off' });
    const g = await h.guest();
    const r = await h.t.call('POST', '/api/pubs/reports', {
      headers: h.guestHeaders(g),
      body: { post_id: h.article.postId, reason: 'spam', meta: { notes: ['AKIAIOSFODNN7EXAMPLE'] } },
    });
    expect([r.status, r.json.error.code]).toEqual([400, 'INVALID_REQUEST']);
    expect(r.json.error.details.fields.map((f: any) => [f.field, f.in, f.problem])).toEqual([['meta', 'body', 'unknown_member']]);
    expect(r.text).not.toContain('AKIAIOSFODNN7EXAMPLE');
    expect(listReports(h.t.ctx)).toEqual([]);
  });

  test('near misses pass: a reason quoting price talk, a sha256 and a uuid; a uuid in an unknown member is refused by name, not stored', async () => {
    const h = await commentsApp({ SVC_GUEST_CHALLENGE: 'off' });
    const g = await h.guest();
    const uuid = 'f81d4fae-7dec-11d0-a765-00a0c91e6bf6';
    const reason = `It says "buy now before it moons" and pastes e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855 (${uuid}).`;
    const extra = await h.t.call('POST', '/api/pubs/reports', { headers: h.guestHeaders(g), body: { post_id: h.article.postId, reason, meta: { ref: uuid } } });
    expect([extra.status, extra.json.error.code, extra.json.error.details.fields[0].field]).toEqual([400, 'INVALID_REQUEST', 'meta']);
    expect(extra.text).not.toContain(uuid);
    expect(listReports(h.t.ctx)).toEqual([]);
    const r = await h.t.call('POST', '/api/pubs/reports', { headers: h.guestHeaders(g), body: { post_id: h.article.postId, reason } });
    expect(r.status, r.text).toBe(201);
    expect(listReports(h.t.ctx).map((x) => x.reason)).toEqual([reason]);
  });

  test('a report on a comment of another article is 404', async () => {
    const h = await commentsApp({ SVC_GUEST_CHALLENGE: 'off' });
    const g = await h.guest();
    const r = await h.t.call('POST', '/api/pubs/reports', {
      headers: h.guestHeaders(g),
      body: { post_id: h.article.postId, comment_id: crypto.randomUUID(), reason: 'spam' },
    });
    expect([r.status, r.json.error.code]).toEqual([404, 'NOT_FOUND']);
  });
});

describe('the ALTCHA widget is served by the service itself', () => {
  for (const [file, type] of [
    ['altcha.min.js', 'text/javascript'],
    ['altcha.css', 'text/css'],
    ['pbkdf2.js', 'text/javascript'],
  ] as const) {
    test(file, async () => {
      const h = await commentsApp();
      const r = await h.t.call('GET', `/assets/altcha/${file}`, { headers: { 'x-agent-protocol': '', accept: '*/*' } });
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toStartWith(type);
      expect(r.headers.get('x-content-type-options')).toBe('nosniff');
      expect(r.text.length).toBeGreaterThan(1000);
      const again = await h.t.call('GET', `/assets/altcha/${file}`, { headers: { 'x-agent-protocol': '', 'if-none-match': r.headers.get('etag')! } });
      expect(again.status).toBe(304);
    });
  }
  test('nothing else', async () => {
    const h = await commentsApp();
    expect((await h.t.call('GET', '/assets/altcha/../../package.json', { headers: { 'x-agent-protocol': '' } })).status).toBe(404);
    expect((await h.t.call('GET', '/assets/altcha/sha.js', { headers: { 'x-agent-protocol': '' } })).status).toBe(404);
  });
});
