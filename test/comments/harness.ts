// Shared setup of the comment tests: an app with one published article (the grace quorum is 1),
// guest sessions with their cookie and CSRF token, and ALTCHA solved by altcha-lib's own solver.
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { makeApp } from '../helpers.ts';
import { envelope, pubsParts } from '../pubs/harness.ts';

export const ORIGIN = 'http://svc.test';

/** test/pubs/harness.ts's article envelope with one paragraph. */
export const articleEnvelope = (over: Record<string, unknown> = {}) =>
  envelope({ blocks: [{ type: 'paragraph', text: 'The cache halves the p99 of the feed.' }], ...over });

export function commentEnvelope(revisionId: string, over: Record<string, unknown> = {}) {
  return {
    schema_version: 1,
    language: 'en',
    idempotency_key: crypto.randomUUID(),
    article_revision_id: revisionId,
    blocks: [{ type: 'paragraph', text: 'The warm-up should be excluded.' }],
    ...over,
  };
}

/**
 * The app's clock starts at the real time: altcha-lib judges a challenge's expiry by the wall
 * clock too, so the two must agree (the service's own check uses its clock, which tests advance).
 */
export async function commentsApp(env: Record<string, string> = {}) {
  const start = new Date(Math.floor(Date.now() / 1000) * 1000).toISOString();
  const t = makeApp({ SVC_GUEST_CHALLENGE_COST: '1', ...env }, start, pubsParts());
  const author = await t.register('author');
  const reviewer = await t.register('reviewer');
  const other = await t.register('other');
  t.clock.advance(25 * 3_600_000);
  const publish = async (over: Record<string, unknown> = {}) => {
    const sub = await t.call('POST', '/v1/pubs/posts', { key: author.key, body: articleEnvelope(over) });
    if (sub.status !== 202) throw new Error(`submit: ${sub.status} ${sub.text}`);
    const vote = await t.call('POST', '/v1/pubs/votes', { key: reviewer.key, body: { revision_id: sub.json.revision_id, value: 1 } });
    if (vote.status !== 200) throw new Error(`vote: ${vote.status} ${vote.text}`);
    return { postId: sub.json.item_id as string, revisionId: sub.json.revision_id as string };
  };
  const candidate = async () => {
    const sub = await t.call('POST', '/v1/pubs/posts', { key: author.key, body: articleEnvelope() });
    return { postId: sub.json.item_id as string, revisionId: sub.json.revision_id as string };
  };
  const article = await publish();

  /** A guest: GET /api/pubs/human-session, keeping the cookie. */
  const guest = async (headers: Record<string, string> = {}) => {
    const r = await t.call('GET', '/api/pubs/human-session', {
      headers: { 'x-agent-protocol': '', 'content-type': '', accept: 'application/json', ...headers },
    });
    if (r.status !== 200) throw new Error(`session: ${r.status} ${r.text}`);
    const cookie = /svc_guest=([^;]+)/.exec(r.headers.get('set-cookie') ?? '')?.[1] ?? null;
    return { cookie: cookie!, csrf: r.json.csrf as string, session: r.json, setCookie: r.headers.get('set-cookie') };
  };
  /** A fresh challenge of this guest's session, solved. */
  const solve = async (g: { cookie: string }) => {
    const r = await t.call('GET', '/api/pubs/human-session', { headers: { cookie: `svc_guest=${g.cookie}`, 'x-agent-protocol': '' } });
    const data = r.json.challenge.data;
    const solution = await solveChallenge({ challenge: data, deriveKey });
    return { data, solution: solution!, payload: Buffer.from(JSON.stringify({ challenge: data, solution })).toString('base64') };
  };
  const guestHeaders = (g: { cookie: string; csrf: string }, over: Record<string, string> = {}) => ({
    cookie: `svc_guest=${g.cookie}`,
    'x-csrf-token': g.csrf,
    origin: ORIGIN,
    'x-agent-protocol': '',
    ...over,
  });
  const guestBody = (over: Record<string, unknown> = {}) => ({
    nickname: 'Ada',
    comment: 'Nice measurement.',
    request_id: crypto.randomUUID(),
    article_revision_id: article.revisionId,
    ...over,
  });
  /** A guest comment with a freshly solved challenge (unless the body already has one). */
  const guestComment = async (
    g: { cookie: string; csrf: string },
    body: Record<string, unknown> = {},
    headers: Record<string, string> = {},
    postId = article.postId,
  ) => {
    const challenge = 'challenge' in body ? body.challenge : (await solve(g)).payload;
    return t.call('POST', `/api/pubs/posts/${postId}/human-comments`, { headers: guestHeaders(g, headers), body: guestBody({ ...body, challenge }) });
  };
  const agentComment = (key: string, body: Record<string, unknown>, postId = article.postId) =>
    t.call('POST', `/v1/pubs/posts/${postId}/comments`, { key, body });
  return { t, author, reviewer, other, article, publish, candidate, guest, solve, guestHeaders, guestBody, guestComment, agentComment };
}
