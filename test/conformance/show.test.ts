// Conformance of the Show lane (issue 19; 02-extensions "Show root", transitions, codes, "Show
// lane" limits, /api/show; 01-core-board svc-out and the office; docs/decisions.md#show-lane),
// checked from outside in the spec's words. What test/show already proves is not repeated (see the
// report's requirement list); this file adds the forms a spec-following client may write that the
// spec allows: meta lines in any order and case, a two-word audience, a date in any common form,
// a thread whose parts are separated by blank lines, impressions left out or null, and the
// leaderboard's picked_drafts_7d.
import { describe, expect, test } from 'bun:test';
import { makeShowApp } from '../show/harness.ts';

const HOOK = 'Incremental Rust builds got faster with one flag';
const PROSE = 'We measured builds across open crates; the logs are public, so try the flag on yours.';
const root = (text: string, meta: string[], hook = text.split('\n')[0]!) => ({
  topic: 'svc-show',
  title: `Show: ${hook}`,
  body: `${text}\n${meta.join('\n')}`,
});
const META = ['Format: post', 'Audience: Rust developers waiting on slow CI builds', 'Evidence: none'];

async function lane() {
  const t = makeShowApp();
  const a = await t.crew('alice');
  return { t, a, post: (body: ReturnType<typeof root>) => t.post(a, body) };
}

const rules = (r: { json: any }) => (r.json?.error?.details?.problems ?? []).map((p: { rule: string }) => p.rule);

describe('the meta lines, as the spec writes them', () => {
  test('in another order than the table, in lower case, with a Media: line: accepted', async () => {
    const { post } = await lane();
    const r = await post(
      root(`${HOOK}\n${PROSE}`, ['audience: Rust developers on slow CI', 'media: a bar chart of build times', 'evidence: none', 'format: chart']),
    );
    expect(r.status, r.text).toBe(200);
  });

  test('Audience: a concrete description of two words ("Rust developers") is accepted', async () => {
    const { post } = await lane();
    const r = await post(root(`${HOOK}\n${PROSE}`, ['Format: post', 'Audience: Rust developers', 'Evidence: none']));
    expect(r.status, r.text).toBe(200);
  });

  for (const concrete of ['cryptographers', 'Rustaceans', 'sysadmins']) {
    test(`Audience: ${concrete} (one specific word) is a concrete description: accepted`, async () => {
      const { post } = await lane();
      const r = await post(root(`${HOOK}\n${PROSE}`, ['Format: post', `Audience: ${concrete}`, 'Evidence: none']));
      expect(r.status, r.text).toBe(200);
    });
  }

  for (const vague of ['everyone', 'developers', 'the general public', 'all developers', 'Investors.']) {
    test(`Audience: ${vague} is not a concrete description → audience_vague`, async () => {
      const { post } = await lane();
      const r = await post(root(`${HOOK}\n${PROSE}`, ['Format: post', `Audience: ${vague}`, 'Evidence: none']));
      expect(r.status).toBe(422);
      expect(r.json.error.code).toBe('SHOW_INVALID');
      expect(rules(r)).toEqual(['audience_vague']);
    });
  }
});

describe('Evidence: a named source, its date and a full https URL', () => {
  const WITH_DIGIT = `${HOOK}\nBuilds of 40 open crates got faster; the logs are public, so try the flag on yours.`;
  for (const date of ['2026-11-20', '2026/11/20', '20.11.2026', '20/11/2026', 'November 20, 2026', '20 November 2026', 'Nov 2026']) {
    test(`dated ${date}: accepted`, async () => {
      const { post } = await lane();
      const r = await post(
        root(WITH_DIGIT, ['Format: data', 'Audience: Rust developers', `Evidence: GitHub build logs, ${date}, https://github.com/example/bench`]),
      );
      expect(r.status, r.text).toBe(200);
    });
  }

  test('undated (a URL with digits in it is not a date) → evidence_undated', async () => {
    const { post } = await lane();
    const r = await post(
      root(WITH_DIGIT, ['Format: data', 'Audience: Rust developers', 'Evidence: GitHub build logs, https://github.com/example/bench/2026/11']),
    );
    expect(r.status).toBe(422);
    expect(rules(r)).toEqual(['evidence_undated']);
  });

  test('Evidence: none with a digit in the text → evidence_required', async () => {
    const { post } = await lane();
    const r = await post(root(WITH_DIGIT, ['Format: data', 'Audience: Rust developers', 'Evidence: none']));
    expect(rules(r)).toEqual(['evidence_required']);
  });
});

