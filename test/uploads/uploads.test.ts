// Upload sessions: parts strictly in sequence, the commit's byte and hash checks, and the ordinary
// submission of each kind behind it (no bypass).
import { describe, expect, test } from 'bun:test';
import { articleEnvelope, commentEnvelope, commentsApp } from '../comments/harness.ts';

const sha256 = (b: Uint8Array) => new Bun.CryptoHasher('sha256').update(b).digest('hex');

async function setup(env: Record<string, string> = {}) {
  const h = await commentsApp(env);
  const start = (bytes: Uint8Array, metadata: Record<string, unknown> = { kind: 'post' }, key = h.author.key) =>
    h.t.call('POST', '/v1/pubs/uploads', { key, body: { expected_hash: sha256(bytes), expected_bytes: bytes.byteLength, metadata } });
  const part = (id: string, part_number: number, data: Uint8Array, key = h.author.key) =>
    h.t.call('POST', `/v1/pubs/uploads/${id}/parts`, { key, body: { part_number, data: Buffer.from(data).toString('base64') } });
  const commit = (id: string, key = h.author.key) => h.t.call('POST', `/v1/pubs/uploads/${id}/commit`, { key, body: {} });
  /** Sends bytes in parts of `size`, in order. */
  const sendAll = async (id: string, bytes: Uint8Array, size: number) => {
    for (let at = 0, n = 1; at < bytes.byteLength; at += size, n++) {
      const r = await part(id, n, bytes.subarray(at, at + size));
      if (r.status !== 200) throw new Error(`part ${n}: ${r.status} ${r.text}`);
    }
  };
  return { h, start, part, commit, sendAll };
}

const bigArticle = () => {
  // About 38 KB of text: more than fits comfortably in one ordinary request's budget with room to spare.
  const blocks = Array.from({ length: 38 }, (_, i) => ({ type: 'paragraph', text: `Paragraph ${i}: ${'measured and written down. '.repeat(38)}` }));
  return new TextEncoder().encode(JSON.stringify(articleEnvelope({ blocks })));
};

describe('an upload of each kind runs the ordinary submission', () => {
  test('an article in parts: 202 from the commit, then a repeated commit replays it', async () => {
    const { h, start, commit, sendAll } = await setup();
    const bytes = bigArticle();
    const s = await start(bytes);
    expect(s.status).toBe(201);
    expect(s.json.parts_url).toBe(`http://svc.test/v1/pubs/uploads/${s.json.upload_id}/parts`);
    await sendAll(s.json.upload_id, bytes, 16 * 1024);
    const c = await commit(s.json.upload_id);
    expect(c.status).toBe(202);
    expect(c.json.revision_status).toBe('awaiting_votes');
    const again = await commit(s.json.upload_id);
    expect([again.status, again.json.item_id]).toEqual([202, c.json.item_id]);
    const list = await h.t.call('GET', '/v1/pubs/posts', { key: h.author.key });
    expect(list.json.items.filter((i: { id: string }) => i.id === c.json.item_id).length).toBe(1);
  });

  test('a revision and a comment', async () => {
    const { h, start, commit, sendAll } = await setup();
    const rev = new TextEncoder().encode(JSON.stringify(articleEnvelope({ title: 'Second look' })));
    const r = await start(rev, { kind: 'revision', itemId: h.article.postId });
    await sendAll(r.json.upload_id, rev, 100);
    const rc = await commit(r.json.upload_id);
    expect([rc.status, rc.json.item_id, rc.json.revision_number]).toEqual([202, h.article.postId, 2]);

    const com = new TextEncoder().encode(JSON.stringify(commentEnvelope(h.article.revisionId)));
    const c = await start(com, { kind: 'comment', postId: h.article.postId }, h.other.key);
    await (async () => {
      const p = await h.t.call('POST', `/v1/pubs/uploads/${c.json.upload_id}/parts`, {
        key: h.other.key,
        body: { part_number: 1, data: Buffer.from(com).toString('base64') },
      });
      expect(p.status).toBe(200);
    })();
    const cc = await h.t.call('POST', `/v1/pubs/uploads/${c.json.upload_id}/commit`, { key: h.other.key, body: {} });
    expect([cc.status, cc.json.comment.author.name]).toEqual([201, 'other']);
  });

  test('no bypass: the envelope’s own checks and the content rules still refuse it, and nothing is stored', async () => {
    const { h, start, part, commit } = await setup();
    for (const [env, code] of [
      [articleEnvelope({ language: 'fr' }), 'PUBS_INVALID_ENVELOPE'],
      [articleEnvelope({ blocks: [{ type: 'paragraph', text: 'key: sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcd' }] }), 'SECRET_LIKE'],
      [{ ...articleEnvelope(), idempotency_key: undefined }, 'PUBS_KEY_REQUIRED'],
    ] as const) {
      const bytes = new TextEncoder().encode(JSON.stringify(env));
      const s = await start(bytes);
      await part(s.json.upload_id, 1, bytes);
      const c = await commit(s.json.upload_id);
      expect(c.json.error.code).toBe(code);
    }
    const list = await h.t.call('GET', '/v1/pubs/posts', { key: h.author.key });
    expect(list.json.items.length).toBe(1);
  });

  test('the daily submission allowance counts uploads too', async () => {
    const { start, part, commit } = await setup({ SVC_PUBS_SUBMISSIONS_PER_DAY: '1' });
    const bytes = new TextEncoder().encode(JSON.stringify(articleEnvelope()));
    const s = await start(bytes);
    await part(s.json.upload_id, 1, bytes);
    expect((await commit(s.json.upload_id)).json.error.code).toBe('PUBS_SUBMISSION_QUOTA');
  });
});

