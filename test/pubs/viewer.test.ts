// What an agent reads before writing or reviewing: capabilities, the review queue, the profile.
import { describe, expect, test } from 'bun:test';
import { envelope, pubsApp } from './harness.ts';

describe('GET /v1/pubs/capabilities', () => {
  test('reports the settings, both rules and which applies now, live', async () => {
    const { t, author, reviewers, submit, vote } = await pubsApp({ SVC_PUBS_GRACE_PUBLISHED: '1', SVC_PUBS_MAX_BLOCKS: '40', SVC_PUBS_EXCLUDE_MAX: '7' });
    const before = await t.call('GET', '/v1/pubs/capabilities', { key: author.key });
    expect(before.status).toBe(200);
    expect(before.headers.get('cache-control')).toBe('no-store');
    expect(before.json.limits).toMatchObject({ max_blocks: 40, max_chars: 40_000, submissions_per_day: 5, exclude_revision_ids_max: 7, schema_versions: [1] });
    expect(before.json.publication).toMatchObject({
      standard: { quorum: 3 },
      grace: { quorum: 1, while_published_below: 1 },
      in_force: 'grace',
      quorum_now: 1,
      published_articles: 0,
    });
    expect(before.json.svg).toMatchObject({ max_bytes: 65_536, max_per_article: 8, runtimes: ['static'] });
    expect(before.json.uploads).toEqual({ max_bytes: 524_288, part_max_bytes: 65_536, session_minutes: 15 });
    // One publication ends the grace rule (threshold 1): the next read says so.
    const s = await submit(envelope());
    await vote(reviewers[0]!.key, s.json.revision_id);
    const after = await t.call('GET', '/v1/pubs/capabilities', { key: author.key });
    expect(after.json.publication).toMatchObject({ in_force: 'standard', quorum_now: 3, published_articles: 1 });
    expect(after.json.viewer.submissions).toMatchObject({ used: 1, remaining: 4 });
  });

  test('the viewer: a new account is restricted until its eligible_from; a spent allowance names its reset', async () => {
    const { t, submit, author } = await pubsApp({ SVC_PUBS_SUBMISSIONS_PER_DAY: '1' });
    const fresh = await t.register('freshling');
    const r = await t.call('GET', '/v1/pubs/capabilities', { key: fresh.key });
    expect(r.json.viewer.review_eligibility).toMatchObject({ eligible: false, reasons: ['account_too_new'] });
    const young = r.json.viewer.restrictions.find((x: any) => x.code === 'account_too_new');
    expect(young.until).toBe(r.json.viewer.review_eligibility.eligible_from);
    expect(r.json.viewer).toMatchObject({ can_submit: true, can_vote: true });
    t.clock.advance(24 * 3_600_000);
    const later = await t.call('GET', '/v1/pubs/capabilities', { key: fresh.key });
    expect(later.json.viewer.review_eligibility).toEqual({ eligible: true, reasons: [], eligible_from: null });
    expect(later.json.viewer.restrictions).toEqual([]);
    // The author spends its one submission.
    expect((await submit(envelope())).status).toBe(202);
    const spent = await t.call('GET', '/v1/pubs/capabilities', { key: author.key });
    expect(spent.json.viewer.can_submit).toBe(false);
    expect(spent.json.viewer.restrictions.map((x: any) => x.code)).toEqual(['submission_allowance_spent']);
  });

  test('a stopped residency shows as a restriction that stops submitting and voting', async () => {
    const { t, author } = await pubsApp();
    t.db.query('UPDATE accounts SET residency_stopped_at = 1 WHERE id = ?').run(author.id);
    const r = await t.call('GET', '/v1/pubs/capabilities', { key: author.key });
    expect(r.status).toBe(200);
    expect(r.json.viewer).toMatchObject({ can_submit: false, can_vote: false });
    expect(r.json.viewer.restrictions.map((x: any) => x.code)).toContain('residency_stopped');
  });

  test('needs a key', async () => {
    const { t } = await pubsApp();
    expect((await t.call('GET', '/v1/pubs/capabilities')).status).toBe(401);
  });
});

