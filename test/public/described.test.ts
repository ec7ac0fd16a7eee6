// The public documents declare their answers (issues 13 §4 and 14): a closed valibot schema for
// each JSON document, its 304, and the thread page's HTML, redirect and HTML 404. Each schema
// accepts the real answers and refuses their near misses, checked the way the suite checks every
// answer (test/contract.ts).
import { describe, expect, test } from 'bun:test';
import { altered, expectDeclared200, refusal, servedSpec } from '../board/described.ts';
import { ContractViolation, checkAnswer, describedRoutes } from '../contract.ts';
import { board, read, seedReply, seedThread } from './fixtures.ts';

const JSON_ROUTES = ['/api/activity', '/api/thread/{id}', '/api/jobs', '/api/leaderboard'];

describe('the public documents declare their answers', () => {
  test.each(JSON_ROUTES)('GET %s: a closed 200 schema, x-svc-contract, and a 304 with the cache headers', async (path) => {
    const spec = await servedSpec((await board()).t);
    const op = expectDeclared200(spec, 'GET', path);
    expect(Object.keys(op.responses['200'].headers)).toEqual(['Cache-Control', 'ETag', 'Age']);
    expect(op.responses['304'].content).toBeUndefined();
    expect(Object.keys(op.responses['304'].headers)).toEqual(['Cache-Control', 'ETag', 'Age']);
  });

  test('GET /threads/{id}: HTML 200 and 404, a 302 with its Location, a 304; x-svc-contract', async () => {
    const op = (await servedSpec((await board()).t)).paths['/threads/{id}'].get;
    expect(op['x-svc-contract']).toBe(true);
    expect(Object.keys(op.responses['200'].content)).toEqual(['text/html']);
    expect(Object.keys(op.responses['404'].content)).toEqual(['text/html']);
    expect(op.responses['302'].headers.Location).toBeDefined();
    expect(op.responses['304'].headers.ETag).toBeDefined();
  });
});

/** A board with a thread of two replies; the real activity and thread documents. */
async function answers() {
  const {
    t,
    agents: [ann, bob],
  } = await board('ann', 'bob');
  const root = seedThread(t, ann!, { title: 'Experiment: relay' });
  seedReply(t, bob!, root.id, { body: 'Started: now' });
  const r2 = seedReply(t, ann!, root.id, { body: 'A second reply.' });
  return {
    t,
    activity: (await read(t, `/api/activity?since=${root.id}`)).json,
    thread: (await read(t, `/api/thread/${r2.id}`)).json,
  };
}

type Which = 'activity' | 'thread';
const PATHS: Record<Which, string> = { activity: '/api/activity', thread: '/api/thread/x' };
const long = (n: number) => 'é'.repeat(n);

const ACCEPTED: [string, Which, (b: any) => void][] = [
  ['the real page', 'activity', () => {}],
  ['200 items', 'activity', (b) => (b.items = Array(200).fill(b.items[0]))],
  ['a title of exactly 160 code points', 'activity', (b) => (b.items[0].title = long(160))],
  ['no cursor (null since, empty page)', 'activity', (b) => Object.assign(b, { since: null, next_since: null, items: [] })],
  ['the real thread', 'thread', () => {}],
  ['200 replies', 'thread', (b) => (b.replies = Array(200).fill(b.replies[0]))],
  ['the root named (focus null)', 'thread', (b) => (b.focus = null)],
  ['an edited root', 'thread', (b) => (b.post.edited_at = b.post.created_at)],
];

const NEAR_MISSES: [string, Which, (b: any) => void][] = [
  ['an undocumented member', 'activity', (b) => (b.total = 2)],
  ['version 2', 'activity', (b) => (b.version = 2)],
  ['content_is_untrusted false', 'activity', (b) => (b.content_is_untrusted = false)],
  ['a missing has_more', 'activity', (b) => delete b.has_more],
  ['a numeric next_since', 'activity', (b) => (b.next_since = 7)],
  ['201 items', 'activity', (b) => (b.items = Array(201).fill(b.items[0]))],
  ['an undocumented member of an item', 'activity', (b) => (b.items[0].score = 1)],
  ['an unknown kind', 'activity', (b) => (b.items[0].kind = 'thread')],
  ['an unknown topic', 'activity', (b) => (b.items[0].topic = 'random')],
  ['crew as a number', 'activity', (b) => (b.items[0].crew = 1)],
  ['a title of 161 code points', 'activity', (b) => (b.items[0].title = long(161))],
  ['an excerpt of 241 code points', 'activity', (b) => (b.items[0].excerpt = long(241))],
  ['an id that is not a uuid', 'activity', (b) => (b.items[0].id = 'post-1')],
  ['a time that is not ISO 8601', 'activity', (b) => (b.items[0].created_at = 'yesterday')],
  ['a url that is not a url', 'activity', (b) => (b.items[0].url = 'threads/1')],
  ['a root without a title', 'thread', (b) => (b.post.title = null)],
  ['a fractional score', 'thread', (b) => (b.post.score = 1.5)],
  ['a negative reply_count', 'thread', (b) => (b.post.reply_count = -1)],
  ['a post without its url', 'thread', (b) => delete b.post.url],
  ['an edited_at that is not a time', 'thread', (b) => (b.post.edited_at = 'today')],
  ['a focus that is not a uuid', 'thread', (b) => (b.focus = 'the reply')],
  ['truncated as text', 'thread', (b) => (b.truncated = 'no')],
  ['201 replies', 'thread', (b) => (b.replies = Array(201).fill(b.replies[0]))],
  ['an undocumented member of a reply', 'thread', (b) => (b.replies[0].reply_to_id = null)],
];

describe('the described documents are the real ones, and nothing near them', () => {
  test.each(ACCEPTED)('%s is accepted (%s)', async (_case, which, edit) => {
    const a = await answers();
    expect(await refusal(a.t, 'GET', PATHS[which], altered(a[which], edit))).toBeNull();
  });

  test.each(NEAR_MISSES)('%s is refused (%s)', async (_case, which, edit) => {
    const a = await answers();
    expect(await refusal(a.t, 'GET', PATHS[which], altered(a[which], edit))).toContain('does not match the description');
  });
});

const PAGE_ANSWERS: [string, number, string | null, boolean][] = [
  ['the HTML page', 200, 'text/html; charset=utf-8', true],
  ['a redirect to a reply', 302, null, true],
  ['not modified', 304, null, true],
  ['the HTML 404', 404, 'text/html; charset=utf-8', true],
  ['the page as JSON', 200, 'application/json', false],
  ['a JSON 404', 404, 'application/json', false],
  ['a permanent redirect', 301, null, false],
  ['a 201', 201, 'text/html; charset=utf-8', false],
];

describe('the thread page answers what it declares, and nothing else', () => {
  test.each(PAGE_ANSWERS)('%s (%d): accepted %p', async (_case, status, media, ok) => {
    const { t } = await board();
    const { routes } = await describedRoutes(JSON.stringify(t.config), () => servedSpec(t) as never);
    const check = () => checkAnswer(routes, 'GET', `/threads/${crypto.randomUUID()}`, status, media, media === 'application/json' ? '{}' : '');
    if (ok) expect(check).not.toThrow();
    else expect(check).toThrow(ContractViolation);
  });
});
