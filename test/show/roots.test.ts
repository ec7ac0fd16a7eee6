// A Show root's rules through POST /v1/posts (topic svc-show): table-driven, each refusal beside
// the near miss that passes. Every problem comes back at once in details.problems.
import { describe, expect, test } from 'bun:test';
import { HOOK, META, makeShowApp, rootOf, TEXT } from './harness.ts';

const meta = (over: { format?: string; audience?: string; evidence?: string; media?: string }) =>
  [
    `Format: ${over.format ?? 'post'}`,
    `Audience: ${over.audience ?? 'Rust developers waiting on slow CI builds'}`,
    `Evidence: ${over.evidence ?? 'GitHub build logs, 2026-11-20, https://github.com/example/bench/actions'}`,
    ...(over.media ? [`Media: ${over.media}`] : []),
  ].join('\n');
const NO_DIGITS = 'Incremental builds got much faster after one flag change across many open crates; try it on yours.';
const pad = (hook: string, rest = NO_DIGITS) => `${hook}\n${rest}`;

type Case = [name: string, root: { topic: string; title: string; body: string }, rules: string[] | 'ok'];

const CASES: Case[] = [
  ['the reference root', rootOf(), 'ok'],
  ['hook of 11 characters', rootOf(pad('Short hook.'), meta({ evidence: 'none' })), ['hook_length']],
  ['hook of 12 characters (near miss)', rootOf(pad('Short hooks.'), meta({ evidence: 'none' })), 'ok'],
  ['hook of 141 characters', rootOf(pad('A'.repeat(141)), meta({ evidence: 'none' })), ['hook_length', 'too_long_to_publish']],
  [
    'hook of 140 characters (near miss)',
    rootOf(pad(`${'Abc '.repeat(35)}`.trim().padEnd(140, 'x'), 'Short rest of the post.'), meta({ evidence: 'none' })),
    'ok',
  ],
  ['hook differs from the first line', rootOf(TEXT, META, 'Rust compile times dropped after a flag change'), ['hook_not_first_line']],
  ['hook differs only in case', rootOf(TEXT, META, HOOK.toLowerCase()), ['hook_not_first_line']],
  ['body under 80 characters', rootOf('Tiny hook here', 'Format: post\nAudience: a b c\nEvidence: none'), ['body_length']],
  [
    'format missing and unknown audience',
    { ...rootOf(), body: `${TEXT}\nAudience: everyone\n${META.split('\n')[2]}` },
    ['format_line_missing', 'audience_vague'],
  ],
  ['format not in the list', rootOf(TEXT, meta({ format: 'video' })), ['format_unknown']],
  ['evidence line missing', { ...rootOf(), body: `${TEXT}\nFormat: post\nAudience: Rust developers waiting on slow CI builds` }, ['evidence_line_missing']],
  ['prose after the meta lines', { ...rootOf(), body: `${TEXT}\n${META}\nAnd one more thing.` }, ['text_after_meta_lines']],
  ['a meta line written twice', { ...rootOf(), body: `${TEXT}\n${META}\nFormat: chart` }, ['meta_line_repeated']],
  // evidence
  ['a digit with Evidence: none', rootOf(TEXT, meta({ evidence: 'none' })), ['evidence_required']],
  ['no digit with Evidence: none (near miss)', rootOf(pad(HOOK), meta({ evidence: 'none' })), 'ok'],
  ['a digit only inside the link (near miss)', rootOf(pad(HOOK, `${NO_DIGITS} https://arxiv.org/abs/2401.01234`), meta({ evidence: 'none' })), 'ok'],
  ['evidence on a host not allowlisted', rootOf(TEXT, meta({ evidence: 'My blog, 2026-11-20, https://example.com/post' })), ['evidence_host_not_allowed']],
  ['evidence on a paper host', rootOf(TEXT, meta({ evidence: 'Smith et al., 2026-11-20, https://arxiv.org/abs/2401.01234' })), ['evidence_paper_host']],
  ['evidence over http', rootOf(TEXT, meta({ evidence: 'GitHub logs, 2026-11-20, http://github.com/x/y' })), ['evidence_not_https']],
  ['evidence as a bare domain', rootOf(TEXT, meta({ evidence: 'GitHub logs, 2026-11-20, github.com/x/y' })), ['evidence_not_https']],
  ['an undated source', rootOf(TEXT, meta({ evidence: 'GitHub build logs, https://github.com/example/bench' })), ['evidence_undated']],
  ['a written date (near miss)', rootOf(TEXT, meta({ evidence: 'GitHub build logs, 20 Nov 2026, https://github.com/example/bench' })), 'ok'],
  ['an unnamed source', rootOf(TEXT, meta({ evidence: '2026-11-20, https://github.com/example/bench' })), ['evidence_source_unnamed']],
  ['no evidence URL', rootOf(TEXT, meta({ evidence: 'GitHub build logs, 2026-11-20' })), ['evidence_url_missing']],
  ["the service's office data (own-service exception)", rootOf(TEXT, meta({ evidence: 'svc office, 2026-11-20, https://svc.test/api/office' })), 'ok'],
  [
    "the service's thread page is not data",
    rootOf(TEXT, meta({ evidence: 'svc thread, 2026-11-20, https://svc.test/threads/abc' })),
    ['evidence_host_not_allowed'],
  ],
  [
    'two entries, the second bad',
    rootOf(TEXT, meta({ evidence: 'GitHub logs, 2026-11-20, https://github.com/a/b; Blog, 2026-11-21, https://example.com/x' })),
    ['evidence_host_not_allowed'],
  ],
  // links
  ['one allowlisted https link (near miss)', rootOf(pad(HOOK, `${NO_DIGITS} https://github.com/example/flag`), meta({ evidence: 'none' })), 'ok'],
  ['a bare domain', rootOf(pad(HOOK, `${NO_DIGITS} See github.com for more.`), meta({ evidence: 'none' })), ['link_not_https']],
  ['a file name is not a domain (near miss)', rootOf(pad(HOOK, `${NO_DIGITS} See Cargo.toml for more.`), meta({ evidence: 'none' })), 'ok'],
  ['two links', rootOf(pad(HOOK, `${NO_DIGITS} https://github.com/a https://github.com/b`), meta({ evidence: 'none' })), ['one_link_at_most']],
  ['a link to a host not allowlisted', rootOf(pad(HOOK, `${NO_DIGITS} https://example.com/x`), meta({ evidence: 'none' })), ['link_host_not_allowed']],
  [
    'an https link to an address, no top-level domain, is still a link',
    rootOf(pad(HOOK, `${NO_DIGITS} https://10.0.0.1/x`), meta({ evidence: 'none' })),
    ['link_host_not_allowed'],
  ],
  // many problems at once
  [
    'every problem listed at once',
    { topic: 'svc-show', title: 'Show: Too short', body: 'Other first line 5\nFormat: video\nEvidence: none' },
    ['hook_length', 'hook_not_first_line', 'body_length', 'format_unknown', 'audience_line_missing', 'evidence_required'],
  ],
];

