// POST /v1/pubs/posts: the envelope, its key in the body, the admission checks and the replay.
import { describe, expect, test } from 'bun:test';
import { envelope, pubsApp, SVG } from './harness.ts';

describe('POST /v1/pubs/posts accepts an article', () => {
  test('answers 202 with every member of an accepted submission', async () => {
    const { submit } = await pubsApp();
    const r = await submit(
      envelope({
        blocks: [
          { type: 'paragraph', text: 'hello' },
          { type: 'svg', source: SVG, description: 'A bar', runtime: 'static' },
        ],
      }),
    );
    expect(r.status).toBe(202);
    expect(r.json).toMatchObject({
      revision_status: 'awaiting_votes',
      website_status: 'not_listed',
      checks: { content: 'not_checked', format: 'passed', language: 'passed', runtime_safety: 'passed', performance: 'passed' },
      public_url: null,
      visible_on_website: false,
      review: { qualifying_votes: 0, quorum: 1, rule: 'grace' },
    });
    expect(r.json.content_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  test('the content hash ignores the key and member order, and follows the content', async () => {
    const { submit } = await pubsApp();
    const a = await submit(envelope());
    const b = await submit(Object.fromEntries(Object.entries(envelope()).reverse()));
    const c = await submit(envelope({ title: 'What we measured!' }));
    expect(b.json.content_hash).toBe(a.json.content_hash);
    expect(c.json.content_hash).not.toBe(a.json.content_hash);
  });
});

describe('the envelope is checked member by member', () => {
  const cases: [string, Record<string, unknown>, number, string, string?][] = [
    ['schema_version 2', { schema_version: 2 }, 400, 'PUBS_SCHEMA_VERSION'],
    ['language fr', { language: 'fr' }, 400, 'PUBS_INVALID_ENVELOPE', 'language'],
    ['another intent', { publication_intent: 'archive' }, 400, 'PUBS_INVALID_ENVELOPE', 'publication_intent'],
    ['an unknown top member', { extra: 1 }, 400, 'PUBS_INVALID_ENVELOPE', 'extra'],
    ['heading level 7', { blocks: [{ type: 'heading', level: 7, text: 'x' }] }, 400, 'PUBS_INVALID_ENVELOPE', 'blocks[0].level'],
    [
      'heading level 2.5',
      {
        blocks: [
          { type: 'paragraph', text: 'a' },
          { type: 'heading', level: 2.5, text: 'x' },
        ],
      },
      400,
      'PUBS_INVALID_ENVELOPE',
      'blocks[1].level',
    ],
    ['an unknown block type', { blocks: [{ type: 'video', src: 'x' }] }, 400, 'PUBS_INVALID_ENVELOPE', 'blocks[0].type'],
    ['an unknown block member', { blocks: [{ type: 'paragraph', text: 'a', level: 1 }] }, 400, 'PUBS_INVALID_ENVELOPE', 'blocks[0].level'],
    ['a list item that is no string', { blocks: [{ type: 'list', items: ['a', 3] }] }, 400, 'PUBS_INVALID_ENVELOPE', 'blocks[0].items[1]'],
    ['svg runtime script', { blocks: [{ type: 'svg', source: SVG, description: 'd', runtime: 'script' }] }, 400, 'PUBS_INVALID_ENVELOPE', 'blocks[0].runtime'],
    ['svg without description', { blocks: [{ type: 'svg', source: SVG, runtime: 'static' }] }, 400, 'PUBS_INVALID_ENVELOPE', 'blocks[0].description'],
    ['no blocks', { blocks: [] }, 400, 'PUBS_INVALID_ENVELOPE', 'blocks'],
    ['101 blocks', { blocks: Array.from({ length: 101 }, () => ({ type: 'paragraph', text: 'p' })) }, 413, 'PUBS_TOO_LARGE'],
  ];
  for (const [name, over, status, code, where] of cases) {
    test(`${name} → ${status} ${code}`, async () => {
      const { submit } = await pubsApp();
      const r = await submit(envelope(over));
      expect(r.status).toBe(status);
      expect(r.json.error.code).toBe(code);
      if (where) expect(r.json.error.details.where).toBe(where);
    });
  }

  test('near misses pass: 100 blocks, level 6, a list with ordered, code with a language', async () => {
    const { submit } = await pubsApp();
    const blocks = [
      { type: 'heading', level: 6, text: 'x' },
      { type: 'list', items: ['a'], ordered: true },
      { type: 'code', text: 'let x = 1', language: 'typescript' },
      { type: 'quote', text: 'q' },
      ...Array.from({ length: 96 }, () => ({ type: 'paragraph', text: 'p' })),
    ];
    expect((await submit(envelope({ blocks }))).status).toBe(202);
  });
});

describe('the key is in the body', () => {
  test('a header alone does not supply it', async () => {
    const { t, author } = await pubsApp();
    const { idempotency_key: _, ...body } = envelope();
    const r = await t.call('POST', '/v1/pubs/posts', { key: author.key, body, headers: { 'idempotency-key': crypto.randomUUID() } });
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe('PUBS_KEY_REQUIRED');
    expect(r.json.error.message).toContain('idempotency_key');
    expect(r.json.docs).toEndWith('#PUBS_KEY_REQUIRED');
  });

  test('request_key is an alias; both sent and different is 400; both equal passes', async () => {
    const { submit } = await pubsApp();
    const { idempotency_key: _, ...rest } = envelope();
    expect((await submit({ ...rest, request_key: crypto.randomUUID() })).status).toBe(202);
    const k = crypto.randomUUID();
    expect((await submit({ ...rest, request_key: k, idempotency_key: k.toUpperCase() })).status).toBe(202);
    const r = await submit({ ...rest, request_key: crypto.randomUUID(), idempotency_key: crypto.randomUUID() });
    expect(r.json.error.code).toBe('PUBS_KEY_MISMATCH');
  });

  test('the key is a string (any printable one, uuid or not); a number, a blank or an over-long one is refused', async () => {
    const { submit } = await pubsApp();
    expect((await submit(envelope({ idempotency_key: 'abc' }))).status).toBe(202);
    for (const key of [7, ' ', 'x'.repeat(201), 'a\u0007b'])
      expect((await submit(envelope({ idempotency_key: key }))).json.error.code).toBe('INVALID_IDEMPOTENCY_KEY');
    expect((await submit(envelope({ idempotency_key: 'x'.repeat(200) }))).status).toBe(202);
  });

  test('the same key and content replays the 202; one changed character is 409', async () => {
    const { submit, t } = await pubsApp();
    const body = envelope();
    const first = await submit(body);
    const again = await submit(body);
    expect(again.status).toBe(202);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.json).toEqual(first.json);
    const changed = await submit({ ...body, title: 'What we measureD' });
    expect(changed.status).toBe(409);
    expect(changed.json.error.code).toBe('IDEMPOTENCY_CONFLICT');
    expect(t.db.query('SELECT count(*) AS n FROM pubs_revisions').get()).toEqual({ n: 1 });
  });

  test('20 concurrent submissions with one key store one article', async () => {
    const { submit, t } = await pubsApp();
    const body = envelope({ blocks: [{ type: 'svg', source: SVG, description: 'A bar', runtime: 'static' }] });
    const all = await Promise.all(Array.from({ length: 20 }, () => submit(body)));
    expect(all.every((r) => r.status === 202)).toBe(true);
    expect(new Set(all.map((r) => r.json.item_id)).size).toBe(1);
    expect(t.db.query('SELECT count(*) AS n FROM pubs_items').get()).toEqual({ n: 1 });
  });

  test('the lost-write lookup finds the submission by its key, and not another key', async () => {
    const { submit, t, author } = await pubsApp();
    const body = envelope();
    const r = await submit(body);
    const found = await t.call('GET', '/v1/me/publications/lookup', { key: author.key, headers: { 'idempotency-key': body.idempotency_key } });
    expect(found.json).toMatchObject({ found: true, id: r.json.revision_id, thread_id: r.json.item_id });
    const missing = await t.call('GET', '/v1/me/publications/lookup', { key: author.key, headers: { 'idempotency-key': crypto.randomUUID() } });
    expect(missing.json.found).toBe(false);
  });
});

describe('admission checks store nothing when they refuse', () => {
  const cases: [string, Record<string, unknown>, string, string][] = [
    [
      'a secret in a paragraph',
      {
        blocks: [
          { type: 'paragraph', text: 'ok' },
          { type: 'paragraph', text: 'key: sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcd' },
        ],
      },
      'SECRET_LIKE',
      'blocks[1].text',
    ],
    ['price talk in a list item', { blocks: [{ type: 'list', items: ['fine', 'buy $BONK now before it pumps'] }] }, 'PRICE_TALK', 'blocks[0].items[1]'],
    [
      'a secret in a paragraph beside a clean svg (the text rules and the image checks run side by side)',
      {
        blocks: [
          { type: 'svg', source: '<svg xmlns="http://www.w3.org/2000/svg"><rect width="5" height="5"/></svg>', description: 'x', runtime: 'static' },
          { type: 'paragraph', text: 'key: sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcd' },
        ],
      },
      'SECRET_LIKE',
      'blocks[1].text',
    ],
    [
      'price talk drawn inside an svg',
      {
        blocks: [
          {
            type: 'svg',
            source: '<svg xmlns="http://www.w3.org/2000/svg"><text>buy $BONK now before it pumps</text></svg>',
            description: 'x',
            runtime: 'static',
          },
        ],
      },
      'PRICE_TALK',
      'blocks[0].source',
    ],
  ];
  for (const [name, over, code, where] of cases) {
    test(`${name} → ${code} at ${where}`, async () => {
      const { submit, t } = await pubsApp();
      const r = await submit(envelope(over));
      expect(r.json.error.code).toBe(code);
      expect(r.json.error.details.where).toBe(where);
      expect(t.db.query('SELECT count(*) AS n FROM pubs_items').get()).toEqual({ n: 0 });
    });
  }

  test('a svg source over the byte limit is 413 naming the block', async () => {
    const { submit } = await pubsApp({ SVC_PUBS_SVG_MAX_BYTES: '1024' });
    const big = `<svg xmlns="http://www.w3.org/2000/svg">${'<rect width="1" height="1"/>'.repeat(40)}</svg>`;
    const r = await submit(
      envelope({
        blocks: [
          { type: 'paragraph', text: 'p' },
          { type: 'svg', source: big, description: 'd', runtime: 'static' },
        ],
      }),
    );
    expect(r.status).toBe(413);
    expect(r.json.error.details).toMatchObject({ limit: 'svg_source_bytes', where: 'blocks[1].source' });
  });

  test('the daily submission allowance refuses the sixth', async () => {
    const { submit } = await pubsApp();
    for (let i = 0; i < 5; i++) expect((await submit(envelope())).status).toBe(202);
    const r = await submit(envelope());
    expect(r.status).toBe(429);
    expect(r.json.error.code).toBe('PUBS_SUBMISSION_QUOTA');
  });
});

describe('the request budget follows the article limits', () => {
  test('an article at every limit, written with the longest JSON escapes, is read (over 1 MB serialized), not refused as too large', async () => {
    const { t, author } = await pubsApp();
    const rects = (n: number) => Array.from({ length: n }, (_, i) => `<rect x="${i % 97}" y="${i % 89}" width="1" height="1"/>`).join('');
    let source = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">${rects(1)}</svg>`;
    for (let n = 1; source.length < 64 * 1024 - 64; n++) source = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">${rects(n * 40)}</svg>`;
    while (source.length > 64 * 1024) source = source.replace(/<rect[^>]*\/>(?=<\/svg>)/, '');
    const body = envelope({
      blocks: [
        { type: 'paragraph', text: 'EMOJI_TEXT' },
        ...Array.from({ length: 8 }, (_, i) => ({ type: 'svg', source, description: `Grid ${i}`, runtime: 'static' })),
      ],
    });
    // 39,000 emoji, each written as two \uXXXX escapes (12 bytes a character).
    const raw = JSON.stringify(body).replace('EMOJI_TEXT', '\\ud83d\\ude00'.repeat(39_000));
    expect(raw.length).toBeGreaterThan(1024 * 1024);
    const r = await t.call('POST', '/v1/pubs/posts', { key: author.key, raw });
    expect(r.status).toBe(202);
    const caps = await t.call('GET', '/v1/pubs/capabilities', { key: author.key });
    expect(caps.json.limits.request_bytes).toBeGreaterThanOrEqual(raw.length);
  });
});
