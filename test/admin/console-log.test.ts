// The console's Log filter: by action, actor, a part of the target and a UTC date range (both days
// included), as a GET query; paging keeps the filters; a date that is not one says so.
import { describe, expect, test } from 'bun:test';
import { runAdmin } from '../../src/admin/cli.ts';
import { makeApp } from '../helpers.ts';
import { act, send, signedIn, unescaped } from './console-harness.ts';

const rows = (html: string) => [...html.matchAll(/<tr><td[ >][\s\S]*?<\/tr>/g)].map((m) => m[0]);
const cells = (row: string) => [...row.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((m) => unescaped(m[1]!.replace(/<[^>]+>/g, '')));

describe('the Log filter', () => {
  test('action, actor, target, date range; paging keeps the filters', async () => {
    const t = makeApp(); // 2026-11-23T12:00:00Z
    for (const n of ['ann', 'bob', 'cat']) await t.register(n);
    runAdmin(t.ctx, ['lab', 'allow', 'ann']);
    t.clock.advance(86_400_000); // 11-24
    const day2 = await signedIn(t); // boss, owner (the grant is the shell's: actor cli)
    await act(t, day2, 'lab allow', { name: 'bob' });
    await act(t, day2, 'role grant', { name: 'cat', role: 'editor' });
    t.clock.advance(86_400_000); // 11-25 (the session has ended: sign in again)
    runAdmin(t.ctx, ['lab', 'deny', 'ann']);
    const r = await send(t, 'POST', '/console/sign-in', { form: { key: day2.key } });
    const s = { cookie: r.headers.get('set-cookie')!.split(';')[0]! };

    const log = async (query: string) => {
      const r = await send(t, 'GET', `/console/log?${query}`, { cookie: s.cookie });
      expect(r.status).toBe(200);
      return { text: r.text, rows: rows(r.text).map(cells) };
    };
    const all = await log('');
    // Each sign-in is an entry too (tests send no socket address: "local").
    expect(all.rows.map((r) => [r[1], r[2], r[3]])).toEqual([
      ['boss', 'console sign-in', 'key from local'],
      ['cli', 'lab deny', 'ann'],
      ['boss', 'role grant', 'cat editor'],
      ['boss', 'lab allow', 'bob'],
      ['boss', 'console sign-in', 'key from local'],
      ['cli', 'role grant', 'boss owner'],
      ['cli', 'lab allow', 'ann'],
    ]);
    expect((await log('action=lab+allow')).rows.map((r) => r[3])).toEqual(['bob', 'ann']);
    expect((await log('actor=boss')).rows.map((r) => r[2])).toEqual(['console sign-in', 'role grant', 'lab allow', 'console sign-in']);
    expect((await log('target=an')).rows.map((r) => r[2])).toEqual(['lab deny', 'lab allow']);
    expect((await log('from=2026-11-24&to=2026-11-24')).rows.map((r) => r[2])).toEqual(['role grant', 'lab allow', 'console sign-in', 'role grant']);
    expect((await log('from=2026-11-25')).rows.length).toBe(2);
    expect((await log('to=2026-11-23')).rows.map((r) => r[2])).toEqual(['lab allow']);
    expect((await log('actor=cli&action=lab+allow&from=2026-11-23&to=2026-11-23')).rows.map((r) => r[3])).toEqual(['ann']);
    const none = await log('actor=nobody');
    expect([none.rows.length, none.text.includes('No entries match.')]).toEqual([0, true]);
    // The form shows what is filtered on.
    const shown = await log('action=lab+deny&actor=cli');
    expect(shown.text).toContain('<option value="lab deny" selected>');
    expect(shown.text).toContain('name="actor" value="cli"');
    const bad = await log('from=2026-02-30&to=yesterday');
    expect(unescaped(bad.text)).toContain('from: not a day (YYYY-MM-DD); to: not a day (YYYY-MM-DD)');
    expect(bad.rows.length).toBe(7);
    // A filter nobody could write as SQL stays text.
    expect((await log(`target=${encodeURIComponent("'; DROP TABLE audit_log; --")}`)).rows).toEqual([]);
  });

  test('paging past 100 keeps the filter', async () => {
    const t = makeApp();
    const s = await signedIn(t);
    await t.register('ann');
    for (let i = 0; i < 60; i++) {
      runAdmin(t.ctx, ['lab', 'allow', 'ann']);
      runAdmin(t.ctx, ['lab', 'deny', 'ann']);
    }
    const first = await send(t, 'GET', '/console/log?action=lab+deny&actor=cli', { cookie: s.cookie });
    expect(rows(first.text).length).toBe(60);
    const all = await send(t, 'GET', '/console/log?actor=cli', { cookie: s.cookie });
    expect(rows(all.text).length).toBe(100);
    const older = /<a href="([^"]+)">Older<\/a>/.exec(all.text)![1]!;
    expect(unescaped(older)).toMatch(/^\/console\/log\?actor=cli&before=\d+$/);
    const next = await send(t, 'GET', unescaped(older), { cookie: s.cookie });
    expect(rows(next.text).map((r) => cells(r)[1])).toEqual(Array(21).fill('cli')); // 120 + the owner's grant
  });
});
