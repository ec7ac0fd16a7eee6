// Picking and publishing: the desk's and owner's reply labels, the reporter's routes, and what
// GET /api/show shows at each step.
import { describe, expect, test } from 'bun:test';
import { makeShowApp } from './harness.ts';

async function lane(env: Record<string, string> = {}) {
  const t = makeShowApp(undefined, env);
  const author = await t.crew('author');
  const editor = await t.withRole('editor', 'editor');
  const owner = await t.withRole('owner', 'owner');
  const reporter = await t.withRole('reporter', 'reporter');
  const stranger = await t.register('stranger');
  const id = await t.root(author);
  const item = async (rootId = id) => {
    const d = await t.doc();
    return [...d.items, ...d.outside].find((i: { id: string }) => i.id === rootId);
  };
  const ok = async (r: Promise<{ status: number; text: string }>) => {
    const res = await r;
    if (res.status !== 200) throw new Error(`${res.status} ${res.text}`);
  };
  return { t, author, editor, owner, reporter, stranger, id, item, ok };
}

describe('reply labels on a Show root', () => {
  const picked: [string, 'owner' | 'editor' | 'author' | 'stranger', number][] = [
    ['the owner', 'owner', 200],
    ['the editor', 'editor', 403],
    ["the root's author", 'author', 403],
    ['anyone else', 'stranger', 403],
  ];
  test('a bare Picked from anyone but the owner is 403 RESERVED_REPLY too', async () => {
    const l = await lane();
    const r = await l.t.reply(l.editor, l.id, 'Picked');
    expect([r.status, r.json.error?.code]).toEqual([403, 'RESERVED_REPLY']);
  });
  for (const [name, who, status] of picked) {
    test(`Picked: from ${name} → ${status}`, async () => {
      const l = await lane();
      const r = await l.t.reply(l[who], l.id, 'Picked: ship it');
      expect(r.status, r.text).toBe(status);
      if (status === 403) expect(r.json.error).toMatchObject({ code: 'RESERVED_REPLY', details: { label: 'Picked:' } });
    });
  }

  const statuses: [string, ['editor' | 'owner' | 'stranger' | 'author', string][], string, number, number][] = [
    ['nothing yet', [], 'draft', 0, 0],
    ["a stranger's Pick: is ordinary text", [['stranger', 'Pick: yes']], 'draft', 0, 0],
    ["the desk's Pick:", [['editor', 'Pick: strong hook']], 'picked', 1, 0],
    [
      'Pick: and the owner’s Picked:',
      [
        ['editor', 'Pick: yes'],
        ['owner', 'Picked: ok'],
      ],
      'approved',
      2,
      0,
    ],
    ['the owner’s Picked: alone', [['owner', 'Picked: ok']], 'draft', 1, 0],
    [
      "the desk's Flag: after a pick",
      [
        ['editor', 'Pick: yes'],
        ['owner', 'Picked: ok'],
        ['editor', 'Flag: number unsourced'],
      ],
      'flagged',
      2,
      1,
    ],
    ["the owner's Veto:", [['owner', 'Veto: not for outside']], 'flagged', 0, 1],
    ['Flagged: from the desk', [['editor', 'Flagged: duplicate']], 'flagged', 0, 1],
    ["a stranger's Flag: is ordinary text", [['stranger', 'Flag: meh']], 'draft', 0, 0],
    ["the author's Veto: is ordinary text", [['author', 'Veto: oops']], 'draft', 0, 0],
    // 02 names the labels bare ("the editor's desk replies Pick"): no colon is needed.
    [
      'bare Pick and Picked',
      [
        ['editor', 'Pick'],
        ['owner', 'Picked, ship it'],
      ],
      'approved',
      2,
      0,
    ],
    ["the desk's bare Veto.", [['editor', 'Veto.']], 'flagged', 0, 1],
    ["the desk's bare Flag — with a reason", [['editor', 'Flag — the number has no source']], 'flagged', 0, 1],
    ['a sentence that begins with the word is prose', [['editor', 'Flag this for later, maybe']], 'draft', 0, 0],
  ];
  for (const [name, replies, status, picks, flags] of statuses) {
    test(`${name} → ${status}`, async () => {
      const l = await lane();
      for (const [who, body] of replies) await l.ok(l.t.reply(l[who], l.id, body));
      expect(await l.item()).toMatchObject({ status, picks, flags, x: null });
    });
  }
});

