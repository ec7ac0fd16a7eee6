// The mirror's reads rewritten for their plans (issue 27: the page without a kind walks seq, a
// conversation is a UNION of two index lookups) answer as the statements they replaced, on a
// seeded mirror with withdrawn posts, replies of replies and roots that are not mirrored.
import { describe, expect, test } from 'bun:test';
import { extStore } from '../../src/ext/store.ts';
import { migratedDb } from '../db/plans.ts';

const COLS = `p.seq, p.id, p.outside_id, p.kind, p.author_outside_id, p.conversation_outside_id, p.reply_to_outside_id, p.text,
  p.text_length, p.is_truncated, p.links, p.flags, p.created_at, p.ingested_at, p.wanted_at, u.username, u.name, u.verified`;
const FROM = 'ext_posts p LEFT JOIN ext_users u ON u.outside_id = p.author_outside_id';
const OLD_CONVERSATION = `SELECT ${COLS} FROM ${FROM} WHERE (p.conversation_outside_id = ? OR p.outside_id = ?) AND p.withdrawn_at IS NULL
  ORDER BY p.created_at ASC, p.seq ASC LIMIT ?`;
const OLD_PAGE = {
  first: `SELECT ${COLS} FROM ${FROM} WHERE p.withdrawn_at IS NULL ORDER BY p.seq DESC LIMIT ?`,
  before: `SELECT ${COLS} FROM ${FROM} WHERE p.withdrawn_at IS NULL AND p.seq < ? ORDER BY p.seq DESC LIMIT ?`,
  after: `SELECT ${COLS} FROM ${FROM} WHERE p.withdrawn_at IS NULL AND p.seq > ? ORDER BY p.seq ASC LIMIT ?`,
};

function seeded() {
  const d = migratedDb();
  let s = 12345;
  const r = (n: number) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return (s >>> 16) % n;
  };
  const kinds = ['ours', 'reply', 'mention', 'talk'];
  for (let u = 0; u < 5; u++) d.query('INSERT INTO ext_users VALUES (?, ?, ?, 0, 0)').run(`u${u}`, `user${u}`, `User ${u}`);
  const insert = d.query(
    `INSERT INTO ext_posts (id, outside_id, kind, author_outside_id, conversation_outside_id, reply_to_outside_id, text, text_length,
       is_truncated, links, flags, created_at, ingested_at, withdrawn_at) VALUES (?, ?, ?, ?, ?, ?, 't', 1, 0, '[]', '[]', ?, 0, ?)`,
  );
  const outside: string[] = [];
  for (let i = 0; i < 300; i++) {
    const o = `o${i}`;
    // a root (its own conversation, or none given), or a post in an earlier post's conversation,
    // or in a conversation whose root the mirror never saw
    const shape = r(4);
    const conv = shape === 0 ? o : shape === 1 || !outside.length ? (r(2) ? null : `gone${r(5)}`) : `o${r(outside.length)}`;
    insert.run(`id${i}`, o, kinds[r(4)]!, `u${r(7)}`, conv, conv, r(50), r(8) === 0 ? 1 : null);
    outside.push(o);
  }
  return d;
}

describe('the mirror reads answer as before their plans changed', () => {
  const d = seeded();
  const s = extStore(d);

  test('a conversation: by every post, every conversation id and one unknown, at two caps', () => {
    const old = d.query(OLD_CONVERSATION);
    const keys = new Set<string>(['nobody']);
    for (const row of d
      .query<{ outside_id: string; conversation_outside_id: string | null }, []>('SELECT outside_id, conversation_outside_id FROM ext_posts')
      .all()) {
      keys.add(row.outside_id);
      if (row.conversation_outside_id) keys.add(row.conversation_outside_id);
    }
    let nonEmpty = 0;
    for (const k of keys)
      for (const cap of [3, 1000]) {
        const want = old.all(k, k, cap);
        expect(s.conversation.all(k, k, cap)).toEqual(want as never);
        if (want.length > 1) nonEmpty++;
      }
    expect(nonEmpty).toBeGreaterThan(10);
  });

  test('the page without a kind: first, before and after every cursor', () => {
    expect(s.page.all.first.all(25)).toEqual(d.query(OLD_PAGE.first).all(25) as never);
    for (let at = 0; at <= 302; at += 7) {
      expect(s.page.all.before.all(at, 25)).toEqual(d.query(OLD_PAGE.before).all(at, 25) as never);
      expect(s.page.all.after.all(at, 25)).toEqual(d.query(OLD_PAGE.after).all(at, 25) as never);
    }
    expect(d.query('SELECT count(*) AS n FROM ext_posts WHERE withdrawn_at IS NOT NULL').get()).not.toEqual({ n: 0 });
  });
});
