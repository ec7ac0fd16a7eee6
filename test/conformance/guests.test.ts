// Conformance of issue 16 (comments, uploads, preview, pages, guests) against 02-extensions.md and
// docs/decisions.md#articles and #guests, checked from outside by a client that follows the spec's words
// and nothing else. Requirements already covered elsewhere are listed in docs/comments.md.
import { describe, expect, test } from 'bun:test';
import { JSDOM } from 'jsdom';
import { articleEnvelope, commentEnvelope, commentsApp, ORIGIN } from '../comments/harness.ts';
import { makeApp } from '../helpers.ts';

const sha256 = (b: Uint8Array) => new Bun.CryptoHasher('sha256').update(b).digest('hex');

describe('Guest comment (02-extensions "Guest comment")', () => {
  test('a fresh request_id of any short form is accepted; lookup?request_id=<id> recovers it in the same session', async () => {
    const h = await commentsApp();
    const g = await h.guest();
    for (const request_id of ['r1', 'x', 'req 7/ä']) {
      const r = await h.guestComment(g, { request_id, comment: `Comment ${request_id}` });
      expect([r.status, r.json.comment?.text]).toEqual([201, `Comment ${request_id}`]);
      const again = await h.guestComment(g, { request_id, comment: `Comment ${request_id}` });
      expect([again.status, again.json.comment.id]).toEqual([200, r.json.comment.id]);
      const found = await h.t.call('GET', `/api/pubs/human-comments/lookup?request_id=${encodeURIComponent(request_id)}`, {
        headers: { cookie: `svc_guest=${g.cookie}`, 'x-agent-protocol': '', 'content-type': '' },
      });
      expect([found.status, found.json.comment?.id]).toEqual([200, r.json.comment.id]);
    }
  });

  test('what a browser sends is enough: no Accept of JSON, no protocol header, Content-Type with a charset', async () => {
    const h = await commentsApp({ SVC_GUEST_CHALLENGE: 'off' });
    const s = await h.t.call('GET', '/api/pubs/human-session', { headers: { accept: '*/*', 'x-agent-protocol': '', 'content-type': '' } });
    expect(s.status).toBe(200);
    const cookie = /svc_guest=([^;]+)/.exec(s.headers.get('set-cookie') ?? '')![1]!;
    const r = await h.t.call('POST', `/api/pubs/posts/${h.article.postId}/human-comments`, {
      headers: {
        accept: '*/*',
        'x-agent-protocol': '',
        'content-type': 'application/json; charset=UTF-8',
        origin: ORIGIN,
        cookie: `svc_guest=${cookie}`,
        'x-csrf-token': s.json.csrf,
      },
      body: h.guestBody(),
    });
    expect(r.status).toBe(201);
  });
});

describe('Comment envelope (the article envelope is the base of comments)', () => {
  test('publication_intent show_to_humans, a member of the base envelope, is accepted on a comment', async () => {
    const h = await commentsApp();
    const r = await h.agentComment(h.other.key, commentEnvelope(h.article.revisionId, { publication_intent: 'show_to_humans' }));
    expect(r.status).toBe(201);
    const bad = await h.agentComment(h.other.key, commentEnvelope(h.article.revisionId, { publication_intent: 'private' }));
    expect(bad.status).toBe(400);
  });
});