describe('POST /v1/show/{id}/posted', () => {
  test('a picked, approved root is posted once; x is filled', async () => {
    const l = await lane();
    await l.ok(l.t.reply(l.editor, l.id, 'Pick: yes'));
    await l.ok(l.t.reply(l.owner, l.id, 'Picked: yes'));
    const r = await l.t.posted(l.reporter, l.id);
    expect(r.status, r.text).toBe(200);
    expect(r.json).toEqual({ id: l.id, status: 'posted', url: 'https://x.com/svc/status/1', published_at: '2026-11-23T12:30:00.000Z', left_today: 7 });
    expect((await l.item()).x).toEqual({ url: 'https://x.com/svc/status/1', published_at: '2026-11-23T12:30:00.000Z', metrics_2h: null, metrics_24h: null });
    const again = await l.t.posted(l.reporter, l.id);
    expect(again.json.error).toMatchObject({ code: 'SHOW_NOT_PUBLISHABLE', details: { reasons: ['already_posted'] } });
  });

  const refusals: [string, ['editor' | 'owner', string][], string[]][] = [
    [
      'publishing a flagged root',
      [
        ['editor', 'Pick: yes'],
        ['owner', 'Picked: yes'],
        ['owner', 'Flag: wait'],
      ],
      ['flagged'],
    ],
    ['not picked by the desk', [['owner', 'Picked: yes']], ['not_picked']],
    ['not approved by the owner', [['editor', 'Pick: yes']], ['not_owner_approved']],
  ];
  for (const [name, replies, reasons] of refusals) {
    test(`${name} → 409`, async () => {
      const l = await lane();
      for (const [who, body] of replies) await l.ok(l.t.reply(l[who], l.id, body));
      const r = await l.t.posted(l.reporter, l.id);
      expect(r.status).toBe(409);
      expect(r.json.error).toMatchObject({ code: 'SHOW_NOT_PUBLISHABLE', details: { reasons } });
    });
  }

  test('only the reporter; only a Show root; a well-formed https url', async () => {
    const l = await lane();
    expect((await l.t.posted(l.editor, l.id)).json.error).toMatchObject({ code: 'NOT_ALLOWED', details: { role: 'reporter' } });
    const general = (await l.t.post(l.author, { topic: 'general', title: 'hi', body: 'there' })).json.post.id;
    expect((await l.t.posted(l.reporter, general)).status).toBe(404);
    expect((await l.t.posted(l.reporter, l.id, { url: 'http://x.com/a', published_at: '2026-11-23T12:30:00Z' })).status).toBe(400);
    expect((await l.t.posted(l.reporter, l.id, { url: 'https://x.com/a', published_at: 'yesterday' })).status).toBe(400);
  });

  test('at most the daily number a UTC day (docs/decisions.md#paging-and-time: the spec names no Moscow day for it)', async () => {
    const l = await lane({ SVC_SHOW_PUBLISH_PER_DAY: '1' });
    const other = await l.t.root(l.author, {
      topic: 'svc-show',
      title: 'Show: Chart notebooks load slower than the charts',
      body: 'Chart notebooks load slower than the charts\nThe notebook runtime, not the plotting library, is where most of the wait comes from.\nFormat: chart\nAudience: data folks who share notebooks publicly\nEvidence: none',
    });
    for (const id of [l.id, other]) {
      await l.ok(l.t.reply(l.editor, id, 'Pick: yes'));
      await l.ok(l.t.reply(l.owner, id, 'Picked: yes'));
    }
    await l.ok(l.t.posted(l.reporter, l.id));
    const r = await l.t.posted(l.reporter, other);
    expect(r.status).toBe(429);
    expect(r.json.error).toMatchObject({ code: 'SHOW_PUBLISH_LIMIT', details: { retry_at: '2026-11-24T00:00:00.000Z' } });
    l.t.clock.set('2026-11-23T21:00:00Z');
    expect((await l.t.posted(l.reporter, other)).status).toBe(429);
    l.t.clock.set('2026-11-24T00:00:00Z');
    expect((await l.t.posted(l.reporter, other)).status).toBe(200);
  });
});

