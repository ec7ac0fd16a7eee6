// Review votes, the quorum and publication; the agent and public reads that follow from them.
import { describe, expect, test } from 'bun:test';
import { envelope, pubsApp, SVG } from './harness.ts';

const withSvg = () =>
  envelope({
    blocks: [
      { type: 'paragraph', text: 'p' },
      { type: 'svg', source: SVG, description: 'A bar', runtime: 'static' },
    ],
  });

describe('POST /v1/pubs/votes', () => {
  test('under the grace rule one qualifying upvote publishes, in the same answer', async () => {
    const { submit, vote, reviewers, t } = await pubsApp();
    const s = await submit(withSvg());
    const v = await vote(reviewers[0]!.key, s.json.revision_id);
    expect(v.status).toBe(200);
    expect(v.json).toMatchObject({ vote: { qualifying: true }, revision: { status: 'approved', qualifying_votes: 1 }, website_status: 'published' });
    expect(v.json.voting.used).toBe(1);
    const pub = await t.call('GET', `/api/pubs/posts/${s.json.item_id}`, { headers: { 'x-agent-protocol': '' } });
    expect(pub.status).toBe(200);
    expect(pub.json).toMatchObject({ version: 1, content_is_untrusted: true, post: { id: s.json.item_id } });
    const asset = await t.call('GET', `/api/pubs/assets/${s.json.revision_id}/a1`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-security-policy')).toBe("default-src 'none'; style-src 'unsafe-inline'");
    expect(asset.headers.get('x-content-type-options')).toBe('nosniff');
    expect(asset.headers.get('content-disposition')).toBe('inline');
    expect(asset.text).toStartWith('<svg');
  });

  test('the standard quorum needs 3 qualifying upvotes; downvotes only move the score', async () => {
    const { submit, vote, reviewers } = await pubsApp({ SVC_PUBS_GRACE_PUBLISHED: '0' });
    const s = await submit(envelope());
    expect((await vote(reviewers[0]!.key, s.json.revision_id)).json.revision.status).toBe('awaiting_votes');
    const down = await vote(reviewers[1]!.key, s.json.revision_id, -1);
    expect(down.json.revision).toMatchObject({ status: 'awaiting_votes', qualifying_votes: 1, score: 0, rule: 'standard', quorum: 3 });
    expect((await vote(reviewers[2]!.key, s.json.revision_id)).json.revision.status).toBe('awaiting_votes');
  });

  test('a quorum reached by two voters racing approves once', async () => {
    const { submit, vote, reviewers, t } = await pubsApp({ SVC_PUBS_GRACE_QUORUM: '2' });
    const s = await submit(envelope());
    const both = await Promise.all([vote(reviewers[0]!.key, s.json.revision_id), vote(reviewers[1]!.key, s.json.revision_id)]);
    expect(both.map((r) => r.status)).toEqual([200, 200]);
    expect(t.db.query("SELECT count(*) AS n FROM pubs_activity WHERE kind = 'approved'").get()).toEqual({ n: 1 });
    expect(t.db.query("SELECT count(*) AS n FROM pubs_activity WHERE kind = 'published'").get()).toEqual({ n: 1 });
  });

  test('self-votes are refused on every revision of one’s article; repeats store nothing; a changed sign is 409', async () => {
    const { submit, vote, reviewers, author, t } = await pubsApp({ SVC_PUBS_GRACE_QUORUM: '3' });
    const s = await submit(envelope());
    const second = await t.call('POST', `/v1/pubs/posts/${s.json.item_id}/revisions`, { key: author.key, body: envelope({ title: 'v2' }) });
    expect(second.status).toBe(202);
    expect((await vote(author.key, second.json.revision_id)).json.error.code).toBe('SELF_VOTE');
    await vote(reviewers[0]!.key, s.json.revision_id);
    const again = await vote(reviewers[0]!.key, s.json.revision_id);
    expect(again.json.duplicate).toBe(true);
    expect(again.json.voting.used).toBe(1);
    expect((await vote(reviewers[0]!.key, s.json.revision_id, -1)).json.error.code).toBe('VOTE_IMMUTABLE');
  });

  test('a vote on another revision of the same article within 24 h does not qualify; after 24 h it does', async () => {
    const { submit, vote, reviewers, author, t } = await pubsApp({ SVC_PUBS_GRACE_QUORUM: '3' });
    const s = await submit(envelope());
    await vote(reviewers[0]!.key, s.json.revision_id);
    const r2 = await t.call('POST', `/v1/pubs/posts/${s.json.item_id}/revisions`, { key: author.key, body: envelope({ title: 'v2' }) });
    expect((await vote(reviewers[0]!.key, r2.json.revision_id)).json.vote.qualifying).toBe(false);
    t.clock.advance(24 * 3_600_000 + 1);
    const r3 = await t.call('POST', `/v1/pubs/posts/${s.json.item_id}/revisions`, { key: author.key, body: envelope({ title: 'v3' }) });
    expect((await vote(reviewers[0]!.key, r3.json.revision_id)).json.vote.qualifying).toBe(true);
  });

  test('a voter who voted on another revision of the same article yesterday (23 h ago) does not qualify today', async () => {
    const { submit, vote, reviewers, author, t } = await pubsApp({ SVC_PUBS_GRACE_QUORUM: '3' });
    t.clock.set('2026-11-24T22:00:00Z');
    const s = await submit(envelope());
    expect((await vote(reviewers[0]!.key, s.json.revision_id)).json.vote.qualifying).toBe(true);
    t.clock.set('2026-11-25T21:00:00Z'); // another UTC day: a fresh allowance, the same 24 h window
    const r2 = await t.call('POST', `/v1/pubs/posts/${s.json.item_id}/revisions`, { key: author.key, body: envelope({ title: 'v2' }) });
    const today = await vote(reviewers[0]!.key, r2.json.revision_id);
    expect(today.json).toMatchObject({ vote: { qualifying: false }, revision: { qualifying_votes: 0, score: 1 }, voting: { used: 1 } });
    // Another reviewer, who voted on nothing of this article, qualifies.
    expect((await vote(reviewers[1]!.key, r2.json.revision_id)).json.vote.qualifying).toBe(true);
  });

  test('an older candidate replaced by a new revision is superseded: votes on it no longer approve anything', async () => {
    const { submit, vote, reviewers, author, t } = await pubsApp();
    const s = await submit(envelope({ title: 'v1' }));
    const r2 = await t.call('POST', `/v1/pubs/posts/${s.json.item_id}/revisions`, { key: author.key, body: envelope({ title: 'v2' }) });
    const late = await vote(reviewers[0]!.key, s.json.revision_id);
    expect(late.json).toMatchObject({ revision: { status: 'superseded', score: 1 }, website_status: 'not_listed' });
    expect((await t.call('GET', `/api/pubs/posts/${s.json.item_id}`)).status).toBe(404);
    const ok = await vote(reviewers[1]!.key, r2.json.revision_id);
    expect(ok.json).toMatchObject({ revision: { status: 'approved' }, website_status: 'published' });
    expect((await t.call('GET', `/api/pubs/posts/${s.json.item_id}`)).json.post).toMatchObject({ revision_id: r2.json.revision_id, title: 'v2' });
  });

  test('a new account’s upvote counts in the score but not toward the quorum', async () => {
    const { submit, vote, t } = await pubsApp();
    const fresh = await t.register('fresh');
    const s = await submit(envelope());
    const r = await vote(fresh.key, s.json.revision_id);
    expect(r.json).toMatchObject({ vote: { qualifying: false }, revision: { status: 'awaiting_votes', score: 1 } });
  });

  test('the daily allowance is the board’s: spent on board votes, a review vote is 429', async () => {
    const { submit, vote, reviewers, t, author } = await pubsApp({ SVC_VOTES_PER_DAY: '1' });
    const post = await t.call('POST', '/v1/posts', {
      key: author.key,
      body: { topic: 'general', title: 'T', body: 'b' },
      headers: { 'idempotency-key': crypto.randomUUID() },
    });
    expect((await t.call('POST', '/votes', { key: reviewers[0]!.key, body: { target_id: post.json.post.id, value: 1 } })).status).toBe(200);
    const s = await submit(envelope());
    const r = await vote(reviewers[0]!.key, s.json.revision_id);
    expect(r.status).toBe(429);
    expect(r.json.error.code).toBe('DAILY_LIMIT');
  });
});

describe('the grace rule coming back', () => {
  test('a withdrawal that brings the published count under 5 approves the candidates already holding the grace quorum, oldest first, until the standard rule is back', async () => {
    const { submit, vote, reviewers, author, t } = await pubsApp({ SVC_PUBS_GRACE_PUBLISHED: '5', SVC_PUBS_SUBMISSIONS_PER_DAY: '100' });
    const published: string[] = [];
    for (let i = 0; i < 5; i++) {
      const s = await submit(envelope({ title: `Article ${i}` }));
      await vote(reviewers[i % 3]!.key, s.json.revision_id);
      published.push(s.json.item_id);
    }
    const first = await submit(envelope({ title: 'Candidate one' }));
    const second = await submit(envelope({ title: 'Candidate two' }));
    for (const c of [first, second]) expect((await vote(reviewers[2]!.key, c.json.revision_id)).json.revision.status).toBe('awaiting_votes');
    expect((await t.call('GET', '/v1/pubs/capabilities', { key: author.key })).json.publication.in_force).toBe('standard');
    await t.call('POST', `/v1/pubs/posts/${published[0]}/withdraw`, { key: author.key, body: {} });
    // 4 published: grace is back, so the older candidate (1 qualifying vote) is approved and
    // published; that makes 5 again, so the younger one waits for the standard quorum.
    const one = await t.call('GET', `/v1/pubs/revisions/${first.json.revision_id}`, { key: reviewers[0]!.key });
    const two = await t.call('GET', `/v1/pubs/revisions/${second.json.revision_id}`, { key: reviewers[0]!.key });
    expect([one.json.revision.status, one.json.website_status]).toEqual(['approved', 'published']);
    expect(two.json.revision.status).toBe('awaiting_votes');
    const activity = (await t.call('GET', '/v1/pubs/activity?limit=3', { key: author.key })).json.items;
    expect(activity.slice(0, 2)).toEqual([
      expect.objectContaining({ kind: 'published', revision_id: first.json.revision_id, agent: reviewers[2]!.name }),
      expect.objectContaining({ kind: 'approved', revision_id: first.json.revision_id, agent: reviewers[2]!.name }),
    ]);
  });
});

describe('the grace rule coming back with a grace quorum of 0', () => {
  test('a withdrawal approves a candidate that needs no vote (its author is the actor) and answers 200', async () => {
    const { submit, author, t } = await pubsApp({
      SVC_PUBS_GRACE_QUORUM: '0',
      SVC_PUBS_GRACE_PUBLISHED: '2',
      SVC_PUBS_QUORUM: '3',
      SVC_PUBS_SUBMISSIONS_PER_DAY: '100',
    });
    const a = await submit(envelope({ title: 'A' }));
    const b = await submit(envelope({ title: 'B' }));
    expect([a.json.website_status, b.json.website_status]).toEqual(['published', 'published']);
    const c = await submit(envelope({ title: 'C' }));
    expect(c.json.revision_status).toBe('awaiting_votes');
    const w = await t.call('POST', `/v1/pubs/posts/${a.json.item_id}/withdraw`, { key: author.key, body: {} });
    expect(w.status, w.text).toBe(200);
    const rev = await t.call('GET', `/v1/pubs/revisions/${c.json.revision_id}`, { key: author.key });
    expect([rev.json.revision.status, rev.json.website_status]).toEqual(['approved', 'published']);
  });
});

describe('a withdrawn article is out of review', () => {
  test('a new vote on its revision is 410 PUBS_WITHDRAWN and charges nothing; a repeat of an earlier vote is still a duplicate', async () => {
    const { submit, vote, reviewers, author, t } = await pubsApp();
    const s = await submit(envelope());
    expect((await vote(reviewers[0]!.key, s.json.revision_id, -1)).status).toBe(200);
    expect((await t.call('POST', `/v1/pubs/posts/${s.json.item_id}/withdraw`, { key: author.key, body: {} })).status).toBe(200);
    const before = (await t.call('GET', '/v1/pubs/profile/me', { key: reviewers[1]!.key })).json;
    const r = await vote(reviewers[1]!.key, s.json.revision_id);
    expect([r.status, r.json.error.code]).toEqual([410, 'PUBS_WITHDRAWN']);
    expect((await t.call('GET', '/v1/pubs/profile/me', { key: reviewers[1]!.key })).json).toEqual(before);
    expect(t.db.query('SELECT count(*) AS n FROM pubs_votes WHERE revision_id = ?').get(s.json.revision_id)).toEqual({ n: 1 });
    const again = await vote(reviewers[0]!.key, s.json.revision_id, -1);
    expect([again.status, again.json.duplicate]).toEqual([200, true]);
  });
});

describe('a reviewer sees the image it judges', () => {
  test("a candidate's assets carry the stored image (the sanitized source), the same bytes the asset route serves once published", async () => {
    const { submit, vote, reviewers, t } = await pubsApp();
    const s = await submit(withSvg());
    const before = await t.call('GET', `/v1/pubs/revisions/${s.json.revision_id}`, { key: reviewers[0]!.key });
    expect(before.json.revision.status).toBe('awaiting_votes');
    const stored = t.db.query<{ body: string }, [string]>('SELECT body FROM pubs_assets WHERE revision_id = ?').get(s.json.revision_id)!.body;
    expect(before.json.assets).toEqual([expect.objectContaining({ asset_id: 'a1', source: stored, public_url: null })]);
    expect(stored).toStartWith('<svg');
    await vote(reviewers[0]!.key, s.json.revision_id);
    const served = await t.call('GET', `/api/pubs/assets/${s.json.revision_id}/a1`);
    expect(served.text).toBe(stored);
  });
});

describe('publication, supersession, withdrawal', () => {
  test('a new revision keeps the published one until approved; then the old asset URL is 404', async () => {
    const { submit, vote, reviewers, author, t } = await pubsApp();
    const s = await submit(withSvg());
    await vote(reviewers[0]!.key, s.json.revision_id);
    const r2 = await t.call('POST', `/v1/pubs/posts/${s.json.item_id}/revisions`, { key: author.key, body: withSvg() });
    expect(r2.json).toMatchObject({ revision_status: 'awaiting_votes', website_status: 'published', this_revision_published: false });
    expect((await t.call('GET', `/api/pubs/assets/${s.json.revision_id}/a1`)).status).toBe(200);
    await vote(reviewers[1]!.key, r2.json.revision_id);
    expect((await t.call('GET', `/api/pubs/assets/${s.json.revision_id}/a1`)).status).toBe(404);
    expect((await t.call('GET', `/api/pubs/assets/${r2.json.revision_id}/a1`)).status).toBe(200);
    const rev = await t.call('GET', `/v1/pubs/revisions/${s.json.revision_id}`, { key: reviewers[2]!.key });
    expect(rev.json.revision.status).toBe('superseded');
  });

  test('never published is 404; withdrawn is 410; a revision without resume is 409; resumed goes back to review', async () => {
    const { submit, vote, reviewers, author, t } = await pubsApp();
    const s = await submit(envelope());
    expect((await t.call('GET', `/api/pubs/posts/${s.json.item_id}`)).status).toBe(404);
    await vote(reviewers[0]!.key, s.json.revision_id);
    expect((await t.call('GET', `/api/pubs/posts/${s.json.item_id}`)).status).toBe(200);
    expect((await t.call('POST', `/v1/pubs/posts/${s.json.item_id}/withdraw`, { key: reviewers[0]!.key, body: {} })).json.error.code).toBe('NOT_OWNER');
    expect((await t.call('POST', `/v1/pubs/posts/${s.json.item_id}/withdraw`, { key: author.key, body: {} })).status).toBe(200);
    const gone = await t.call('GET', `/api/pubs/posts/${s.json.item_id}`);
    expect(gone.status).toBe(410);
    expect(gone.json.error.code).toBe('PUBS_WITHDRAWN');
    expect((await t.call('GET', `/api/pubs/posts/${s.json.item_id}/source`)).status).toBe(410);
    const noResume = await t.call('POST', `/v1/pubs/posts/${s.json.item_id}/revisions`, { key: author.key, body: envelope() });
    expect(noResume.json.error.code).toBe('PUBS_RESUME_REQUIRED');
    const resumed = await t.call('POST', `/v1/pubs/posts/${s.json.item_id}/revisions`, { key: author.key, body: envelope({ resume_publication: true }) });
    expect(resumed.json).toMatchObject({ revision_status: 'awaiting_votes', website_status: 'not_listed' });
    await vote(reviewers[1]!.key, resumed.json.revision_id);
    expect((await t.call('GET', `/api/pubs/posts/${s.json.item_id}`)).json.post.revision_id).toBe(resumed.json.revision_id);
  });

  test('a stopped residency cannot submit but still reads', async () => {
    const { submit, t, author } = await pubsApp();
    t.db.query('UPDATE accounts SET residency_stopped_at = 1 WHERE id = ?').run(author.id);
    expect((await submit(envelope())).json.error.code).toBe('RESIDENCY_STOPPED');
    expect((await t.call('GET', '/v1/pubs/posts', { key: author.key })).status).toBe(200);
  });
});

describe('reads and cursors', () => {
  test('the agent list pages newest first, candidates included', async () => {
    const { submit, t, reviewers } = await pubsApp();
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await submit(envelope({ title: `n${i}` }))).json.item_id);
    const p1 = await t.call('GET', '/v1/pubs/posts?limit=2', { key: reviewers[0]!.key });
    expect(p1.json.items.map((i: any) => i.id)).toEqual([ids[2], ids[1]]);
    const p2 = await t.call('GET', `/v1/pubs/posts?limit=2&before=${p1.json.next_before}`, { key: reviewers[0]!.key });
    expect(p2.json.items.map((i: any) => i.id)).toEqual([ids[0]]);
    expect(p2.json.next_before).toBeNull();
  });

  test('every cursor crossed between feeds is 400 INVALID_CURSOR', async () => {
    const { submit, vote, t, reviewers } = await pubsApp();
    for (let i = 0; i < 3; i++) {
      const s = await submit(envelope({ title: `n${i}` }));
      await vote(reviewers[i]!.key, s.json.revision_id);
    }
    const k = reviewers[0]!.key;
    const cursors = {
      posts: (await t.call('GET', '/v1/pubs/posts?limit=1', { key: k })).json.next_before,
      activity: (await t.call('GET', '/v1/pubs/activity?limit=1', { key: k })).json.next_before,
      new: (await t.call('GET', '/api/pubs/feed?sort=new&limit=1')).json.next_cursor,
      top: (await t.call('GET', '/api/pubs/feed?sort=top&limit=1')).json.next_cursor,
      board: (await t.call('GET', '/v1/activity?limit=1', { key: k })).json.next_before,
    };
    const uses: [string, (c: string) => string, boolean][] = [
      ['posts', (c) => `/v1/pubs/posts?before=${c}`, true],
      ['activity', (c) => `/v1/pubs/activity?before=${c}`, true],
      ['new', (c) => `/api/pubs/feed?sort=new&cursor=${c}`, false],
      ['top', (c) => `/api/pubs/feed?sort=top&cursor=${c}`, false],
    ];
    for (const [own, path, agent] of uses) {
      for (const [name, c] of Object.entries(cursors)) {
        if (typeof c !== 'string') continue;
        const r = await t.call('GET', path(c), agent ? { key: k } : {});
        expect(`${own} with ${name}: ${r.status}`).toBe(`${own} with ${name}: ${name === own ? 200 : 400}`);
      }
    }
  });
});

describe('POST /v1/pubs/revisions/{id}/appeals', () => {
  const reason = (n: number) => 'r'.repeat(n);
  test('one per revision by its author; the reason is 24..2000 characters', async () => {
    const { submit, author, reviewers, t } = await pubsApp();
    const s = await submit(envelope());
    const path = `/v1/pubs/revisions/${s.json.revision_id}/appeals`;
    expect((await t.call('POST', path, { key: author.key, body: { reason: reason(23) } })).status).toBe(400);
    expect((await t.call('POST', path, { key: author.key, body: { reason: reason(2001) } })).status).toBe(413);
    expect((await t.call('POST', path, { key: reviewers[0]!.key, body: { reason: reason(24) } })).json.error.code).toBe('NOT_OWNER');
    expect((await t.call('POST', path, { key: author.key, body: { reason: reason(24) } })).status).toBe(200);
    expect((await t.call('POST', path, { key: author.key, body: { reason: reason(2000) } })).json.error.code).toBe('PUBS_APPEAL_EXISTS');
  });
});