describe('Show root rules (422 SHOW_INVALID lists every problem)', () => {
  for (const [name, body, rules] of CASES) {
    test(name, async () => {
      const t = makeShowApp();
      const a = await t.crew('alice');
      const r = await t.post(a, body);
      if (rules === 'ok') {
        expect(r.status, r.text).toBe(200);
        return;
      }
      expect(r.status, r.text).toBe(422);
      expect(r.json.error.code).toBe('SHOW_INVALID');
      const got = r.json.error.details.problems.map((p: { rule: string }) => p.rule);
      expect(got.sort()).toEqual([...rules].sort());
      for (const p of r.json.error.details.problems) expect(typeof p.fix).toBe('string');
    });
  }

  test('a problem names its line', async () => {
    const t = makeShowApp();
    const a = await t.crew('alice');
    const r = await t.post(a, rootOf(TEXT, meta({ format: 'video' })));
    expect(r.json.error.details.problems[0]).toMatchObject({ where: 'line 3', rule: 'format_unknown' });
  });
});

describe('the title', () => {
  const titles: [string, number][] = [
    [`Show: ${HOOK}`, 200],
    [`show:   ${HOOK}`, 200],
    [HOOK, 422],
    [`Shown: ${HOOK}`, 422],
    [`Showcase ${HOOK}`, 422],
  ];
  for (const [title, status] of titles) {
    test(`${JSON.stringify(title.slice(0, 12))} → ${status}`, async () => {
      const t = makeShowApp();
      const a = await t.crew('alice');
      const r = await t.post(a, { ...rootOf(), title });
      expect(r.status, r.text).toBe(status);
      if (status === 422) expect(r.json.error.code).toBe('SHOW_TITLE_REQUIRED');
    });
  }

  test('other topics are not the Show lane', async () => {
    const t = makeShowApp();
    const a = await t.crew('alice');
    expect((await t.post(a, { topic: 'general', title: 'Show: hi', body: 'x' })).status).toBe(200);
    expect((await t.post(a, { topic: 'svc-out', title: 'Show: hi', body: 'x' })).json.error.code).toBe('USE_SHOW_LANE');
  });
});

describe('token ranking (422 SHOW_TOKEN_RANKING)', () => {
  const cases: [string, string | null][] = [
    ['SOL beats ETH this week on fees paid by ordinary users', 'SOL beats ETH'],
    ['$sol vs $eth: which chain do new devs pick first, and why', '$sol vs $eth'],
    ['Solana outperformed Ethereum on developer onboarding here', 'Solana outperformed Ethereum'],
    ['The top ten coins by how easy their docs are to read', 'top ten coins'],
    ['A memecoin tier list nobody asked for, ranked by vibes', 'memecoin tier list'],
    ['A tier list of Rust web frameworks ranked by compile time', null],
    ['Solar beats wind this week in the grid data we track', null],
    ['Sol beats rain: a sunny week for the rooftop panels', null],
    ['ETH Zurich published a clear guide to reading papers', null],
    ['We link over near misses in our test tables for clarity', null],
  ];
  for (const [hook, match] of cases) {
    test(`${hook.slice(0, 30)} → ${match ?? 'accepted'}`, async () => {
      const t = makeShowApp();
      const a = await t.crew('alice');
      const r = await t.post(a, rootOf(pad(hook), meta({ evidence: 'none' })));
      if (match === null) return expect(r.status, r.text).toBe(200);
      expect(r.status, r.text).toBe(422);
      expect(r.json.error).toMatchObject({ code: 'SHOW_TOKEN_RANKING', details: { match } });
    });
  }
});
