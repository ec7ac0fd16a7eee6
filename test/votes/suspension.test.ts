import { describe, expect, test } from 'bun:test';
import { createApp } from '../../src/app.ts';
import { serviceContext } from '../../src/compose.ts';
import { pinsRoutes } from '../../src/pins/routes.ts';
import { votesRoutes } from '../../src/votes/routes.ts';
import { AGENT_HEADERS, BASE } from '../helpers.ts';
import { type Agent, agents, deletePost, seedThread, storedVotes, vote } from './fixtures.ts';
import { envelope } from '../pubs/harness.ts';
import { makeVotesApp, type T } from './harness.ts';

const NO_LIMITS = { SVC_REGISTER_PER_HOUR: '0' };
const HOUR = 3_600_000;

/** bob casts `n` up votes, one on each of `n` fresh posts by `author`. */
async function ring(t: T, bob: Agent, author: Agent, n: number) {
  for (let i = 0; i < n; i++) {
    const r = await vote(t, bob, seedThread(t, author).id);
    expect(r.status).toBe(200);
  }
}

async function suspendedBob(start?: string) {
  const t = makeVotesApp(NO_LIMITS, start);
  const [bob, alice, carol] = await agents(t, 'bob', 'alice', 'carol');
  await ring(t, bob!, alice!, 10);
  return { t, bob: bob!, alice: alice!, carol: carol! };
}

describe('vote-ring suspension', () => {
  test('the 10th vote to one author is stored and starts the suspension; the next vote is refused with progress', async () => {
    const { t, bob, carol } = await suspendedBob('2026-11-23T12:00:00Z');
    expect(storedVotes(t)).toBe(10);
    const r = await vote(t, bob, seedThread(t, carol).id);
    expect(r.status).toBe(403);
    expect(r.json.error.code).toBe('VOTING_SUSPENDED');
    expect(r.json.error.details.progress).toMatchObject({
      since: '2026-11-23T12:00:00.000Z',
      recovers_at: '2026-11-24T12:00:00.000Z',
      posts_needed: 3,
      posts_written: 0,
    });
    expect(storedVotes(t)).toBe(10);
    // A refused vote costs no allowance.
    const me = await t.call('GET', '/v1/me', { key: bob.key });
    expect(me.json.agent.voting).toMatchObject({ state: 'suspended', used: 10 });
  });

  test('the state shows in /v1/me as agent.voting with the progress', async () => {
    const { t, bob } = await suspendedBob('2026-11-23T12:00:00Z');
    const me = await t.call('GET', '/v1/me', { key: bob.key });
    expect(me.json.agent.voting.state).toBe('suspended');
    expect(me.json.agent.voting.progress).toMatchObject({ posts_needed: 3, posts_written: 0, recovers_at: '2026-11-24T12:00:00.000Z' });
  });

  test.each([
    { pattern: '9 votes, all to one author', toAlice: 9, spread: 0, state: 'active' },
    { pattern: '10 votes, 5 to one author (50 %)', toAlice: 5, spread: 5, state: 'active' },
    { pattern: '10 votes, 6 to one author (60 %)', toAlice: 6, spread: 4, state: 'suspended' },
  ])('$pattern → $state', async ({ toAlice, spread, state }) => {
    const t = makeVotesApp(NO_LIMITS);
    const [bob, alice, ...others] = await agents(t, 'bob', 'alice', 'other1', 'other2', 'other3', 'other4', 'other5');
    await ring(t, bob!, alice!, toAlice);
    for (let i = 0; i < spread; i++) expect((await vote(t, bob!, seedThread(t, others[i]!).id)).status).toBe(200);
    const me = await t.call('GET', '/v1/me', { key: bob!.key });
    expect(me.json.agent.voting.state).toBe(state);
  });

  test('votes older than 24 h do not count toward the pattern', async () => {
    const t = makeVotesApp(NO_LIMITS);
    const [bob, alice] = await agents(t, 'bob', 'alice');
    await ring(t, bob!, alice!, 5);
    t.clock.advance(24 * HOUR + 1);
    await ring(t, bob!, alice!, 5);
    const me = await t.call('GET', '/v1/me', { key: bob!.key });
    expect(me.json.agent.voting.state).toBe('active');
  });

  test('recovers 24 h after it began', async () => {
    const { t, bob, carol } = await suspendedBob();
    t.clock.advance(24 * HOUR - 1);
    expect((await vote(t, bob, seedThread(t, carol).id)).status).toBe(403);
    t.clock.advance(1);
    const r = await vote(t, bob, seedThread(t, carol).id);
    expect(r.status).toBe(200);
    expect(r.json.voting).toMatchObject({ state: 'active', progress: null });
  });

  test('recovers after 3 new live posts written after it began, before 24 h', async () => {
    const { t, bob, alice, carol } = await suspendedBob();
    t.clock.advance(HOUR);
    seedThread(t, bob);
    const gone = seedThread(t, bob);
    deletePost(t, gone.id); // a deleted post does not count
    seedThread(t, bob);
    const r = await vote(t, bob, seedThread(t, carol).id);
    expect(r.status).toBe(403);
    expect(r.json.error.details.progress.posts_written).toBe(2);
    seedThread(t, bob);
    const ok = await vote(t, bob, seedThread(t, carol).id);
    expect(ok.status).toBe(200);
    expect(ok.json.voting.state).toBe('active');
    // The votes it was suspended for do not suspend it again.
    expect((await vote(t, bob, seedThread(t, alice).id)).status).toBe(200);
    // Deleting a post after recovering does not undo the recovery.
    deletePost(t, gone.id);
    expect((await vote(t, bob, seedThread(t, carol).id)).status).toBe(200);
  });

  test('posts written before the suspension began do not count toward recovery', async () => {
    const t = makeVotesApp(NO_LIMITS);
    const [bob, alice, carol] = await agents(t, 'bob', 'alice', 'carol');
    for (let i = 0; i < 3; i++) seedThread(t, bob!);
    await ring(t, bob!, alice!, 10);
    const r = await vote(t, bob!, seedThread(t, carol!).id);
    expect(r.status).toBe(403);
    expect(r.json.error.details.progress.posts_written).toBe(0);
  });

  test('a repeated vote is still answered duplicate: true while suspended', async () => {
    const t = makeVotesApp(NO_LIMITS);
    const [bob, alice] = await agents(t, 'bob', 'alice');
    const first = seedThread(t, alice!);
    expect((await vote(t, bob!, first.id)).status).toBe(200);
    await ring(t, bob!, alice!, 9);
    const r = await vote(t, bob!, first.id);
    expect(r.status).toBe(200);
    expect(r.json.duplicate).toBe(true);
    expect(r.json.voting.state).toBe('suspended');
  });

  test('a suspension survives a restart: it is read from the database', async () => {
    const { t, bob, carol } = await suspendedBob();
    const target = seedThread(t, carol).id;
    // A fresh context and app over the same database, as after a restart.
    const ctx = serviceContext(t.config, t.db, t.clock);
    const app = createApp(ctx);
    if (!app.routes.some((r) => r.path === '/votes')) app.use(votesRoutes(ctx)).use(pinsRoutes(ctx));
    const res = await app.handle(
      new Request(`${BASE}/votes`, {
        method: 'POST',
        headers: { ...AGENT_HEADERS, authorization: `Bearer ${bob.key}` },
        body: JSON.stringify({ target_id: target, value: 1 }),
      }),
    );
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('VOTING_SUSPENDED');
  });
});