describe('Format thread: at most 8 parts, each at most 280; only the first can be published', () => {
  const part = (i: number, n = 200) => `Part ${'abcdefgh'[i % 8]} ${'x'.repeat(n)}`.slice(0, n);

  test('parts separated by blank lines: only the first part counts against 230', async () => {
    const { post } = await lane();
    const text = [HOOK, '', part(1), '', part(2), '', part(3)].join('\n');
    const r = await post(root(text, ['Format: thread', 'Audience: Rust developers', 'Evidence: none']));
    expect(r.status, r.text).toBe(200);
  });

  test('the same text as a post counts whole → too_long_to_publish', async () => {
    const { post } = await lane();
    const text = [HOOK, '', part(1), '', part(2), '', part(3)].join('\n');
    const r = await post(root(text, ['Format: post', 'Audience: Rust developers', 'Evidence: none']));
    expect(rules(r)).toEqual(['too_long_to_publish']);
  });

  test('nine parts separated by blank lines → thread_too_many_parts; eight (near miss) → accepted', async () => {
    const { post } = await lane();
    const eight = [HOOK, ...[1, 2, 3, 4, 5, 6, 7].flatMap((i) => ['', part(i, 100)])].join('\n');
    expect((await post(root(eight, ['Format: thread', 'Audience: Rust developers', 'Evidence: none']))).status).toBe(200);
    const { post: post2 } = await lane();
    const nine = `${eight}\n\n${part(8, 100)}`;
    const r = await post2(root(nine, ['Format: thread', 'Audience: Rust developers', 'Evidence: none']));
    expect(rules(r)).toEqual(['thread_too_many_parts']);
  });

  test('a part over 280 weighted characters → thread_part_too_long', async () => {
    const { post } = await lane();
    const text = [HOOK, '', part(1, 281)].join('\n');
    const r = await post(root(text, ['Format: thread', 'Audience: Rust developers', 'Evidence: none']));
    expect(rules(r)).toEqual(['thread_part_too_long']);
  });

  test('parts separated by --- lines (blank lines then stay inside a part)', async () => {
    const { post } = await lane();
    const text = [HOOK, '', 'More of the first part.', '---', part(1), '---', part(2)].join('\n');
    expect((await post(root(text, ['Format: thread', 'Audience: Rust developers', 'Evidence: none']))).status).toBe(200);
  });
});

describe('the reporter: metrics {checkpoint, likes, reposts, replies, quotes, impressions?}', () => {
  async function posted() {
    const t = makeShowApp();
    const a = await t.crew('alice');
    const editor = await t.withRole('desk', 'editor');
    const owner = await t.withRole('boss', 'owner');
    const reporter = await t.withRole('rep', 'reporter');
    const id = await t.root(a, root(`${HOOK}\n${PROSE}`, META));
    expect((await t.reply(editor, id, 'Pick: clear and useful')).status).toBe(200);
    expect((await t.reply(owner, id, 'Picked: go')).status).toBe(200);
    expect((await t.posted(reporter, id)).status).toBe(200);
    return { t, id, reporter };
  }

  test('impressions left out: the checkpoint has no impressions member; null is accepted as not reported', async () => {
    const { t, id, reporter } = await posted();
    const r2 = await t.metrics(reporter, id, { checkpoint: '2h', likes: 1, reposts: 0, replies: 0, quotes: 0 });
    expect(r2.status, r2.text).toBe(200);
    const r24 = await t.metrics(reporter, id, { checkpoint: '24h', likes: 3, reposts: 1, replies: 0, quotes: 0, impressions: null });
    expect(r24.status, r24.text).toBe(200);
    const item = (await t.doc()).items.find((i: { id: string }) => i.id === id);
    expect(item.status).toBe('posted');
    expect(item.x.metrics_2h).not.toHaveProperty('impressions');
    expect(item.x.metrics_24h).not.toHaveProperty('impressions');
    expect(item.x.metrics_24h).toMatchObject({ likes: 3, reposts: 1, replies: 0, quotes: 0 });
    expect(typeof item.x.metrics_24h.measured_at).toBe('string');
  });
});

describe("the leaderboard's picked_drafts_7d counts the agent's picked Show roots", () => {
  test('a desk Pick: counts; a Pick: from someone without the editor role does not', async () => {
    const t = makeShowApp();
    const a = await t.crew('alice');
    const b = await t.crew('bob');
    const editor = await t.withRole('desk', 'editor');
    const picked = await t.root(a, root(`${HOOK}\n${PROSE}`, META));
    const other = await t.root(
      b,
      root(
        'Rooftop solar owners can read their inverter logs\nMost inverters keep a local log that nobody opens; here is how to read yours without an app.',
        META,
      ),
    );
    expect((await t.reply(editor, picked, 'Pick: yes')).status).toBe(200);
    expect((await t.reply(a, other, 'Pick: mine too')).status).toBe(200);
    t.clock.advance(61_000);
    const r = await t.call('GET', '/api/leaderboard', { headers: { 'x-agent-protocol': '', 'content-type': '' } });
    expect(r.status, r.text).toBe(200);
    const row = (name: string) => r.json.rows.find((x: { name: string }) => x.name === name);
    expect(row('alice').picked_drafts_7d).toBe(1);
    expect(row('bob').picked_drafts_7d).toBe(0);
  });
});
