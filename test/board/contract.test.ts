// The board's answers are described (issues 13 §4 and 14): every route declares its 200 answer as
// a closed schema, and that schema refuses the near misses of a real answer.
import { describe, expect, test } from 'bun:test';
import { makeApp } from '../helpers.ts';
import { idem, reply, thread } from './board-helpers.ts';
import { altered, expectDeclared200, refusal, servedSpec } from './described.ts';

const ROUTES: [string, string][] = [
  ['GET', '/v1/posts'],
  ['POST', '/v1/posts'],
  ['GET', '/v1/posts/{id}'],
  ['DELETE', '/v1/posts/{id}'],
  ['POST', '/v1/posts/{id}/replies'],
  ['POST', '/v1/posts/{id}/edit'],
  ['GET', '/v1/rules'],
  ['GET', '/v1/activity'],
];

describe('the board routes declare their answers', () => {
  test.each(ROUTES)('%s %s has a closed 200 schema and x-svc-contract', async (method, path) => {
    expectDeclared200(await servedSpec(makeApp()), method, path);
  });
});

/** A board with one thread, one reply and one rules reply; real answers of each read route. */
async function answers() {
  const t = makeApp();
  const ann = await t.register('ann');
  const root = await thread(t, ann, { title: 'Experiment: relay' });
  const r = await reply(t, ann, root.id, { body: 'Started: now' });
  const rulesId = (await t.call('GET', '/v1/rules', { key: ann.key })).json.rules.id as string;
  await reply(t, ann, rulesId, { body: 'A thought on the rules.' });
  const read = async (path: string) => (await t.call('GET', path, { key: ann.key })).json;
  const created = await t.call('POST', '/v1/posts', { key: ann.key, body: { topic: 'general', title: 'T', body: 'B' }, headers: idem() });
  return {
    t,
    feed: await read('/v1/posts'),
    thread: await read(`/v1/posts/${r.id}`),
    rules: await read('/v1/rules'),
    activity: await read('/v1/activity'),
    created: created.json,
  };
}

type Case = [string, 'feed' | 'thread' | 'rules' | 'activity' | 'created', string, (b: any) => void];

const NEAR_MISSES: Case[] = [
  ['an undocumented member', 'feed', '/v1/posts', (b) => (b.total = 2)],
  ['a missing viewer', 'feed', '/v1/posts', (b) => delete b.viewer],
  ['an undocumented member of a post', 'feed', '/v1/posts', (b) => (b.posts[0].likes = 1)],
  ['an unknown kind', 'feed', '/v1/posts', (b) => (b.posts[0].kind = 'thread')],
  ['an unknown topic', 'feed', '/v1/posts', (b) => (b.posts[0].topic = 'random')],
  ['a fractional score', 'feed', '/v1/posts', (b) => (b.posts[0].score = 1.5)],
  ['a negative reply_count', 'feed', '/v1/posts', (b) => (b.posts[0].reply_count = -1)],
  ['a time that is not ISO 8601', 'feed', '/v1/posts', (b) => (b.posts[0].created_at = 'yesterday')],
  ['an id that is not a uuid', 'feed', '/v1/posts', (b) => (b.posts[0].id = 'post-1')],
  ['a url that is not a url', 'feed', '/v1/posts', (b) => (b.posts[0].url = 'threads/1')],
  ['a numeric cursor', 'feed', '/v1/posts', (b) => (b.next_after = 7)],
  ['101 posts on one page', 'feed', '/v1/posts', (b) => (b.posts = Array(101).fill(b.posts[0]))],
  ['a voting state with an undocumented member', 'feed', '/v1/posts', (b) => (b.viewer.voting.mood = 'ok')],
  ['a focus that is not a uuid', 'thread', '/v1/posts/x', (b) => (b.focus = 'the reply')],
  ['replies that are not a list', 'thread', '/v1/posts/x', (b) => (b.replies = b.replies[0])],
  ['201 replies on one page', 'thread', '/v1/posts/x', (b) => (b.replies = Array(201).fill(b.replies[0]))],
  ['an editor that is a number', 'rules', '/v1/rules', (b) => (b.rules.edited_by = 5)],
  ['discussion_truncated as text', 'rules', '/v1/rules', (b) => (b.discussion_truncated = 'no')],
  ['an activity page without next_before', 'activity', '/v1/activity', (b) => delete b.next_before],
  ['a negative remaining quota', 'created', '/v1/posts', (b) => (b.posting_quota.remaining = -1)],
  ['a quota without resets_at', 'created', '/v1/posts', (b) => delete b.posting_quota.resets_at],
];

describe('the described answers are the real ones, and nothing near them', () => {
  test('every real answer is accepted, 100 posts and 200 replies included', async () => {
    const a = await answers();
    expect(await refusal(a.t, 'GET', '/v1/posts', a.feed)).toBeNull();
    expect(
      await refusal(
        a.t,
        'GET',
        '/v1/posts',
        altered(a.feed, (b) => (b.posts = Array(100).fill(b.posts[0]))),
      ),
    ).toBeNull();
    expect(
      await refusal(
        a.t,
        'GET',
        '/v1/posts/x',
        altered(a.thread, (b) => (b.replies = Array(200).fill(b.replies[0]))),
      ),
    ).toBeNull();
    expect(await refusal(a.t, 'GET', '/v1/rules', a.rules)).toBeNull();
    expect(await refusal(a.t, 'GET', '/v1/activity', a.activity)).toBeNull();
    expect(await refusal(a.t, 'POST', '/v1/posts', a.created)).toBeNull();
  });

  test.each(NEAR_MISSES)('%s is refused (%s)', async (_case, which, path, edit) => {
    const a = await answers();
    const method = which === 'created' ? 'POST' : 'GET';
    expect(await refusal(a.t, method, path, altered(a[which], edit))).toContain('does not match the description');
  });
});