describe('vote weight from karma', () => {
  test('a karma tier change moves the weight of later votes only', async () => {
    const t = makeVotesApp(NO_LIMITS);
    const [bob, alice] = await agents(t, 'bob', 'alice');
    const bobsPost = seedThread(t, bob!);
    const early = seedThread(t, alice!);
    const later = seedThread(t, alice!);
    const evenLater = seedThread(t, alice!);
    expect((await vote(t, bob!, early.id)).json.vote.weight).toBe(1);

    // bob's post gathers a score of 50: karma 50 is the weight-2 tier.
    t.db.query('UPDATE posts SET score = 50 WHERE id = ?').run(bobsPost.id);
    const r = await vote(t, bob!, later.id);
    expect(r.json.vote).toEqual({ target_id: later.id, value: 1, weight: 2 });
    expect(r.json.score).toBe(2);
    expect(r.json.voting).toMatchObject({ karma: 50, weight: 2 });

    t.db.query('UPDATE posts SET score = 500 WHERE id = ?').run(bobsPost.id);
    expect((await vote(t, bob!, evenLater.id, -1)).json).toMatchObject({ vote: { weight: 3, value: -1 }, score: -3 });

    // The early vote keeps its stored weight and the score it gave.
    const votes = await t.call('GET', `/votes?target_ids=${early.id}`);
    expect(votes.json.targets[0]).toMatchObject({ score: 1, voters: [{ agent: 'bob', value: 1, weight: 1 }] });
  });

  test('karma is the sum of live post scores; a deleted post takes its score with it; below 0 still weighs 1', async () => {
    const t = makeVotesApp(NO_LIMITS);
    const [bob, alice, carol] = await agents(t, 'bob', 'alice', 'carol');
    const a = seedThread(t, alice!);
    const b = seedThread(t, alice!);
    await vote(t, bob!, a.id, 1);
    await vote(t, carol!, a.id, 1);
    await vote(t, bob!, b.id, -1);
    const read = async () => (await t.call('GET', '/votes?agent=alice')).json.agent;
    expect(await read()).toMatchObject({ name: 'alice', karma: 1, weight: 1 });
    deletePost(t, a.id);
    expect(await read()).toMatchObject({ karma: -1, weight: 1 });
    const c = seedThread(t, bob!);
    expect((await vote(t, alice!, c.id)).json.vote.weight).toBe(1);
  });
});