describe('Upload session', () => {
  const start = async (h: Awaited<ReturnType<typeof commentsApp>>, bytes: Uint8Array) =>
    h.t.call('POST', '/v1/pubs/uploads', {
      key: h.author.key,
      body: { expected_hash: sha256(bytes), expected_bytes: bytes.byteLength, metadata: { kind: 'post' } },
    });
  const part = (h: Awaited<ReturnType<typeof commentsApp>>, url: string, part_number: number, data: Uint8Array) =>
    h.t.call('POST', new URL(url).pathname, { key: h.author.key, body: { part_number, data: Buffer.from(data).toString('base64') } });

  test('"in sequence" from 0 is accepted as well as from 1; a number out of its sequence is refused either way', async () => {
    const h = await commentsApp();
    const bytes = new TextEncoder().encode(JSON.stringify(articleEnvelope()));
    const half = Math.ceil(bytes.byteLength / 2);
    const zero = await start(h, bytes);
    expect(zero.json.next_part).toBe(1);
    const p0 = await part(h, zero.json.parts_url, 0, bytes.subarray(0, half));
    expect([p0.status, p0.json.next_part]).toEqual([200, 1]);
    expect((await part(h, zero.json.parts_url, 2, bytes.subarray(half))).json.error.code).toBe('UPLOAD_PART_OUT_OF_ORDER');
    expect((await part(h, zero.json.parts_url, 0, bytes.subarray(0, half))).json.error.code).toBe('UPLOAD_PART_REPLAYED');
    expect((await part(h, zero.json.parts_url, 1, bytes.subarray(half))).status).toBe(200);
    expect((await h.t.call('POST', new URL(zero.json.commit_url).pathname, { key: h.author.key, body: {} })).status).toBe(202);

    const one = await start(h, new TextEncoder().encode(JSON.stringify(articleEnvelope())));
    expect((await part(h, one.json.parts_url, 1, new Uint8Array([123]))).json.next_part).toBe(2);
    const late0 = await part(h, one.json.parts_url, 0, new Uint8Array([123]));
    expect([late0.status, late0.json.error.code, late0.json.error.details.expected_part]).toEqual([409, 'UPLOAD_PART_OUT_OF_ORDER', 2]);
  });

  test('the commit takes no body', async () => {
    const h = await commentsApp();
    const bytes = new TextEncoder().encode(JSON.stringify(articleEnvelope()));
    const s = await h.t.call('POST', '/v1/pubs/uploads', {
      key: h.author.key,
      body: { expected_hash: sha256(bytes), expected_bytes: bytes.byteLength, metadata: { kind: 'post' } },
    });
    const p = await h.t.call('POST', new URL(s.json.parts_url).pathname, {
      key: h.author.key,
      body: { part_number: 1, data: Buffer.from(bytes).toString('base64') },
    });
    expect(p.status).toBe(200);
    const c = await h.t.call('POST', new URL(s.json.commit_url).pathname, { key: h.author.key, headers: { 'content-type': '' } });
    expect(c.status).toBe(202);
  });
});

describe('Public publication reads: /pubs/{post_id}', () => {
  test('a guest’s hostile nickname is escaped in the comment and in its Reply and Report controls', async () => {
    const h = await commentsApp({ SVC_GUEST_CHALLENGE: 'off' });
    const g = await h.guest();
    const nickname = '"><img src=x onerror=1>';
    const c = await h.guestComment(g, { nickname, comment: '</textarea><script>x()</script>', challenge: undefined });
    expect(c.status).toBe(201);
    const r = await h.t.call('GET', `/pubs/${h.article.postId}`, { headers: { accept: 'text/html', 'x-agent-protocol': '', 'content-type': '' } });
    expect(r.status).toBe(200);
    expect(r.text).not.toContain(nickname);
    expect(r.text).not.toContain('<script>x()');
    const doc = new JSDOM(r.text).window.document;
    const li = doc.getElementById(`c-${c.json.comment.id}`)!;
    expect(li.querySelector('.who')!.textContent).toBe(nickname);
    expect(li.querySelector('button[data-reply-to]')!.getAttribute('data-author')).toBe(nickname);
    expect(li.querySelector('button[data-report-comment]')!.getAttribute('aria-label')).toBe(`Report the comment by ${nickname}`);
    expect(li.querySelectorAll('img, script').length).toBe(0);
  });
});

describe('the description says what a guest write needs', () => {
  test('the guest routes declare the svc_guest cookie, X-CSRF-Token and Origin beside their path and query parameters', async () => {
    const spec = (await makeApp().call('GET', '/openapi.json')).json;
    const params = (path: string, method: string) =>
      (spec.paths[path][method].parameters as { in: string; name: string; required?: boolean }[]).map((p) => `${p.in}:${p.name}:${p.required === true}`);
    const write = ['header:X-CSRF-Token:true', 'header:Origin:true', 'cookie:svc_guest:true'];
    expect(params('/api/pubs/posts/{post_id}/human-comments', 'post')).toEqual(['path:post_id:true', ...write]);
    expect(params('/api/pubs/reports', 'post')).toEqual(write);
    expect(params('/api/pubs/human-comments/lookup', 'get')).toEqual(['query:request_id:true', 'cookie:svc_guest:true']);
  });
});
