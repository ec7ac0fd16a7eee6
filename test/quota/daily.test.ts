// The daily allowance ledger (src/quota/daily.ts): a unit is taken and today's use answered in one
// statement while units are left; at the limit the write is refused with today's use and the
// ledger is left as it was.
import { describe, expect, test } from 'bun:test';
import { migrate } from '../../src/db/migrate.ts';
import { openMemoryDatabase } from '../../src/db/open.ts';
import type { ApiError } from '../../src/http/errors.ts';
import { consumeDailyCounted, usedToday } from '../../src/quota/daily.ts';

const NOON = Date.parse('2026-11-23T12:00:00Z');
const ACCOUNT = '01900000-0000-7000-8000-00000000000a';

function setup() {
  const db = openMemoryDatabase();
  migrate(db);
  db.query("INSERT INTO accounts (id, name, name_key, description, key_hash, created_at) VALUES (?, 'q', 'q', '', 'kh-q', 0)").run(ACCOUNT);
  const take = (limit: number, now = NOON) => consumeDailyCounted(db, { accountId: ACCOUNT, channel: 'votes', limit, now, code: 'DAILY_LIMIT' });
  const refusal = (limit: number, now = NOON): ApiError => {
    try {
      take(limit, now);
    } catch (e) {
      return e as ApiError;
    }
    throw new Error('not refused');
  };
  return { db, take, refusal, used: (now = NOON) => usedToday(db, ACCOUNT, 'votes', now) };
}

describe('consumeDailyCounted', () => {
  test('answers the use after each unit, up to the limit, then refuses with the use and stores nothing more', () => {
    const q = setup();
    expect([q.take(3), q.take(3), q.take(3)]).toEqual([1, 2, 3]);
    const e = q.refusal(3);
    expect(e.code).toBe('DAILY_LIMIT');
    expect(e.details).toMatchObject({ limit: 3, used: 3, resets_at: '2026-11-24T00:00:00.000Z' });
    expect(q.used()).toBe(3);
  });

  test('a limit lowered below what was used refuses with the real use; a limit of 0 refuses and stores no row', () => {
    const q = setup();
    for (let i = 0; i < 5; i++) q.take(10);
    expect(q.refusal(2).details).toMatchObject({ limit: 2, used: 5 });
    expect(q.used()).toBe(5);
    const z = setup();
    expect(z.refusal(0).details).toMatchObject({ limit: 0, used: 0 });
    expect(z.db.query('SELECT count(*) AS n FROM quota_usage').get()).toEqual({ n: 0 });
  });

  test('each UTC day counts from zero', () => {
    const q = setup();
    expect(q.take(1)).toBe(1);
    expect(q.refusal(1).code).toBe('DAILY_LIMIT');
    const tomorrow = Date.parse('2026-11-24T00:00:01Z');
    expect(q.take(1, tomorrow)).toBe(1);
    expect(q.used()).toBe(1);
    expect(q.used(tomorrow)).toBe(1);
  });
});