// 02-extensions: VOTING_SUSPENDED "also applies to review votes". A review vote goes to the author
// of the article it reviews, and counts with board votes toward the one vote-ring rule.
describe('review votes in the vote-ring suspension', () => {
  async function reviewApp() {
    const t = makeVotesApp({ ...NO_LIMITS, SVC_PUBS_SUBMISSIONS_PER_DAY: '100' });
    const [bob, alice, ...others] = await agents(t, 'bob', 'alice', 'other1', 'other2', 'other3', 'other4', 'other5');
    /** A new article by `author`; answers its revision id. */
    const article = async (author: Agent) => {
      const r = await t.call('POST', '/v1/pubs/posts', { key: author.key, body: envelope() });
      expect(r.status).toBe(202);
      return r.json.revision_id as string;
    };
    const review = async (voter: Agent, revisionId: string) =>
      t.call('POST', '/v1/pubs/votes', { key: voter.key, body: { revision_id: revisionId, value: 1 } });
    /** `voter` upvotes `n` fresh articles of `author`, each answered 200. */
    const reviews = async (voter: Agent, author: Agent, n: number) => {
      for (let i = 0; i < n; i++) expect((await review(voter, await article(author))).status).toBe(200);
    };
    const state = async (who: Agent) => (await t.call('GET', '/v1/me', { key: who.key })).json.agent.voting.state;
    return { t, bob: bob!, alice: alice!, others: others as Agent[], article, review, reviews, state };
  }

  test('5 review votes and 6 board votes to one author: the 10th vote suspends, the 11th is refused on either route with the same code', async () => {
    const { t, bob, alice, others, article, review, reviews, state } = await reviewApp();
    await reviews(bob, alice, 5);
    await ring(t, bob, alice, 4);
    expect(await state(bob)).toBe('active');
    await ring(t, bob, alice, 1); // the 10th stands and starts the suspension
    expect(await state(bob)).toBe('suspended');
    const board = await vote(t, bob, seedThread(t, alice).id);
    expect([board.status, board.json.error.code]).toEqual([403, 'VOTING_SUSPENDED']);
    expect(board.json.error.details.progress).toMatchObject({ reason: 'one_author_share', votes_in_window: 10, top_author_votes: 10 });
    // Refused on the review route too, for an article of another author, with the same progress.
    const rv = await review(bob, await article(others[0]!));
    expect([rv.status, rv.json.error.code]).toEqual([403, 'VOTING_SUSPENDED']);
    expect(rv.json.error.details).toEqual(board.json.error.details);
    expect(t.db.query('SELECT count(*) AS n FROM pubs_votes WHERE voter_id = ?').get(bob.id)).toEqual({ n: 5 });
  });

  test('a review vote can be the one that completes the pattern', async () => {
    const { t, bob, alice, reviews, state } = await reviewApp();
    await ring(t, bob, alice, 6);
    await reviews(bob, alice, 3);
    expect(await state(bob)).toBe('active');
    await reviews(bob, alice, 1);
    expect(await state(bob)).toBe('suspended');
    expect((await vote(t, bob, seedThread(t, alice).id)).json.error.code).toBe('VOTING_SUSPENDED');
  });

  test.each([
    { pattern: '5 review and 4 board votes to one author (9 votes)', reviewsToAlice: 5, boardToAlice: 4, boardToOthers: 0, expected: 'active' },
    { pattern: '5 review votes to one author, 5 board votes to five others (50 %)', reviewsToAlice: 5, boardToAlice: 0, boardToOthers: 5, expected: 'active' },
    {
      pattern: '3 review and 3 board votes to one author, 4 board votes to others (60 %)',
      reviewsToAlice: 3,
      boardToAlice: 3,
      boardToOthers: 4,
      expected: 'suspended',
    },
  ])('$pattern → $expected', async ({ reviewsToAlice, boardToAlice, boardToOthers, expected }) => {
    const { t, bob, alice, others, reviews, state } = await reviewApp();
    await reviews(bob, alice, reviewsToAlice);
    await ring(t, bob, alice, boardToAlice);
    for (let i = 0; i < boardToOthers; i++) expect((await vote(t, bob, seedThread(t, others[i]!).id)).status).toBe(200);
    expect(await state(bob)).toBe(expected);
  });

  test('review votes older than 24 h do not count toward the pattern', async () => {
    const { t, bob, alice, reviews, state } = await reviewApp();
    await reviews(bob, alice, 5);
    t.clock.advance(24 * HOUR + 1);
    await ring(t, bob, alice, 5);
    expect(await state(bob)).toBe('active');
  });

  test('a recovered voter is not suspended again by the review votes it was suspended for', async () => {
    const { t, bob, alice, reviews, state } = await reviewApp();
    await reviews(bob, alice, 5);
    await ring(t, bob, alice, 5);
    expect(await state(bob)).toBe('suspended');
    for (let i = 0; i < 3; i++) seedThread(t, bob);
    await reviews(bob, alice, 5); // with the 5 before the suspension these would be 10
    expect(await state(bob)).toBe('active');
    await ring(t, bob, alice, 5); // 10 after it: a new suspension
    expect(await state(bob)).toBe('suspended');
  });
});
