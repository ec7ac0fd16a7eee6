// docs/decisions.md#content-rules: every string a client sends is scanned by the content rules, nested members
// included. The appeal's reason is scanned for secrets though it is never published; the
// envelope's key members go through every rule, like its texts. A member a pubs body does not take
// never reaches the scan: it is refused by name (400 INVALID_REQUEST, issue 28 item 1), its value
// never echoed.
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

/** A 400 naming the one unknown member `field` (and only it); `value` is never echoed. */
function unknownMember(r: { status: number; json: any; text: string }, field: string, value: string = KEY) {
  expect([r.status, r.json.error.code]).toEqual([400, 'INVALID_REQUEST']);
  expect(r.json.error.details.fields.map((f: any) => [f.field, f.in, f.problem])).toEqual([[field, 'body', 'unknown_member']]);
  expect(r.text).not.toContain(value);
}

describe('POST /v1/pubs/revisions/{revision_id}/appeals', () => {
  test('a key-like reason is 422 SECRET_LIKE naming reason; nothing is stored, so the one appeal is still to be made', async () => {
    const { appeal, appeals } = await withRevision();
    refused(await appeal({ reason: `Reviewers ignored my point; my key is ${KEY} if you need it.` }), 'reason');
    expect(appeals()).toEqual([]);
    expect((await appeal({ reason: REASON })).status).toBe(200);
    expect(appeals()).toEqual([REASON]);
  });

  test('a key-like string nested in a member the route does not read is refused by name (400 naming meta, the key not echoed); nothing is stored', async () => {
    const { appeal, appeals } = await withRevision();
    unknownMember(await appeal({ reason: REASON, meta: { notes: ['see', KEY] } }), 'meta');
    expect(appeals()).toEqual([]);
    // The one appeal is still to be made.
    expect((await appeal({ reason: REASON })).status).toBe(200);
    expect(appeals()).toEqual([REASON]);
  });

  test('near misses pass in the reason: a placeholder key, a sha256, a uuid and quoted price talk (an appeal is never published); a uuid in another member is refused by name', async () => {
    const { appeal, appeals } = await withRevision();
    const uuid = 'f81d4fae-7dec-11d0-a765-00a0c91e6bf6';
    const reason = `A reviewer wrote "buy now before it moons" next to sk_live_xxxxxxxxxxxxxxxxxxxxxxxx, e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855 and ${uuid}.`;
    unknownMember(await appeal({ reason, meta: { ref: uuid } }), 'meta', uuid);
    expect(appeals()).toEqual([]);
    const r = await appeal({ reason });
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

  test('a vote, a withdrawal and a preview request carrying a key-like string in a member they do not take are refused by name (the key not echoed) and change nothing', async () => {
    const { t, itemId, revisionId, author, reviewers } = await withRevision();
    const meta = { meta: { note: KEY } };
    unknownMember(await t.call('POST', '/v1/pubs/votes', { key: reviewers[0]!.key, body: { revision_id: revisionId, value: 1, ...meta } }), 'meta');
    // In the one string member a vote takes, a key is no revision id: refused, not echoed.
    const known = await t.call('POST', '/v1/pubs/votes', { key: reviewers[0]!.key, body: { revision_id: KEY, value: 1 } });
    expect([known.status, known.json.error.code, known.text.includes(KEY)]).toEqual([400, 'INVALID_REQUEST', false]);
    expect(t.db.query('SELECT count(*) AS n FROM pubs_votes').get()).toEqual({ n: 0 });
    unknownMember(await t.call('POST', `/v1/pubs/posts/${itemId}/withdraw`, { key: author.key, body: meta }), 'meta');
    unknownMember(await t.call('POST', `/v1/pubs/revisions/${revisionId}/preview-session`, { key: author.key, body: meta }), 'meta');
    expect(t.db.query('SELECT count(*) AS n FROM preview_sessions').get()).toEqual({ n: 0 });
    expect(t.db.query('SELECT withdrawn_at FROM pubs_items WHERE id = ?').get(itemId)).toEqual({ withdrawn_at: null });
    // A plain note is refused the same way: the value plays no part.
    const plain = { meta: { note: 'first pass' } };
    unknownMember(
      await t.call('POST', '/v1/pubs/votes', { key: reviewers[0]!.key, body: { revision_id: revisionId, value: 1, ...plain } }),
      'meta',
      'first pass',
    );
    // The same requests without the member go through.
    const v = await t.call('POST', '/v1/pubs/votes', { key: reviewers[0]!.key, body: { revision_id: revisionId, value: 1 } });
    expect([v.status, v.json.vote]).toEqual([200, { revision_id: revisionId, value: 1, weight: 1, qualifying: true }]);
    expect((await t.call('POST', `/v1/pubs/revisions/${revisionId}/preview-session`, { key: author.key, body: {} })).status).toBe(200);
    expect((await t.call('POST', `/v1/pubs/posts/${itemId}/withdraw`, { key: author.key, body: {} })).status).toBe(200);
  });

  test('a vote replayed with its Idempotency-Key and an unread member is refused by name; the plain replay is the same vote', async () => {
    const { t, revisionId, reviewers } = await withRevision();
    const headers = { 'idempotency-key': crypto.randomUUID() };
    const first = await t.call('POST', '/v1/pubs/votes', { key: reviewers[0]!.key, headers, body: { revision_id: revisionId, value: 1 } });
    const extra = await t.call('POST', '/v1/pubs/votes', { key: reviewers[0]!.key, headers, body: { revision_id: revisionId, value: 1, note: 'retry' } });
    unknownMember(extra, 'note', 'retry');
    const again = await t.call('POST', '/v1/pubs/votes', { key: reviewers[0]!.key, headers, body: { revision_id: revisionId, value: 1 } });
    expect([first.status, again.status]).toEqual([200, 200]);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(t.db.query('SELECT count(*) AS n FROM pubs_votes').get()).toEqual({ n: 1 });
  });
});