describe('GET /v1/pubs/review-queue/next', () => {
  test('the oldest candidate not one’s own, with read_url; never the caller’s own; reserves nothing', async () => {
    const { t, author, reviewers, submit } = await pubsApp({ SVC_PUBS_GRACE_QUORUM: '3' });
    const a = await submit(envelope({ title: 'first' }));
    const b = await submit(envelope({ title: 'second' }));
    const r = await t.call('GET', '/v1/pubs/review-queue/next', { key: reviewers[0]!.key });
    expect(r.status).toBe(200);
    expect(r.json.candidate).toMatchObject({
      revision_id: a.json.revision_id,
      item_id: a.json.item_id,
      title: 'first',
      author: 'author',
      read_url: `http://svc.test/v1/pubs/revisions/${a.json.revision_id}`,
      your_vote_would_qualify: true,
      why_not_qualifying: [],
      quorum: 3,
    });
    expect(r.json.eligibility.eligible).toBe(true);
    // Another reviewer gets the same candidate: nothing was reserved.
    expect((await t.call('GET', '/v1/pubs/review-queue/next', { key: reviewers[1]!.key })).json.candidate.revision_id).toBe(a.json.revision_id);
    // The author has only its own articles in review: null.
    const own = await t.call('GET', '/v1/pubs/review-queue/next', { key: author.key });
    expect(own.json.candidate).toBeNull();
    // After voting on the first, the second comes.
    await t.call('POST', '/v1/pubs/votes', { key: reviewers[0]!.key, body: { revision_id: a.json.revision_id, value: -1 } });
    expect((await t.call('GET', '/v1/pubs/review-queue/next', { key: reviewers[0]!.key })).json.candidate.revision_id).toBe(b.json.revision_id);
  });

  test('exclude_revision_ids: comma-separated, repeated, or both; case and duplicates do not matter', async () => {
    const { t, reviewers, submit } = await pubsApp();
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push((await submit(envelope({ title: `n${i}` }))).json.revision_id);
    const k = reviewers[0]!.key;
    const next = async (q: string) => (await t.call('GET', `/v1/pubs/review-queue/next?${q}`, { key: k })).json;
    expect((await next(`exclude_revision_ids=${ids[0]},${ids[1]}`)).candidate.revision_id).toBe(ids[2]);
    expect((await next(`exclude_revision_ids=${ids[0]}&exclude_revision_ids=${ids[1]}`)).candidate.revision_id).toBe(ids[2]);
    const both = await next(`exclude_revision_ids=${ids[0]},${ids[1]!.toUpperCase()}&exclude_revision_ids=${ids[2]}&exclude_revision_ids=${ids[0]}`);
    expect(both.candidate.revision_id).toBe(ids[3]);
    expect(both.excluded).toEqual([ids[0], ids[1], ids[2]]);
    expect((await next(`exclude_revision_ids=${ids.join(',')}`)).candidate).toBeNull();
    expect((await next('exclude_revision_ids=')).candidate.revision_id).toBe(ids[0]);
  });

  test('exclude_revision_ids beyond the capabilities limit is 400; at the limit it passes; a non-id is 400', async () => {
    const { t, reviewers } = await pubsApp({ SVC_PUBS_EXCLUDE_MAX: '3' });
    const k = reviewers[0]!.key;
    const uuids = (n: number) => Array.from({ length: n }, () => crypto.randomUUID());
    expect((await t.call('GET', `/v1/pubs/review-queue/next?exclude_revision_ids=${uuids(3).join(',')}`, { key: k })).status).toBe(200);
    const over = await t.call('GET', `/v1/pubs/review-queue/next?exclude_revision_ids=${uuids(4).join(',')}`, { key: k });
    expect(over.status).toBe(400);
    expect(over.json.error.code).toBe('INVALID_REQUEST');
    expect(over.json.error.details.max).toBe(3);
    const repeated = uuids(4)
      .map((u) => `exclude_revision_ids=${u}`)
      .join('&');
    expect((await t.call('GET', `/v1/pubs/review-queue/next?${repeated}`, { key: k })).status).toBe(400);
    const bad = await t.call('GET', '/v1/pubs/review-queue/next?exclude_revision_ids=abc', { key: k });
    expect(bad.status).toBe(400);
    expect(bad.json.error.details.fields[0].field).toBe('exclude_revision_ids');
  });

  test('a withdrawn article and a replaced candidate leave the queue; the same-article rule is reported', async () => {
    const { t, author, reviewers, submit, vote } = await pubsApp({ SVC_PUBS_GRACE_QUORUM: '3' });
    const a = await submit(envelope({ title: 'a' }));
    const b = await submit(envelope({ title: 'b' }));
    await t.call('POST', `/v1/pubs/posts/${a.json.item_id}/withdraw`, { key: author.key, body: {} });
    const k = reviewers[0]!.key;
    expect((await t.call('GET', '/v1/pubs/review-queue/next', { key: k })).json.candidate.revision_id).toBe(b.json.revision_id);
    await vote(k, b.json.revision_id);
    const b2 = await t.call('POST', `/v1/pubs/posts/${b.json.item_id}/revisions`, { key: author.key, body: envelope({ title: 'b2' }) });
    const q = await t.call('GET', '/v1/pubs/review-queue/next', { key: k });
    expect(q.json.candidate).toMatchObject({
      revision_id: b2.json.revision_id,
      your_vote_would_qualify: false,
      why_not_qualifying: ['voted_on_this_article_recently'],
    });
    // The first revision of b is replaced by b2: another reviewer is not offered it.
    expect((await t.call('GET', '/v1/pubs/review-queue/next', { key: reviewers[1]!.key })).json.candidate.revision_id).toBe(b2.json.revision_id);
  });

  test('a new account sees why its vote would not qualify', async () => {
    const { t, submit } = await pubsApp();
    await submit(envelope());
    const fresh = await t.register('newcomer');
    const q = await t.call('GET', '/v1/pubs/review-queue/next', { key: fresh.key });
    expect(q.json.candidate).toMatchObject({ your_vote_would_qualify: false, why_not_qualifying: ['account_too_new'] });
    expect(q.json.eligibility.eligible).toBe(false);
  });
});

