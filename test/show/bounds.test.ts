// GET /api/show has a bound: a page lists at most SHOW_PAGE_MAX roots (items and outside
// together), the newest; next pages back through the rest of the week; the office lists the
// newest OFFICE_SHOW_MAX. Seeded past the bound with straight SQL (the quotas would refuse
// that many roots through the route).
import { describe, expect, test } from 'bun:test';
import { SHOW_PAGE_MAX } from '../../src/show/document.ts';
import { OFFICE_SHOW_MAX } from '../../src/show/office.ts';
import { deletePost, read, seedMany } from '../public/fixtures.ts';
import { makeShowApp } from './harness.ts';

const DAY = 86_400_000;

/** `n` Show roots over the last 6 days, oldest first, one in four by an outside agent; and one older than the week. */
async function seeded(n: number) {
  const t = makeShowApp();
  const ada = await t.crew('ada');
  const out = await t.register('outsider');
  const start = t.clock.now() - 6 * DAY;
  const step = Math.floor((6 * DAY) / n);
  const insert = t.db.query(
    'INSERT INTO show_items (root_id, author_id, crew, hook, format, created_at, post_words, hook_words) VALUES (?, ?, ?, ?, ?, ?, 5, 3)',
  );
  const roots: { id: string; outside: boolean; at: number }[] = [];
  const old = seedMany(t, ada, 1, () => ({ topic: 'svc-show', title: 'Show: an old one', at: start - 2 * DAY }))[0]!;
  insert.run(old.id, ada.id, 1, 'an old one', 'post', start - 2 * DAY);
  for (let i = 0; i < n; i++) {
    const outside = i % 4 === 0;
    const who = outside ? out : ada;
    const at = start + i * step;
    const [r] = seedMany(t, who, 1, () => ({ topic: 'svc-show', title: `Show: finding ${i}`, body: `finding ${i}`, at }));
    insert.run(r!.id, who.id, outside ? 0 : 1, `finding ${i}`, 'post', at);
    roots.push({ id: r!.id, outside, at });
  }
  return { t, ada, out, roots, old: old.id };
}

const page = (d: any) => [...d.items, ...d.outside].sort((a: any, b: any) => (a.created_at < b.created_at ? 1 : -1));

describe('GET /api/show: a bound and a next page', () => {
  test(`a week of ${SHOW_PAGE_MAX * 2 + 30} roots: the newest ${SHOW_PAGE_MAX} on the first page, next pages through the rest, each once`, async () => {
    const n = SHOW_PAGE_MAX * 2 + 30;
    const { t, roots, old } = await seeded(n);
    const first = await read(t, '/api/show');
    expect(first.status).toBe(200);
    const listed = page(first.json);
    expect(listed).toHaveLength(SHOW_PAGE_MAX);
    expect(first.json.items.length + first.json.outside.length).toBe(SHOW_PAGE_MAX);
    const newest = roots.slice(-SHOW_PAGE_MAX).reverse();
    expect(listed.map((i: any) => i.id)).toEqual(newest.map((r) => r.id));
    expect(first.json.has_more).toBe(true);
    expect(first.json.before).toBeNull();
    expect(first.json.next).toBe(`http://svc.test/api/show?before=${newest.at(-1)!.id}`);
    console.log(`/api/show: ${SHOW_PAGE_MAX} roots a page, ${Buffer.byteLength(first.text)} bytes`);

    // Follow next to the window start: every root of the week once, newest first; not the old one.
    const seen = listed.map((i: any) => i.id);
    let next: string | null = first.json.next;
    let pages = 1;
    while (next) {
      const r = await read(t, next.replace('http://svc.test', ''));
      expect(r.status).toBe(200);
      expect(page(r.json).length).toBeLessThanOrEqual(SHOW_PAGE_MAX);
      seen.push(...page(r.json).map((i: any) => i.id));
      next = r.json.next;
      expect(r.json.has_more).toBe(next !== null);
      pages++;
    }
    expect(pages).toBe(3);
    expect(seen).toEqual(roots.map((r) => r.id).reverse());
    expect(seen).not.toContain(old);
  });

  test('a root deleted since keeps its place as a cursor; any other value is 400 INVALID_CURSOR', async () => {
    const { t, ada, roots } = await seeded(SHOW_PAGE_MAX + 10);
    const first = await read(t, '/api/show');
    const cursor = new URL(first.json.next).searchParams.get('before')!;
    const expected = (await read(t, `/api/show?before=${cursor}`)).json;
    deletePost(t, cursor);
    t.clock.advance(61_000);
    const after = await read(t, `/api/show?before=${cursor.toUpperCase()}`);
    expect(after.status).toBe(200);
    expect(page(after.json).map((i: any) => i.id)).toEqual(page(expected).map((i: any) => i.id));
    expect(roots.length).toBe(SHOW_PAGE_MAX + 10);
    for (const bad of ['nope', crypto.randomUUID(), seedMany(t, ada, 1)[0]!.id]) {
      const r = await read(t, `/api/show?before=${bad}`);
      expect(r.status).toBe(400);
      expect(r.json.error.code).toBe('INVALID_CURSOR');
    }
  });

  test(`the office's show member: the newest ${OFFICE_SHOW_MAX} roots, has_more when the week holds more`, async () => {
    const { t, roots } = await seeded(OFFICE_SHOW_MAX + 5);
    const r = await read(t, '/api/office');
    const show = r.json.show;
    expect(show.items.length + show.outside.length).toBe(OFFICE_SHOW_MAX);
    expect(page(show).map((i: any) => i.id)).toEqual(
      roots
        .slice(-OFFICE_SHOW_MAX)
        .reverse()
        .map((x) => x.id),
    );
    expect(show.has_more).toBe(true);
  });
});
