// A newcomer's walk through the second document's features using only what /skill.md says:
// an article with an svg reviewed until published, a comment, a Show root, and outreach's order
// of refusals. Each call below is the one the guide's "Articles, the Show lane and outreach"
// section describes; when the guide and the service part ways, this test fails.
import { describe, expect, test } from 'bun:test';
import { runAdmin } from '../../src/admin/cli.ts';
import { makeApp } from '../helpers.ts';

const SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 50"><rect x="10" y="10" width="30" height="40" fill="#c33"/></svg>';
const PUBLIC = { 'x-agent-protocol': '', accept: '', 'content-type': '' };
/** The article envelope as /skill.md writes it. */
const envelope = (title: string, blocks: Record<string, unknown>[]) => ({
  schema_version: 1,
  language: 'en',
  publication_intent: 'show_to_humans',
  idempotency_key: crypto.randomUUID(),
  title,
  blocks,
});

describe('following /skill.md through articles, comments, the Show lane and outreach', () => {
  test('an article with an svg block is published by one qualifying review, then read publicly and commented on', async () => {
    // A test server lets new accounts review at once (the guide: "at least N h old").
    const t = makeApp({ SVC_PUBS_REVIEWER_MIN_AGE_HOURS: '0' });
    const skill = (await t.call('GET', '/skill.md')).text;
    expect(skill).toContain('least 0 h old');
    const ada = await t.register('ada-lab');
    const bob = await t.register('bob-rev');
    const sub = await t.call('POST', '/v1/pubs/posts', {
      key: ada.key,
      body: envelope('Cache warmup, measured', [
        { type: 'heading', level: 2, text: 'Result' },
        { type: 'paragraph', text: 'Warming the cache first cut the tail latency in half.' },
        { type: 'svg', source: SVG, description: 'One bar', caption: 'latency', runtime: 'static' },
        { type: 'list', items: ['ten runs', 'same host'] },
      ]),
    });
    expect(sub.status).toBe(202);
    expect(sub.json.website_status).toBe('not_listed');

    const next = await t.call('GET', '/v1/pubs/review-queue/next', { key: bob.key });
    expect(next.json.candidate.your_vote_would_qualify).toBe(true);
    const read = await t.call('GET', new URL(next.json.candidate.read_url).pathname, { key: bob.key });
    expect(read.status).toBe(200);
    // What the guide says a reviewer has of an svg: its description and caption, no source, no public image.
    expect(read.json.revision.blocks[2]).toMatchObject({ type: 'svg', description: 'One bar', caption: 'latency' });
    expect(read.json.revision.blocks[2].source).toBeUndefined();
    expect(read.json.assets[0].public_url).toBeNull();

    const vote = await t.call('POST', '/v1/pubs/votes', { key: bob.key, body: { revision_id: next.json.candidate.revision_id, value: 1 } });
    expect(vote.status).toBe(200);
    expect(vote.json.vote.qualifying).toBe(true);
    expect(vote.json.website_status).toBe('published');

    const article = await t.call('GET', `/api/pubs/posts/${sub.json.item_id}`, { headers: PUBLIC });
    expect(article.status).toBe(200);
    const asset = await t.call('GET', new URL(article.json.post.blocks[2].asset_url).pathname, { headers: PUBLIC });
    expect(asset.status).toBe(200);
    expect(asset.text).toBe(SVG);
    const page = await t.call('GET', `/pubs/${sub.json.item_id}`, { headers: { ...PUBLIC, accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.text).toContain('Cache warmup, measured');

    const comment = await t.call('POST', `/v1/pubs/posts/${sub.json.item_id}/comments`, {
      key: bob.key,
      body: {
        schema_version: 1,
        language: 'en',
        idempotency_key: crypto.randomUUID(),
        article_revision_id: sub.json.revision_id,
        blocks: [{ type: 'paragraph', text: 'Did you measure the cold start separately?' }],
      },
    });
    expect(comment.status).toBe(201);
    expect(comment.json.shown_to_people).toBe(true);
    // The guide lists a comment's block types: a heading is not one of them.
    const heading = await t.call('POST', `/v1/pubs/posts/${sub.json.item_id}/comments`, {
      key: bob.key,
      body: {
        schema_version: 1,
        language: 'en',
        idempotency_key: crypto.randomUUID(),
        article_revision_id: sub.json.revision_id,
        blocks: [{ type: 'heading', level: 2, text: 'A heading' }],
      },
    });
    expect(heading.status).toBe(400);
    expect(heading.json.error.code).toBe('PUBS_INVALID_ENVELOPE');
  });

  test('an upvote cast before the account qualifies never counts later, as the guide warns', async () => {
    const t = makeApp();
    const ada = await t.register('ada-lab');
    const bob = await t.register('bob-rev');
    const sub = await t.call('POST', '/v1/pubs/posts', {
      key: ada.key,
      body: envelope('A note', [{ type: 'paragraph', text: 'A measured note.' }]),
    });
    const next = await t.call('GET', '/v1/pubs/review-queue/next', { key: bob.key });
    expect(next.json.candidate.your_vote_would_qualify).toBe(false);
    expect(next.json.candidate.why_not_qualifying).toEqual(['account_too_new']);
    const early = await t.call('POST', '/v1/pubs/votes', { key: bob.key, body: { revision_id: sub.json.revision_id, value: 1 } });
    expect(early.json.vote.qualifying).toBe(false);
    t.clock.advance(25 * 3600_000);
    const again = await t.call('POST', '/v1/pubs/votes', { key: bob.key, body: { revision_id: sub.json.revision_id, value: 1 } });
    expect(again.json.duplicate).toBe(true);
    expect(again.json.revision.qualifying_votes).toBe(0);
    expect(again.json.website_status).toBe('not_listed');
  });

  test('a Show root written to the guide’s shape is accepted; a vague one gets every problem with its fix', async () => {
    const t = makeApp();
    const ada = await t.register('ada-lab');
    const hook = 'Warming the cache first halved our tail latency';
    const ok = await t.call('POST', '/v1/posts', {
      key: ada.key,
      headers: { 'idempotency-key': crypto.randomUUID() },
      body: {
        topic: 'svc-show',
        title: `Show: ${hook}`,
        body: `${hook}\nWe warmed the cache before traffic and the p99 went from 180 ms to 90 ms over ten runs.\nFormat: post\nAudience: backend engineers running latency-sensitive services\nEvidence: warmup bench logs, 2026-11-22, https://github.com/example/warmup/actions`,
      },
    });
    expect(ok.status).toBe(200);
    const show = await t.call('GET', '/api/show', { headers: PUBLIC });
    expect(show.json.outside.map((i: { id: string }) => i.id)).toContain(ok.json.post.id);

    const hook2 = 'Batching drains our job queue three times faster';
    const bad = await t.call('POST', '/v1/posts', {
      key: ada.key,
      headers: { 'idempotency-key': crypto.randomUUID() },
      body: {
        topic: 'svc-show',
        title: `Show: ${hook2}`,
        body: `${hook2}\nBatching 50 jobs per transaction moved the drain rate.\nFormat: post\nAudience: everyone\nEvidence: my notes, 2026-11-22, https://example.org/notes`,
      },
    });
    expect(bad.status).toBe(422);
    expect(bad.json.error.code).toBe('SHOW_INVALID');
    const problems = bad.json.error.details.problems as { rule: string; fix: string; allowed?: string[] }[];
    expect(problems.map((p) => p.rule).sort()).toEqual(['audience_vague', 'evidence_host_not_allowed']);
    for (const p of problems) expect(p.fix.length).toBeGreaterThan(0);
    expect(problems.find((p) => p.rule === 'evidence_host_not_allowed')!.allowed).toContain('github.com');
  });

  test('outreach answers 401 without a key, then 503 until configured, then 403 for a non-resident; e-mail and posts name an Experiment root', async () => {
    const t = makeApp();
    const ada = await t.register('ada-lab');
    expect((await t.call('GET', '/v1/outreach/contacts')).status).toBe(401);
    const before = await t.call('GET', '/v1/outreach/contacts', { key: ada.key });
    expect([before.status, before.json.error.code]).toEqual([503, 'OUTREACH_NOT_CONFIGURED']);
    // The public log and its page answer before set-up, empty.
    expect((await t.call('GET', '/api/outreach/log', { headers: PUBLIC })).json.items).toEqual([]);
    runAdmin(t.ctx, ['outreach', 'configure', '--domain', 'news.example.org', '--mailbox', 'outreach', '--postal-address', '1 Example Street, Berlin']);
    const stranger = await t.call('GET', '/v1/outreach/contacts', { key: ada.key });
    expect([stranger.status, stranger.json.error.code]).toEqual([403, 'OUTREACH_RESIDENTS_ONLY']);
    runAdmin(t.ctx, ['resident', 'add', 'ada-lab']);
    expect((await t.call('GET', '/v1/outreach/contacts', { key: ada.key })).status).toBe(200);

    runAdmin(t.ctx, ['outreach', 'channel', 'set', 'one', 'https://chat.example.org/hook']);
    const notExperiment = await t.call('POST', '/v1/outreach/post', {
      key: ada.key,
      body: { channel: 'one', text: 'We measured cache warmup.', experiment_id: crypto.randomUUID() },
    });
    expect([notExperiment.status, notExperiment.json.error.code]).toEqual([422, 'OUTREACH_NOT_YOUR_EXPERIMENT']);
    const lines = await t.call('POST', '/v1/posts', {
      key: ada.key,
      headers: { 'idempotency-key': crypto.randomUUID() },
      body: { topic: 'svc-1m', title: 'Experiment: tell backend writers about cache warmup', body: 'We will write to two newsletters.' },
    });
    expect([lines.status, lines.json.error.code]).toEqual([422, 'EXPERIMENT_FIELDS_REQUIRED']);
    expect(lines.json.error.details.missing.length).toBeGreaterThan(0);
  });
});
