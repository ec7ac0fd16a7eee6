// The leading label of a title (roots) or of a body's first line (replies), kept as written.
import { describe, expect, test } from 'bun:test';
import { prefixOf } from '../../src/board/prefixes.ts';
import { makeApp } from '../helpers.ts';
import { reply, thread } from './board-helpers.ts';

const CASES: [string, string | null][] = [
  ['Experiment: cache warmup', 'Experiment'],
  ['experiment: lower case is kept as written', 'experiment'],
  ['EXPERIMENT : spaced colon', 'EXPERIMENT'],
  ['Request: a mailbox', 'Request'],
  ['Proposal: buy a domain', 'Proposal'],
  ['Started: now', 'Started'],
  ['Delivered: https://example.org/x', 'Delivered'],
  ['Result 15m: 3 replies', 'Result 15m'],
  ['Result 1h: 12 views', 'Result 1h'],
  ['result 6h: flat', 'result 6h'],
  ['Result 24h: 40 views', 'Result 24h'],
  ['Result 72h: done', 'Result 72h'],
  ['Result 2h: not a window', null],
  ['Result \t 1h: blanks inside the label are kept as written', 'Result \t 1h'],
  ['Result1h: no blank', null],
  ['Verdict: win', 'Verdict: win'],
  ['verdict: FAIL — the cache did not help', 'verdict: FAIL'],
  ['Verdict: inconclusive, more data needed', 'Verdict: inconclusive'],
  ['Verdict: maybe', null],
  ['Verdict: winner', null],
  ['Show: a one-line hook', 'Show'],
  ['+1: same need here', '+1'],
  ['Retro: what went well', 'Retro'],
  ['Playbook: keep posts short', 'Playbook'],
  ['Pick: this one', 'Pick'],
  ['Picked: publishing', 'Picked'],
  ['Flag: unclear claim', 'Flag'],
  ['Flagged: by the desk', 'Flagged'],
  ['Veto: no', 'Veto'],
  // The Show lane's reply labels are named bare in 02 ("replies Pick"): the word alone, or followed
  // by punctuation, is the label; a word that begins a sentence is prose.
  ['Pick', 'Pick'],
  ['veto.', 'veto'],
  ['Flag — the claim has no source', 'Flag'],
  ['Picked, publishing today', 'Picked'],
  ['FLAGGED!', 'FLAGGED'],
  ['PICK : spaced colon', 'PICK'],
  ['Pick up the thread tomorrow', null],
  ['Flag this later', null],
  ['Flagged?', null],
  ['Picky about sources', null],
  ['Scorecard 6h #12', 'Scorecard'],
  ['Scorecards are great', null],
  ['  Started: leading blanks are skipped', 'Started'],
  ['Started\nno colon on the first line', null],
  ['A plain title', null],
  ['Note: an unknown label', null],
  ['Experimental: not the label', null],
  ['', null],
];

describe('prefix table', () => {
  for (const [text, want] of CASES) {
    test(`${JSON.stringify(text)} → ${JSON.stringify(want)}`, () => {
      expect(prefixOf(text)).toBe(want);
    });
  }

  test('only the first line of a body counts', () => {
    expect(prefixOf('Some words first\nDelivered: later line')).toBeNull();
    expect(prefixOf('Delivered: https://example.org\nmore lines')).toBe('Delivered');
  });
});

describe('prefix on posts', () => {
  test('a root takes its prefix from the title and a reply from its first line', async () => {
    const t = makeApp();
    const alice = await t.register('alice');
    const root = await thread(t, alice, { topic: 'general', title: 'request: a test mailbox', body: 'Delivered: not the title' });
    expect(root.prefix).toBe('request');
    const r = await reply(t, alice, root.id, { body: 'Result 1h: 12 views\nDelivered: ignored' });
    expect(r.prefix).toBe('Result 1h');
    expect((await reply(t, alice, root.id, { body: 'just words' })).prefix).toBeNull();
    const stored = t.db.query('SELECT prefix FROM posts WHERE id = ?').get(root.id);
    expect(stored).toEqual({ prefix: 'request' });
  });
});
