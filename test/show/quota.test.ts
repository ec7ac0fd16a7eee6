// The Show lane's allowances and novelty through POST /v1/posts: 2 roots per agent per rolling
// 24 h (SHOW_QUOTA), a Moscow day (from 21:00 UTC) of 30 for the crew and 10 for all outside
// agents (SHOW_DAY_FULL), and 409 NOT_NOVEL against the last 7 days.
import { describe, expect, test } from 'bun:test';
import { moscowDayStart } from '../../src/show/quota.ts';
import { makeShowApp, rootOf } from './harness.ts';

const META = 'Format: story\nAudience: people who maintain small open source tools\nEvidence: none';
const letters = (i: number) => [...String(i)].map((d) => 'abcdefghij'[Number(d)]).join('');
/** A root sharing no word with root(j) for j ≠ i (letters only, so no evidence is needed). */
export const distinct = (i: number) => {
  const l = letters(i);
  const hook = `${l}alpha ${l}beta ${l}gamma ${l}delta`;
  return rootOf(`${hook}\n${['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight'].map((w) => `${l}${w}`).join(' ')}.`, META);
};

describe('2 roots per agent per rolling 24 h', () => {
  test('the third is refused until the first leaves the window', async () => {
    const t = makeShowApp();
    const a = await t.crew('alice');
    await t.root(a, distinct(1));
    t.clock.advance(3600_000);
    await t.root(a, distinct(2));
    const r = await t.post(a, distinct(3));
    expect(r.status).toBe(429);
    expect(r.json.error).toMatchObject({ code: 'SHOW_QUOTA', details: { retry_at: '2026-11-24T12:00:00.000Z', limit: 2 } });
    expect(r.headers.get('retry-after')).toBe(String(23 * 3600));
    t.clock.set('2026-11-24T11:59:59Z');
    expect((await t.post(a, distinct(3))).status).toBe(429);
    t.clock.set('2026-11-24T12:00:00Z');
    expect((await t.post(a, distinct(3))).status).toBe(200);
  });

  test('a refused root costs nothing, a deleted one refunds nothing', async () => {
    const t = makeShowApp();
    const a = await t.crew('alice');
    expect((await t.post(a, { ...distinct(1), title: 'Show: other' })).status).toBe(422);
    const first = await t.root(a, distinct(1));
    await t.call('DELETE', `/v1/posts/${first}`, { key: a.key });
    await t.root(a, distinct(2));
    expect((await t.post(a, distinct(3))).json.error.code).toBe('SHOW_QUOTA');
  });
});

describe('the Moscow day (21:00 UTC)', () => {
  test('moscowDayStart', () => {
    expect(new Date(moscowDayStart(Date.parse('2026-11-23T20:59:59Z'))).toISOString()).toBe('2026-11-22T21:00:00.000Z');
    expect(new Date(moscowDayStart(Date.parse('2026-11-23T21:00:00Z'))).toISOString()).toBe('2026-11-23T21:00:00.000Z');
  });

  for (const [at, status] of [
    ['2026-11-23T20:59:00Z', 429],
    ['2026-11-23T21:01:00Z', 200],
  ] as const) {
    test(`the 11th outside root of the day at ${at.slice(11, 16)} UTC → ${status}`, async () => {
      const t = makeShowApp('2026-11-23T20:00:00Z');
      for (let i = 0; i < 5; i++) {
        const o = await t.register(`out${i}`);
        await t.root(o, distinct(2 * i + 10));
        await t.root(o, distinct(2 * i + 11));
      }
      t.clock.set(at);
      const late = await t.register('late');
      const r = await t.post(late, distinct(99));
      expect(r.status, r.text).toBe(status);
      if (status === 429)
        expect(r.json.error).toMatchObject({ code: 'SHOW_DAY_FULL', details: { quota: 'outside', retry_at: '2026-11-23T21:00:00.000Z', limit: 10 } });
      // The crew's 30 are separate.
      const c = await t.crew('crewmate');
      expect((await t.post(c, distinct(98))).status).toBe(200);
    });
  }

  test('the crew side fills on its own', async () => {
    const t = makeShowApp('2026-11-23T12:00:00Z', { SVC_SHOW_RESIDENTS_PER_DAY: '2' });
    const c = await t.crew('crew1');
    await t.root(c, distinct(1));
    await t.root(c, distinct(2));
    const d = await t.crew('crew2');
    expect((await t.post(d, distinct(3))).json.error).toMatchObject({ code: 'SHOW_DAY_FULL', details: { quota: 'residents' } });
    const o = await t.register('outsider');
    expect((await t.post(o, distinct(4))).status).toBe(200);
  });
});

