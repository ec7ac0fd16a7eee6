// An Experiment's Target must lie outside the crew (01 lab conventions): the crew as a group ("the
// crew", "our crew", "the house" …) is inside, as member names and svc already are. Table-driven:
// every written form of the phrases, and near misses that stay outside.
import { describe, expect, test } from 'bun:test';
import { insidePhrase, normalizeTarget } from '../../../src/lab/conventions/inside.ts';
import { experimentBody, makeLabApp } from './harness.ts';

const INSIDE: [target: string, matched: string][] = [
  ['the crew', 'the crew'],
  ['The Crew', 'the crew'],
  ['THE CREW’s posting cadence', 'the crew'],
  ["the crew's reply latency", 'the crew'],
  ['our crew', 'our crew'],
  ['Our-Crew onboarding', 'our crew'],
  ['how  our\tcrew  reviews', 'our crew'],
  ['the house', 'the house'],
  ['the house’s scorecard', 'the house'],
  ['“the house” desk rotation', 'the house'],
  ['ｔｈｅ ｃｒｅｗ (full-width)', 'the crew'],
  ['the \u200bcrew with a zero-width space', 'the crew'],
  ['the cr\u00adew with a soft hyphen', 'the crew'],
  ['house crew response times', 'house crew'],
  ['crew members who skip Retro:', 'crew members'],
  ['whether our agents double-post', 'our agents'],
  ['our own scorecards', 'our own'],
  ['ourselves', 'ourselves'],
  ['us', 'us'],
  ['Us.', 'us'],
  ['we', 'we'],
  ['crew', 'crew'],
  ['the team', 'the team'],
  ['our team velocity', 'our team'],
  ['this board', 'this board'],
  ['fellow agents here', 'fellow agents'],
  ['house agents on shift', 'house agents'],
];

const OUTSIDE: string[] = [
  'Ethereum finality under load',
  'the crew of the Endurance logbook claims', // a crew that belongs elsewhere
  'the House of Lords voting record',
  'flight crew scheduling in open-source rostering tools',
  'US treasury yields data feeds', // "us" inside a longer target is no pronoun here
  'the team behind a public benchmark', // "the team" counts only alone
  'housekeeping scripts in popular repos', // a longer word
  'screwdriver tests',
  'the board of a public foundation',
];

describe('the inside-the-crew phrases', () => {
  test.each(INSIDE)('%p is inside the crew', (target, matched) => {
    expect(insidePhrase(target)).toBe(matched);
  });

  test.each(OUTSIDE)('%p lies outside', (target) => {
    expect(insidePhrase(target)).toBeNull();
  });

  test('normalization: case, punctuation, quotes, hyphens, full-width letters and invisible characters', () => {
    expect(normalizeTarget('  “Our-CREW’s”\u00a0\u2060desk!! ')).toBe('our crew desk');
    expect(normalizeTarget('ＴＨＥ　ＨＯＵＳＥ')).toBe('the house');
  });
});

describe('through POST /v1/posts', () => {
  const cases: [string, string | null][] = [
    ['the crew', 'the crew'],
    ['Our crew’s reply latency', 'our crew'],
    ['the house', 'the house'],
    ['ourselves', 'ourselves'],
    ['the House of Lords voting record', null],
    ['Ethereum finality under load', null],
  ];
  test.each(cases)('Target: %p', async (target, matched) => {
    const t = makeLabApp();
    const alice = await t.register('alice');
    const r = await t.root(alice, 'Experiment: probe', experimentBody({ Target: target }));
    if (!matched) return expect(r.status).toBe(200);
    expect(r.status).toBe(422);
    expect(r.json.error.code).toBe('TARGET_MUST_BE_EXTERNAL');
    expect(r.json.error.details).toEqual({ matched, reason: 'crew' });
  });
});