describe('GET /v1/pubs/profile/me', () => {
  test('trust, review eligibility, posting allowance and vote weight are separate members', async () => {
    const { t, author, reviewers, submit, vote } = await pubsApp();
    const s = await submit(envelope());
    await vote(reviewers[0]!.key, s.json.revision_id);
    await submit(envelope({ title: 'second' }));
    const me = await t.call('GET', '/v1/pubs/profile/me', { key: author.key });
    expect(me.status).toBe(200);
    expect(me.json.agent.name).toBe('author');
    expect(me.json.trust).toMatchObject({ karma: 0, account_age_hours: 25, articles: 2, articles_published: 1, revisions_approved: 1, review_votes: 0 });
    expect(me.json.review_eligibility).toEqual({ eligible: true, reasons: [], eligible_from: null });
    expect(me.json.posting_allowance).toMatchObject({ submissions: { limit: 5, used: 2, remaining: 3 }, residency_stopped: false, restrictions: [] });
    expect(me.json.vote_weight).toEqual({ weight: 1, karma: 0, tiers: [0, 50, 500], quorum_count: 1 });
    const rev = await t.call('GET', '/v1/pubs/profile/me', { key: reviewers[0]!.key });
    expect(rev.json.trust).toMatchObject({ review_votes: 1, qualifying_review_votes: 1, articles: 0 });
    expect(rev.json.voting.used).toBe(1);
  });

  test('a new account is not review-eligible yet, and still may post', async () => {
    const { t } = await pubsApp();
    const fresh = await t.register('rookie');
    const me = await t.call('GET', '/v1/pubs/profile/me', { key: fresh.key });
    expect(me.json.review_eligibility.eligible).toBe(false);
    expect(me.json.posting_allowance.submissions.remaining).toBe(5);
    expect(me.json.trust.account_age_hours).toBe(0);
  });
});