describe('parts and commits that are refused', () => {
  test('a part replayed, skipped, oversized, beyond expected_bytes, or after the commit', async () => {
    const { h, start, part, commit } = await setup({ SVC_PUBS_UPLOAD_PART_MAX_BYTES: '1024' });
    const bytes = new TextEncoder().encode(JSON.stringify(articleEnvelope({ blocks: [{ type: 'paragraph', text: 'x'.repeat(1500) }] })));
    const s = await start(bytes);
    const id = s.json.upload_id;
    const skipped = await part(id, 2, bytes.subarray(0, 1000));
    expect([skipped.status, skipped.json.error.code, skipped.json.error.details.expected_part]).toEqual([409, 'UPLOAD_PART_OUT_OF_ORDER', 1]);
    const oversized = await part(id, 1, bytes.subarray(0, 1025));
    expect([oversized.status, oversized.json.error.code]).toEqual([413, 'UPLOAD_PART_TOO_LARGE']);
    expect((await part(id, 1, bytes.subarray(0, 1000))).status).toBe(200);
    const replayed = await part(id, 1, bytes.subarray(0, 1000));
    expect([replayed.status, replayed.json.error.code, replayed.json.error.details]).toEqual([
      409,
      'UPLOAD_PART_REPLAYED',
      { part_number: 1, expected_part: 2, same_data: true },
    ]);
    const early = await commit(id);
    expect([early.status, early.json.error.code]).toEqual([409, 'UPLOAD_INCOMPLETE']);
    const beyond = await part(id, 2, new Uint8Array(bytes.byteLength - 1000 + 1));
    expect([beyond.status, beyond.json.error.code]).toEqual([413, 'UPLOAD_BYTES_EXCEEDED']);
    expect((await part(id, 2, bytes.subarray(1000))).status).toBe(200);
    expect((await commit(id)).status).toBe(202);
    const after = await part(id, 3, new Uint8Array([1]));
    expect([after.status, after.json.error.code]).toEqual([409, 'UPLOAD_COMMITTED']);
    expect(h).toBeTruthy();
  });

  test('a full 64 KB part (about 88 KB of base64) fits its request; one byte more is refused by the part limit', async () => {
    const { h, start, part } = await setup();
    const bytes = new Uint8Array(64 * 1024 + 1).fill(0x20);
    const s = await start(bytes);
    expect(s.status).toBe(201);
    const id = s.json.upload_id;
    const full = await part(id, 1, bytes.subarray(0, 64 * 1024));
    expect(full.status).toBe(200);
    const over = await part(id, 2, new Uint8Array(64 * 1024 + 1));
    expect([over.status, over.json.error.code]).toEqual([413, 'UPLOAD_PART_TOO_LARGE']);
    expect(h.t.config.pubs.uploadPartMaxBytes).toBe(64 * 1024);
  });

  test('a wrong hash submits nothing', async () => {
    const { h, part, commit } = await setup();
    const bytes = new TextEncoder().encode(JSON.stringify(articleEnvelope()));
    const s = await h.t.call('POST', '/v1/pubs/uploads', {
      key: h.author.key,
      body: { expected_hash: 'a'.repeat(64), expected_bytes: bytes.byteLength, metadata: { kind: 'post' } },
    });
    await part(s.json.upload_id, 1, bytes);
    const c = await commit(s.json.upload_id);
    expect([c.status, c.json.error.code]).toEqual([422, 'UPLOAD_HASH_MISMATCH']);
    expect((await h.t.call('GET', '/v1/pubs/posts', { key: h.author.key })).json.items.length).toBe(1);
  });

  test('another agent’s session, an expired one, and bad data', async () => {
    const { h, start, part, commit } = await setup();
    const bytes = new TextEncoder().encode(JSON.stringify(articleEnvelope()));
    const s = await start(bytes);
    const theirs = await part(s.json.upload_id, 1, bytes, h.other.key);
    expect([theirs.status, theirs.json.error.code]).toEqual([403, 'UPLOAD_NOT_YOURS']);
    expect((await commit(s.json.upload_id, h.other.key)).json.error.code).toBe('UPLOAD_NOT_YOURS');
    const bad = await h.t.call('POST', `/v1/pubs/uploads/${s.json.upload_id}/parts`, { key: h.author.key, body: { part_number: 1, data: 'not base64!' } });
    expect([bad.status, bad.json.error.code]).toEqual([400, 'UPLOAD_INVALID_DATA']);
    await part(s.json.upload_id, 1, bytes);
    h.t.clock.advance(15 * 60_000 + 1);
    const late = await commit(s.json.upload_id);
    expect([late.status, late.json.error.code]).toEqual([410, 'UPLOAD_EXPIRED']);
    expect((await h.t.call('POST', `/v1/pubs/uploads/${crypto.randomUUID()}/commit`, { key: h.author.key, body: {} })).json.error.code).toBe(
      'UPLOAD_NOT_FOUND',
    );
  });

  test('the start refuses sizes over the limit and kinds without their target', async () => {
    const { h } = await setup();
    const big = await h.t.call('POST', '/v1/pubs/uploads', {
      key: h.author.key,
      body: { expected_hash: 'a'.repeat(64), expected_bytes: 512 * 1024 + 1, metadata: { kind: 'post' } },
    });
    expect([big.status, big.json.error.code]).toEqual([413, 'UPLOAD_TOO_LARGE']);
    const noItem = await h.t.call('POST', '/v1/pubs/uploads', {
      key: h.author.key,
      body: { expected_hash: 'a'.repeat(64), expected_bytes: 10, metadata: { kind: 'revision' } },
    });
    expect([noItem.status, noItem.json.error.code]).toEqual([400, 'INVALID_REQUEST']);
    const badKind = await h.t.call('POST', '/v1/pubs/uploads', {
      key: h.author.key,
      body: { expected_hash: 'a'.repeat(64), expected_bytes: 10, metadata: { kind: 'video' } },
    });
    expect(badKind.json.error.code).toBe('INVALID_REQUEST');
  });

  test('bytes that are not a JSON object', async () => {
    const { start, part, commit } = await setup();
    const bytes = new TextEncoder().encode('[1,2,3]');
    const s = await start(bytes);
    await part(s.json.upload_id, 1, bytes);
    expect((await commit(s.json.upload_id)).json.error.code).toBe('UPLOAD_ENVELOPE_INVALID');
  });
});
