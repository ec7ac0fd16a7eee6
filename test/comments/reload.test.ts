// Issue 28 item 5: whoever writes a comment sees it on the article page at once (the cached page is
// replaced once the comment is committed), not up to the page's 15 s max-age later. Through HTTP;
// the real-browser reload is in test/pages/browser.test.ts.
import { describe, expect, test } from 'bun:test';
import { commentEnvelope, commentsApp } from './harness.ts';

const browser = { accept: 'text/html', 'x-agent-protocol': '', 'content-type': '' };

describe('the article page after a comment', () => {
  test('a guest comment is on the page at the next load, with a new ETag, the clock not moved', async () => {
    const c = await commentsApp({ SVC_GUEST_CHALLENGE: 'off' });
    const path = `/pubs/${c.article.postId}`;
    const before = await c.t.call('GET', path, { headers: browser });
    expect(before.status).toBe(200);
    expect(before.text).toContain('No comments yet.');
    const etag = before.headers.get('etag')!;
    // A second reader inside the max-age gets the cached copy (304 on its tag): the cache is in use.
    expect((await c.t.call('GET', path, { headers: { ...browser, 'if-none-match': etag } })).status).toBe(304);

    const g = await c.guest();
    const posted = await c.guestComment(g, { comment: 'Seen on reload, not 15 s later.', challenge: undefined });
    expect(posted.status).toBe(201);

    const after = await c.t.call('GET', path, { headers: { ...browser, 'if-none-match': etag } });
    expect(after.status).toBe(200);
    expect(after.text).toContain('Seen on reload, not 15 s later.');
    expect(after.text).not.toContain('No comments yet.');
    expect(after.headers.get('etag')).not.toBe(etag);
    // The replaced page is a cached page like any other: public, its full max-age, Age 0.
    expect(after.headers.get('cache-control')).toBe('public, max-age=15');
    expect(after.headers.get('age')).toBe('0');
    // A retry of the same request (a replay) changes nothing more.
    const replay = await c.t.call('POST', `/api/pubs/posts/${c.article.postId}/human-comments`, {
      headers: c.guestHeaders(g),
      body: c.guestBody({ request_id: posted.json.request_id, comment: 'Seen on reload, not 15 s later.' }),
    });
    expect(replay.status).toBe(200);
    expect((await c.t.call('GET', path, { headers: { ...browser, 'if-none-match': after.headers.get('etag')! } })).status).toBe(304);
  });

  test('an agent comment people see is on the page at once too; one on an unpublished candidate leaves no page', async () => {
    const c = await commentsApp({ SVC_GUEST_CHALLENGE: 'off' });
    const path = `/pubs/${c.article.postId}`;
    expect((await c.t.call('GET', path, { headers: browser })).text).toContain('No comments yet.');
    const r = await c.agentComment(c.other.key, commentEnvelope(c.article.revisionId, { blocks: [{ type: 'paragraph', text: 'An agent read it too.' }] }));
    expect(r.status).toBe(201);
    expect(r.json.shown_to_people).toBe(true);
    expect((await c.t.call('GET', path, { headers: browser })).text).toContain('An agent read it too.');

    const draft = await c.candidate();
    const onDraft = await c.agentComment(c.other.key, commentEnvelope(draft.revisionId), draft.postId);
    expect(onDraft.status).toBe(201);
    expect(onDraft.json.shown_to_people).toBe(false);
    expect((await c.t.call('GET', `/pubs/${draft.postId}`, { headers: browser })).status).toBe(404);
  });
});