describe('POST /v1/show/{id}/metrics', () => {
  test('each checkpoint once, after posting; shown in x', async () => {
    const l = await lane();
    const m2 = { checkpoint: '2h', likes: 10, reposts: 2, replies: 1, quotes: 0 };
    expect((await l.t.metrics(l.reporter, l.id, m2)).json.error.code).toBe('SHOW_NOT_POSTED');
    await l.ok(l.t.reply(l.editor, l.id, 'Pick: yes'));
    await l.ok(l.t.reply(l.owner, l.id, 'Picked: yes'));
    await l.ok(l.t.posted(l.reporter, l.id));
    expect((await l.t.metrics(l.stranger, l.id, m2)).json.error.code).toBe('NOT_ALLOWED');
    l.t.clock.set('2026-11-23T14:30:00Z');
    const r = await l.t.metrics(l.reporter, l.id, m2);
    expect(r.status, r.text).toBe(200);
    expect(r.json.metrics).toEqual({ likes: 10, reposts: 2, replies: 1, quotes: 0, measured_at: '2026-11-23T14:30:00.000Z' });
    const twice = await l.t.metrics(l.reporter, l.id, { ...m2, likes: 11 });
    expect(twice.status).toBe(409);
    expect(twice.json.error).toMatchObject({ code: 'SHOW_METRICS_RECORDED', details: { checkpoint: '2h', recorded: { likes: 10 } } });
    expect((await l.t.metrics(l.reporter, l.id, { ...m2, checkpoint: '6h' })).status).toBe(400);
    expect((await l.t.metrics(l.reporter, l.id, { ...m2, likes: -1, checkpoint: '24h' })).status).toBe(400);
    await l.ok(l.t.metrics(l.reporter, l.id, { ...m2, checkpoint: '24h', likes: 40, impressions: 900 }));
    const x = (await l.item()).x;
    expect(x.metrics_2h).toEqual({ likes: 10, reposts: 2, replies: 1, quotes: 0, measured_at: '2026-11-23T14:30:00.000Z' });
    expect(x.metrics_24h).toMatchObject({ likes: 40, impressions: 900 });
  });
});

describe('GET /api/show', () => {
  test('public, cached, CORS *; outside roots under outside; the last 7 days only', async () => {
    const l = await lane();
    const out = await l.t.register('visitor');
    const outsideId = await l.t.root(out, {
      topic: 'svc-show',
      title: 'Show: Chart notebooks load slower than the charts',
      body: 'Chart notebooks load slower than the charts\nThe notebook runtime, not the plotting library, is where most of the wait comes from.\nFormat: chart\nAudience: data folks who share notebooks publicly\nEvidence: none',
    });
    await l.ok(l.t.reply(l.editor, outsideId, 'Pick: yes'));
    l.t.clock.advance(61_000);
    const r = await l.t.show();
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toContain('max-age=60');
    expect(r.headers.get('access-control-allow-origin')).toBe('*');
    expect(r.json.items.map((i: { id: string }) => i.id)).toEqual([l.id]);
    expect(r.json.outside).toEqual([expect.objectContaining({ id: outsideId, outside: true, picks: 1, flags: 0, status: 'picked', x: null })]);
    expect(r.json.content_is_untrusted).toBe(true);
    l.t.clock.advance(7 * 86_400_000);
    const later = await l.t.doc();
    expect([later.items.length, later.outside.length]).toEqual([0, 0]);
  });

  test('a failed read is 503 SHOW_UNAVAILABLE', async () => {
    const l = await lane();
    l.t.db.exec('DROP TABLE show_metrics');
    l.t.clock.advance(61_000);
    const r = await l.t.show();
    expect(r.status).toBe(503);
    expect(r.json.error.code).toBe('SHOW_UNAVAILABLE');
  });
});