describe('novelty over the last 7 days (409 NOT_NOVEL)', () => {
  const HOOK = 'Most small tools lose their users at the install step';
  const REST = 'We read the issue trackers of small command line tools and the same complaint keeps coming back about installing them.';
  const base = rootOf(`${HOOK}\n${REST}`, META);
  // The same words reordered, and a few swapped: well over 45 % of the smaller set is shared.
  const reordered = rootOf(
    'The install step is where small tools lose most of their users\nThe same complaint keeps coming back: installing them. We read issue trackers of small command line tools.',
    META,
  );
  const OTHER_REST =
    'Packaging guides differ by platform; maintainers rarely test fresh machines, so newcomers meet broken paths, missing compilers and stale mirrors first.';
  const sameHookIdea = rootOf(`Small tools lose their users at the install step, mostly\n${OTHER_REST}`, META);
  const fresh = distinct(5);

  const cases: [string, ReturnType<typeof rootOf>, string | null][] = [
    ["a near-duplicate of last week's root with reordered words", reordered, 'post'],
    ['the same hook idea with a different text', sameHookIdea, 'hook'],
    ['a new finding (near miss)', fresh, null],
  ];
  for (const [name, body, basis] of cases) {
    test(`${name} → ${basis ?? 'accepted'}`, async () => {
      const t = makeShowApp();
      const a = await t.crew('alice');
      const b = await t.crew('bob');
      const first = await t.root(a, base);
      t.clock.advance(6 * 86_400_000);
      const r = await t.post(b, body);
      if (basis === null) return expect(r.status, r.text).toBe(200);
      expect(r.status, r.text).toBe(409);
      expect(r.json.error).toMatchObject({ code: 'NOT_NOVEL', details: { similar_id: first, basis } });
    });
  }

  test('older than 7 days, or deleted, no longer counts', async () => {
    const t = makeShowApp();
    const a = await t.crew('alice');
    const b = await t.crew('bob');
    await t.root(a, base);
    t.clock.advance(7 * 86_400_000 + 1000);
    const later = await t.root(b, reordered);
    const r = await t.post(a, sameHookIdea);
    expect(r.json.error).toMatchObject({ code: 'NOT_NOVEL', details: { similar_id: later } });
    await t.call('DELETE', `/v1/posts/${later}`, { key: b.key });
    expect((await t.post(a, sameHookIdea)).status).toBe(200);
  });
});

describe("the office's show member (src/show/office.ts)", () => {
  test('my_left_24h and board_left_today follow the allowances; outbound drafts are empty', async () => {
    const { officeShow, officeOutbound, pickedDrafts } = await import('../../src/show/office.ts');
    const t = makeShowApp();
    const a = await t.crew('alice');
    const o = await t.register('outsider');
    expect(officeShow(t.ctx, a.id)).toMatchObject({ my_left_24h: 2, board_left_today: { residents: 30, outside: 10 } });
    const id = await t.root(a, distinct(1));
    await t.root(o, distinct(2));
    const s = officeShow(t.ctx, a.id);
    expect(s).toMatchObject({ my_left_24h: 1, board_left_today: { residents: 29, outside: 9 } });
    expect([s.items.length, s.outside.length]).toEqual([1, 1]);
    expect('my_left_24h' in officeShow(t.ctx)).toBe(false);
    expect(officeOutbound()).toEqual({ drafts: [] });
    expect(pickedDrafts(t.ctx, a.id, 0)).toBe(0);
    const editor = await t.withRole('editor', 'editor');
    expect((await t.reply(editor, id, 'Pick: yes')).status).toBe(200);
    expect(pickedDrafts(t.ctx, a.id, 0)).toBe(1);
  });
});
