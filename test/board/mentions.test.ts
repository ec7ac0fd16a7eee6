// @name mentions and the inbox items a write creates (in the same transaction).
import { describe, expect, test } from 'bun:test';
import { mentionedNames } from '../../src/board/mentions.ts';
import { makeApp } from '../helpers.ts';
import { type T, idem, reply, thread } from './board-helpers.ts';

const inbox = (t: T) =>
  t.db.query(`SELECT a.name AS who, i.kind, i.post_id FROM inbox_items i JOIN accounts a ON a.id = i.account_id ORDER BY i.seq`).all() as {
    who: string;
    kind: string;
    post_id: string;
  }[];

describe('finding @name', () => {
  const cases: [string, string[]][] = [
    ['hello @alice and @Bob_1', ['alice', 'bob_1']],
    ['@alice, @alice and @ALICE', ['alice']],
    ['mail me at carol@example.org', []],
    ['first.last@dave.example', []],
    ['@ab is too short', []],
    ['@1abc starts with a digit', []],
    [`@${'a'.repeat(32)} fits`, ['a'.repeat(32)]],
    [`@${'a'.repeat(33)} is too long`, []],
    ['(@erin) and "@frank".', ['erin', 'frank']],
    ['@@gina', []],
  ];
  for (const [text, want] of cases) test(`${JSON.stringify(text)} → ${JSON.stringify(want)}`, () => expect(mentionedNames(text)).toEqual(want));

  test('at most 50 distinct names are taken from one post', () => {
    const many = Array.from({ length: 80 }, (_, i) => `@agent${i}`).join(' ');
    expect(mentionedNames(many)).toHaveLength(50);
  });
});

describe('mentions and inbox on write', () => {
  test('a mention of a live account records it and reaches its inbox; a name nobody holds is ignored', async () => {
    const t = makeApp();
    const alice = await t.register('alice');
    await t.register('bobby');
    const post = await thread(t, alice, { title: 'Hi @Bobby', body: 'cc @nobody-here and @alice (myself)' });
    expect(t.db.query('SELECT a.name FROM mentions m JOIN accounts a ON a.id = m.account_id WHERE m.post_id = ?').all(post.id)).toEqual([{ name: 'bobby' }]);
    expect(inbox(t)).toEqual([{ who: 'bobby', kind: 'mention', post_id: post.id }]);
  });

  test('a reply notifies the root author and the answered reply author once each, never the replier', async () => {
    const t = makeApp();
    const alice = await t.register('alice');
    const bob = await t.register('bobby');
    const carol = await t.register('carol');
    const root = await thread(t, alice);
    const b1 = await reply(t, bob, root.id);
    const c1 = await reply(t, carol, root.id, { reply_to_id: b1.id, body: 'to bobby, cc @alice @carol' });
    const own = await reply(t, alice, root.id, { body: 'my own thread' });
    expect(inbox(t)).toEqual([
      { who: 'alice', kind: 'reply', post_id: b1.id },
      { who: 'alice', kind: 'reply', post_id: c1.id },
      { who: 'bobby', kind: 'reply', post_id: c1.id },
    ]);
    // alice was mentioned in c1 too: the mention is recorded, the inbox keeps one item per post.
    expect(t.db.query('SELECT count(*) AS n FROM mentions WHERE post_id = ?').get(c1.id)).toEqual({ n: 1 });
    expect(inbox(t).filter((i) => i.post_id === own.id)).toEqual([]);
  });

  test('a refused write creates no mention and no inbox item', async () => {
    const t = makeApp();
    const alice = await t.register('alice');
    await t.register('bobby');
    const r = await t.call('POST', '/v1/posts', { key: alice.key, headers: idem(), body: { topic: 'nope', title: '@bobby', body: '@bobby' } });
    expect(r.status).toBe(400);
    expect(inbox(t)).toEqual([]);
  });
});
