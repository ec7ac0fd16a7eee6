// 03-decisions §7: every string a client sends is scanned by the content rules, nested members
// included. The appeal's reason, and whatever else a pubs body carries that is never published,
// is scanned for secrets; the envelope's key members go through every rule, like its texts.
import { describe, expect, test } from 'bun:test';
import { runAdmin } from '../../src/admin/cli.ts';
import { envelope, pubsApp } from './harness.ts';

// A Stripe live key: sk_live_ and 24 base62 characters (test/content/secret-pattern-cases.ts).
const KEY = 'sk_live_4eC39HqLyjWDarjtT1zdp7dc';
const REASON = 'The downvotes came from one ring of accounts.';

async function withRevision() {
  const h = await pubsApp();
  const s = await h.submit(envelope());
  expect(s.status).toBe(202);
  const revisionId = s.json.revision_id as string;
  const appeal = (body: unknown) => h.t.call('POST', `/v1/pubs/revisions/${revisionId}/appeals`, { key: h.author.key, body });
  const appeals = () => (runAdmin(h.t.ctx, ['pubs', 'appeals', '--all']) as { appeals: { reason: string }[] }).appeals.map((a) => a.reason);
  return { ...h, itemId: s.json.item_id as string, revisionId, appeal, appeals };
}

function refused(r: { status: number; json: any; text: string }, where: string) {
  expect([r.status, r.json.error.code, r.json.error.details]).toEqual([422, 'SECRET_LIKE', { kind: 'stripe_key', where }]);
  expect(r.text).not.toContain(KEY);
}

describe('POST /v1/pubs/revisions/{revision_id}/appeals', () => {
  test('a key-like reason is 422 SECRET_LIKE naming reason; nothing is stored, so the one appeal is still to be made', async () => {
    const { appeal, appeals } = await withRevision();
    refused(await appeal({ reason: `Reviewers ignored my point; my key is ${KEY} if you need it.` }), 'reason');
    expect(appeals()).toEqual([]);
    expect((await appeal({ reason: REASON })).status).toBe(200);
    expect(appeals()).toEqual([REASON]);
  });

  test('a key-like string nested in a member the route does not read is refused too', async () => {
    const { appeal, appeals } = await withRevision();
    refused(await appeal({ reason: REASON, meta: { notes: ['see', KEY] } }), 'meta.notes[1]');
    expect(appeals()).toEqual([]);
  });

  test('near misses pass: a placeholder key, a sha256, a uuid in another member, and quoted price talk (an appeal is never published)', async () => {
    const { appeal, appeals } = await withRevision();
    const reason =
      'A reviewer wrote "buy now before it moons" next to sk_live_xxxxxxxxxxxxxxxxxxxxxxxx and e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855.';
    const r = await appeal({ reason, meta: { ref: 'f81d4fae-7dec-11d0-a765-00a0c91e6bf6' } });
    expect(r.status, r.text).toBe(200);
    expect(appeals()).toEqual([reason]);
  });
});

describe('the other pubs bodies', () => {
  test('an envelope whose key member is key-like is refused before anything is stored', async () => {
    const { t, submit, author } = await withRevision();
    for (const member of ['idempotency_key', 'request_key']) {
      refused(await submit(envelope({ idempotency_key: undefined, [member]: KEY })), member);
    }
    expect(t.db.query('SELECT count(*) AS n FROM pubs_items').get()).toEqual({ n: 1 });
    // The near miss: any plain string is a key.
    expect((await submit(envelope({ idempotency_key: 'my-first-article-2026' }), author.key)).status).toBe(202);
  });

  test('a vote, a withdrawal and a preview request carrying a key-like string are refused and change nothing', async () => {
    const { t, itemId, revisionId, author, reviewers } = await withRevision();
    const meta = { meta: { note: KEY } };
    refused(await t.call('POST', '/v1/pubs/votes', { key: reviewers[0]!.key, body: { revision_id: revisionId, value: 1, ...meta } }), 'meta.note');
    expect(t.db.query('SELECT count(*) AS n FROM pubs_votes').get()).toEqual({ n: 0 });
    refused(await t.call('POST', `/v1/pubs/posts/${itemId}/withdraw`, { key: author.key, body: meta }), 'meta.note');
    refused(await t.call('POST', `/v1/pubs/revisions/${revisionId}/preview-session`, { key: author.key, body: meta }), 'meta.note');
    expect(t.db.query('SELECT count(*) AS n FROM preview_sessions').get()).toEqual({ n: 0 });
    expect(t.db.query('SELECT withdrawn_at FROM pubs_items WHERE id = ?').get(itemId)).toEqual({ withdrawn_at: null });
    // The near misses: the same bodies with a plain note go through.
    const plain = { meta: { note: 'first pass' } };
    const v = await t.call('POST', '/v1/pubs/votes', { key: reviewers[0]!.key, body: { revision_id: revisionId, value: 1, ...plain } });
    expect([v.status, v.json.vote]).toEqual([200, { revision_id: revisionId, value: 1, weight: 1, qualifying: true }]);
    expect((await t.call('POST', `/v1/pubs/revisions/${revisionId}/preview-session`, { key: author.key, body: plain })).status).toBe(200);
    expect((await t.call('POST', `/v1/pubs/posts/${itemId}/withdraw`, { key: author.key, body: plain })).status).toBe(200);
  });

  test('a vote replayed with its Idempotency-Key and other unread members is the same vote', async () => {
    const { t, revisionId, reviewers } = await withRevision();
    const headers = { 'idempotency-key': crypto.randomUUID() };
    const first = await t.call('POST', '/v1/pubs/votes', { key: reviewers[0]!.key, headers, body: { revision_id: revisionId, value: 1 } });
    const again = await t.call('POST', '/v1/pubs/votes', { key: reviewers[0]!.key, headers, body: { revision_id: revisionId, value: 1, note: 'retry' } });
    expect([first.status, again.status]).toEqual([200, 200]);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });
});
