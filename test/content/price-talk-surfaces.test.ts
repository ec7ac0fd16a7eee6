// A call and a prediction over two clauses is price talk on every surface that reads text: each one
// calls the same detector (findPriceTalk, or scanContent over the body): board posts and Show roots
// (src/http/write.ts), articles (src/pubs/submit.ts), lab pages' visible text
// (src/lab/scan/text.ts) and outreach e-mails and channel posts (src/outreach/text.ts).
import { describe, expect, test } from 'bun:test';
import { FindingError } from '../../src/lab/scan/finding.ts';
import { scanVisibleText } from '../../src/lab/scan/text.ts';
import { contentMatches } from '../../src/outreach/text.ts';
import { idem } from '../board/board-helpers.ts';
import { makeApp } from '../helpers.ts';
import { envelope, pubsApp } from '../pubs/harness.ts';

const SPLIT = "Sell your ETH, it's going to zero.";
const ADJACENT = 'Buy SOL. Trust me, it will double.';
const PRESENT = 'ETH drops to 1000 soon.';
const MEASURED = 'ETH drops to $1,800 after the exploit, per CoinGecko at 14:00 UTC.';

describe('board posts and Show roots', () => {
  const cases: [string, Record<string, string>, string][] = [
    ['a post body', { topic: 'general', title: 'Notes', body: `Builds were green.\n${SPLIT}` }, 'body'],
    ['a post title', { topic: 'general', title: PRESENT, body: 'Measured numbers only.' }, 'title'],
    ['a Show root', { topic: 'svc-show', title: 'Show: relay notes', body: `relay notes\n${ADJACENT}\nFormat: post` }, 'body'],
  ];
  for (const [name, body, where] of cases) {
    test(`${name}: 422 PRICE_TALK at ${where}`, async () => {
      const t = makeApp();
      const alice = await t.register('alice');
      const r = await t.call('POST', '/v1/posts', { key: alice.key, headers: idem(), body });
      expect(r.status).toBe(422);
      expect(r.json.error.code).toBe('PRICE_TALK');
      expect(r.json.error.details.where).toBe(where);
    });
  }

  test('a measured price in the present tense is posted', async () => {
    const t = makeApp();
    const alice = await t.register('alice');
    const r = await t.call('POST', '/v1/posts', { key: alice.key, headers: idem(), body: { topic: 'general', title: 'Notes', body: MEASURED } });
    expect(r.status).toBe(200);
  });
});

test('an article paragraph: 422 PRICE_TALK at its block', async () => {
  const { submit } = await pubsApp();
  const r = await submit(
    envelope({
      blocks: [
        { type: 'paragraph', text: 'Fine.' },
        { type: 'paragraph', text: SPLIT },
      ],
    }),
  );
  expect(r.json.error.code).toBe('PRICE_TALK');
  expect(r.json.error.details.where).toBe('blocks[1].text');
});

describe("a lab page's visible text", () => {
  const codeOf = (html: string): string | null => {
    try {
      scanVisibleText(html, 'index.html');
      return null;
    } catch (e) {
      if (e instanceof FindingError) return e.finding.code;
      throw e;
    }
  };
  test('a call and a prediction in two paragraphs: LAB_PRICE_TALK', () => {
    expect(codeOf("<title>Notes</title><p>Sell your ETH.</p><p>It's going to zero.</p>")).toBe('LAB_PRICE_TALK');
    expect(codeOf(`<title>${PRESENT}</title><p>Notes.</p>`)).toBe('LAB_PRICE_TALK');
  });
  test('a measured price passes', () => {
    expect(codeOf(`<title>Notes</title><p>${MEASURED}</p>`)).toBeNull();
  });
});

test('an outreach text: a price_talk match in the field that holds it', () => {
  expect(contentMatches({ subject: 'Relay notes', body: ADJACENT })).toEqual([
    { rule: 'price_talk', where: 'body', match: 'Buy SOL. Trust me, it will double' },
  ]);
  expect(contentMatches({ text: PRESENT })).toEqual([{ rule: 'price_talk', where: 'text', match: 'ETH drops to 1000 soon' }]);
  expect(contentMatches({ text: MEASURED })).toEqual([]);
});
