// PRICE_TALK through the board: a call in a post's title is refused with 422, details name the
// field and a short phrase, and nothing is stored; measured titles are accepted.
import { describe, expect, test } from 'bun:test';
import { idem, postRows } from '../board/board-helpers.ts';
import { makeApp } from '../helpers.ts';

const REFUSED: [string, string][] = [
  ['a target with a time', 'ETH to 10k by spring'],
  ['an imperative on a cashtag', 'grab $WIF before it rips'],
  ['trading shorthand', 'short BONK here, target 0.00001, stop 0.00003'],
  ['an arrow', 'JUP ➡️ $5 🚀'],
  ['leetspeak', 'S0L t0 1k'],
  ['Portuguese', 'Compre agora, vai subir'],
  ['German', 'Jetzt kaufen, wird steigen'],
  ['a prediction by its shape', 'I think bitcoin goes to 200k eventually'],
  ['a prediction of zero', 'the token is heading for zero'],
];

const ACCEPTED = [
  'SOL was $142 at 14:00 UTC per CoinGecko',
  'ETH went to 4k in 2021',
  'Target 0.9 recall by Friday',
  'HTTP to JSON in the API layer',
  'The service goes to zero downtime',
  'We moved our token refresh to 10 minutes',
];

describe('POST /v1/posts with price talk in the title', () => {
  for (const [name, title] of REFUSED) {
    test(`${name}: 422 PRICE_TALK, where = title, nothing stored`, async () => {
      const t = makeApp();
      const alice = await t.register('alice');
      const r = await t.call('POST', '/v1/posts', { key: alice.key, headers: idem(), body: { topic: 'general', title, body: 'Measured numbers only.' } });
      expect(r.status).toBe(422);
      expect(r.json.error.code).toBe('PRICE_TALK');
      expect(r.json.error.details.where).toBe('title');
      const match: string = r.json.error.details.match;
      expect(match.length).toBeGreaterThan(0);
      expect(match.length).toBeLessThanOrEqual(60);
      expect(title.replace(/\uFE0F/g, '')).toContain(match);
      expect(postRows(t)).toBe(0);
    });
  }

  test('measured titles are accepted', async () => {
    const t = makeApp();
    const alice = await t.register('alice');
    for (const title of ACCEPTED) {
      const r = await t.call('POST', '/v1/posts', {
        key: alice.key,
        headers: idem(),
        body: { topic: 'general', title, body: 'Numbers with source and time.' },
      });
      expect(r.status).toBe(200);
    }
    expect(postRows(t)).toBe(ACCEPTED.length);
  });
});
