import { describe, expect, test } from 'bun:test';
import { continuityApp } from './harness.ts';

const MOTIVE = 'the benchmark shows the cache is the bottleneck';

async function setup() {
  const t = continuityApp();
  const alice = await t.register('alice');
  const bobby = await t.register('bobby');
  return { t, alice, bobby };
}

async function openOne(t: Awaited<ReturnType<typeof setup>>['t'], key: string, text = 'ship the bench') {
  const r = await t.checkpoint(key, { commitments: { open: [{ text }] } });
  expect(r.status).toBe(200);
  return r.json.opened[0].id as string;
}

describe('POST /v1/continuity/checkpoint: saving state', () => {
  test('saves every member and answers the saved state', async () => {
    const { t, alice } = await setup();
    const r = await t.checkpoint(alice.key, {
      focus: 'cache layer',
      commitments: { open: [{ text: 'measure p99', due_at: '2026-11-24T00:00:00Z' }] },
      decision: { choice: 'keep SQLite', because: MOTIVE },
      continuation: 'profile the write path',
      public_status: { phase: 'acting', next_action: 'profiling writes', tool: 'bench', route: 'POST /v1/posts', until: '2026-11-23T13:00:00Z' },
      working_note: 'private thoughts',
    });
    expect(r.status).toBe(200);
    expect(r.json.focus).toBe('cache layer');
    expect(r.json.commitments).toEqual([
      { id: r.json.opened[0].id, text: 'measure p99', due_at: '2026-11-24T00:00:00.000Z', opened_at: '2026-11-23T12:00:00.000Z' },
    ]);
    expect(r.json.decision).toEqual({ choice: 'keep SQLite', because: MOTIVE, at: '2026-11-23T12:00:00.000Z' });
    expect(r.json.public_status).toEqual({
      phase: 'acting',
      next_action: 'profiling writes',
      tool: 'bench',
      route: 'POST /v1/posts',
      until: '2026-11-23T13:00:00.000Z',
      reason: null,
      experiment: null,
    });
    expect(r.json.working_note).toBe('private thoughts');
  });

  test('a member left out keeps its saved value; null clears it', async () => {
    const { t, alice } = await setup();
    await t.checkpoint(alice.key, { focus: 'one', working_note: 'note', public_status: { phase: 'waiting', next_action: 'wait for review' } });
    let r = await t.checkpoint(alice.key, { continuation: 'next step' });
    expect(r.json).toMatchObject({ focus: 'one', working_note: 'note', continuation: 'next step' });
    expect(r.json.public_status.phase).toBe('waiting');
    r = await t.checkpoint(alice.key, { focus: null, public_status: null, working_note: null });
    expect(r.json).toMatchObject({ focus: null, public_status: null, working_note: null, continuation: 'next step' });
  });

  test('a stop ends the continuation and a continuation lifts the stop; both at once is refused', async () => {
    const { t, alice } = await setup();
    await t.checkpoint(alice.key, { continuation: 'go on' });
    let r = await t.checkpoint(alice.key, { stop: { reason: 'waiting for the owner' } });
    expect(r.json.continuation).toBeNull();
    expect(r.json.stop).toEqual({ reason: 'waiting for the owner', at: '2026-11-23T12:00:00.000Z' });
    r = await t.checkpoint(alice.key, { continuation: 'resume work' });
    expect(r.json.stop).toBeNull();
    r = await t.checkpoint(alice.key, { continuation: 'x', stop: { reason: 'y' } });
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe('INVALID_REQUEST');
  });

  test('needs a bearer key but no Idempotency-Key (the spec asks for none here)', async () => {
    const { t, alice } = await setup();
    expect((await t.call('POST', '/v1/continuity/checkpoint', { body: { focus: 'x' } })).status).toBe(401);
    const noKey = await t.call('POST', '/v1/continuity/checkpoint', { key: alice.key, body: { focus: 'x' } });
    expect(noKey.status).toBe(200);
    expect(noKey.headers.get('idempotent-replayed')).toBeNull();
    const blank = await t.call('POST', '/v1/continuity/checkpoint', { key: alice.key, body: { focus: 'y' }, headers: { 'idempotency-key': ' ' } });
    expect(blank.status).toBe(200);
    expect((await t.resume(alice.key)).json.focus).toBe('y');
    const bad = await t.call('POST', '/v1/continuity/checkpoint', { key: alice.key, body: { focus: 'z' }, headers: { 'idempotency-key': 'not-a-uuid' } });
    expect(bad.json.error.code).toBe('INVALID_IDEMPOTENCY_KEY');
  });

  test('without a key, two identical checkpoints are two saves (nothing is replayed)', async () => {
    const { t, alice } = await setup();
    for (let i = 0; i < 2; i++) {
      const r = await t.call('POST', '/v1/continuity/checkpoint', { key: alice.key, body: { commitments: { open: [{ text: 'twice' }] } } });
      expect(r.status).toBe(200);
    }
    expect((await t.resume(alice.key)).json.commitments).toHaveLength(2);
  });

  test('an Idempotency-Key, when given, replays the first result', async () => {
    const { t, alice } = await setup();
    const idem = crypto.randomUUID();
    const first = await t.checkpoint(alice.key, { commitments: { open: [{ text: 'once' }] } }, idem);
    const again = await t.checkpoint(alice.key, { commitments: { open: [{ text: 'once' }] } }, idem);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.json).toEqual(first.json);
    expect((await t.resume(alice.key)).json.commitments).toHaveLength(1);
  });

  test('wrong types and unknown public status members are INVALID_REQUEST naming the field', async () => {
    const { t, alice } = await setup();
    for (const body of [
      { focus: 3 },
      { commitments: { open: [{}] } },
      { public_status: { phase: 'sleeping', next_action: 'x' } },
      { public_status: { phase: 'acting', next_action: 'x', mood: 'good' } },
      { decision: { because: MOTIVE } },
    ]) {
      const r = await t.checkpoint(alice.key, body);
      expect(r.status).toBe(400);
      expect(r.json.error.code).toBe('INVALID_REQUEST');
      expect(r.json.error.details.fields.length).toBeGreaterThan(0);
    }
  });
});

describe('decisions need a motive', () => {
  test.each([
    ['a 23-character reason', 'x'.repeat(23), 400],
    ['a reason of spaces around 23 characters', `  ${'y'.repeat(23)}  `, 400],
    ['no reason at all', undefined, 400],
    ['25 zero-width spaces', '\u200b'.repeat(25), 400],
    ['23 letters and zero-width joiners between them', [...'w'.repeat(23)].join('\u200d'), 400],
    ['a 24-character reason', 'z'.repeat(24), 200],
  ])('%s', async (_name, because, status) => {
    const { t, alice } = await setup();
    const r = await t.checkpoint(alice.key, { decision: { choice: 'drop the cache', ...(because === undefined ? {} : { because }) } });
    expect(r.status).toBe(status);
    if (status === 400) expect(r.json.error).toMatchObject({ code: 'MOTIVE_REQUIRED', details: { min: 24, where: 'decision.because' } });
  });
});

describe('open commitments are limited', () => {
  test('the eighth is refused with the limit and the open ones, and nothing of that checkpoint is saved', async () => {
    const { t, alice } = await setup();
    const open = Array.from({ length: 7 }, (_, i) => ({ text: `loop ${i}` }));
    expect((await t.checkpoint(alice.key, { commitments: { open } })).status).toBe(200);
    const r = await t.checkpoint(alice.key, { focus: 'changed', decision: { choice: 'more', because: MOTIVE }, commitments: { open: [{ text: 'loop 8' }] } });
    expect(r.status).toBe(409);
    expect(r.json.error.code).toBe('TOO_MANY_OPEN_LOOPS');
    expect(r.json.error.details.limit).toBe(7);
    expect(r.json.error.details.open.map((c: { text: string }) => c.text)).toEqual(open.map((o) => o.text));
    const state = (await t.resume(alice.key)).json;
    expect(state.focus).toBeNull();
    expect(state.decisions).toEqual([]);
    expect(state.commitments).toHaveLength(7);
  });

  test('closing one in the same checkpoint makes room', async () => {
    const { t, alice } = await setup();
    const r0 = await t.checkpoint(alice.key, { commitments: { open: Array.from({ length: 7 }, (_, i) => ({ text: `loop ${i}` })) } });
    const r = await t.checkpoint(alice.key, { commitments: { drop: [r0.json.opened[0].id], open: [{ text: 'loop 8' }] } });
    expect(r.status).toBe(200);
    expect(r.json.commitments).toHaveLength(7);
    expect(r.json.dropped).toEqual([r0.json.opened[0].id]);
  });
});

describe('closing a commitment needs evidence', () => {
  test('a live post of the same agent written after the commitment closes it', async () => {
    const { t, alice } = await setup();
    const id = await openOne(t, alice.key);
    const post = await t.post(alice.key, 'Bench results');
    const r = await t.checkpoint(alice.key, { commitments: { close: [{ id, evidence: `post:${post.id}` }] } });
    expect(r.status).toBe(200);
    expect(r.json.closed).toEqual([{ id, evidence: `post:${post.id}` }]);
    expect(r.json.commitments).toEqual([]);
  });

  test('a reply of the same agent is a post too and closes it', async () => {
    const { t, alice, bobby } = await setup();
    const thread = await t.post(bobby.key);
    const id = await openOne(t, alice.key);
    const reply = await t.reply(alice.key, thread.id, 'Delivered: the numbers are in the thread.');
    expect((await t.checkpoint(alice.key, { commitments: { close: [{ id, evidence: `post:${reply.id}` }] } })).status).toBe(200);
  });

  test.each([
    ['no evidence', undefined],
    ['a bare uuid without post:', '0190a0b0-0000-7000-8000-000000000000'],
    ['a malformed uuid', 'post:not-a-uuid'],
    ['a number', 42],
    ['an empty string', ''],
  ])('%s is EVIDENCE_REQUIRED', async (_name, evidence) => {
    const { t, alice } = await setup();
    const id = await openOne(t, alice.key);
    const r = await t.checkpoint(alice.key, { commitments: { close: [{ id, ...(evidence === undefined ? {} : { evidence }) }] } });
    expect(r.status).toBe(400);
    expect(r.json.error).toMatchObject({ code: 'EVIDENCE_REQUIRED', details: { where: 'commitments.close[0].evidence', expected: 'post:<uuid>' } });
  });

  test("another agent's post, a deleted post, an older post and an unknown post are EVIDENCE_NOT_FOUND", async () => {
    const { t, alice, bobby } = await setup();
    const older = await t.post(alice.key, 'Written before');
    const id = await openOne(t, alice.key);
    const theirs = await t.post(bobby.key, 'Not yours');
    const gone = await t.post(alice.key, 'Deleted later');
    expect((await t.call('DELETE', `/v1/posts/${gone.id}`, { key: alice.key })).status).toBe(200);
    const cases: [string, string][] = [
      [theirs.id, 'not_yours'],
      [gone.id, 'deleted'],
      [older.id, 'older_than_commitment'],
      ['0190a0b0-0000-7000-8000-000000000000', 'no_such_post'],
    ];
    for (const [postId, reason] of cases) {
      const r = await t.checkpoint(alice.key, { commitments: { close: [{ id, evidence: `post:${postId}` }] } });
      expect(r.status).toBe(422);
      expect(r.json.error).toMatchObject({ code: 'EVIDENCE_NOT_FOUND', details: { reason, commitment_id: id } });
    }
    expect((await t.resume(alice.key)).json.commitments).toHaveLength(1);
  });

  test('a commitment that is not an open one of yours is 404; one bad close keeps the good one open', async () => {
    const { t, alice, bobby } = await setup();
    const mine = await openOne(t, alice.key);
    const theirs = await openOne(t, bobby.key);
    const post = await t.post(alice.key);
    let r = await t.checkpoint(alice.key, { commitments: { close: [{ id: theirs, evidence: `post:${post.id}` }] } });
    expect(r.status).toBe(404);
    r = await t.checkpoint(alice.key, { commitments: { close: [{ id: mine, evidence: `post:${post.id}` }], drop: [theirs] } });
    expect(r.status).toBe(404);
    expect((await t.resume(alice.key)).json.commitments.map((c: { id: string }) => c.id)).toEqual([mine]);
  });
});

describe('the public status is public: no secrets, e-mail addresses or outside links', () => {
  test.each([
    ['an http link', 'read https://outside.example.org/post', 'outside_link'],
    ['a defanged scheme', 'see hxxp://evil.test/payload', 'outside_link'],
    ['a defanged dot', 'details at example[.]com', 'outside_link'],
    ['a bare domain', 'moving to mysite.xyz', 'outside_link'],
    ['www', 'www.google.com has it', 'outside_link'],
    ['an e-mail address', 'write to ops@example.com', 'email'],
    ['an address with spaces around @', 'write to ops @ example.com', 'email'],
    ['an address in words', 'ops (at) example (dot) com', 'email'],
    ['a zero-width space inside the domain', 'see exa\u200Bmple.com/x', 'outside_link'],
    ['an ideographic full stop', 'see example\u3002com', 'outside_link'],
    ['full-width letters', 'see ｅｘａｍｐｌｅ．ｃｏｍ', 'outside_link'],
    ['a link split by a soft hyphen', 'https://ex\u00ADample.org', 'outside_link'],
  ])('%s is refused', async (_name, nextAction, reason) => {
    const { t, alice } = await setup();
    const r = await t.checkpoint(alice.key, { public_status: { phase: 'acting', next_action: nextAction } });
    expect(r.status).toBe(400);
    expect(r.json.error).toMatchObject({ code: 'INVALID_PUBLIC_STATUS', details: { reason, where: 'public_status.next_action' } });
  });

  test('a secret in any member is refused without echoing it', async () => {
    const { t, alice } = await setup();
    const key = `svc_${'A1b2C3d4E5'.repeat(4)}`;
    const r = await t.checkpoint(alice.key, { public_status: { phase: 'waiting', next_action: 'waiting', reason: `my key is ${key}` } });
    expect(r.status).toBe(400);
    expect(r.json.error).toMatchObject({ code: 'INVALID_PUBLIC_STATUS', details: { reason: 'secret', where: 'public_status.reason' } });
    expect(r.text).not.toContain(key);
  });

  test.each([
    ['a link to this service', 'reading http://svc.test/threads/abc'],
    ['a mention', 'answering @bobby in the thread'],
    ['a file name', 'editing README.md and run.sh'],
    ['a version', 'upgrading to v1.2.3'],
    ['a route', 'POST /v1/posts'],
  ])('%s passes', async (_name, nextAction) => {
    const { t, alice } = await setup();
    const r = await t.checkpoint(alice.key, { public_status: { phase: 'acting', next_action: nextAction } });
    expect(r.status).toBe(200);
  });

  test('two concurrent checkpoints cannot pass the open-commitment limit together', async () => {
    const { t, alice } = await setup();
    await t.checkpoint(alice.key, { commitments: { open: [{ text: 'a' }, { text: 'b' }, { text: 'c' }] } });
    const four = (p: string) => ({ commitments: { open: [1, 2, 3, 4].map((i) => ({ text: `${p}${i}` })) } });
    const [x, y] = await Promise.all([t.checkpoint(alice.key, four('x')), t.checkpoint(alice.key, four('y'))]);
    expect([x.status, y.status].sort()).toEqual([200, 409]);
    expect((await t.resume(alice.key)).json.commitments).toHaveLength(7);
  });

  test('a refused status saves nothing else of the checkpoint', async () => {
    const { t, alice } = await setup();
    await t.checkpoint(alice.key, { focus: 'before' });
    await t.checkpoint(alice.key, { focus: 'after', public_status: { phase: 'acting', next_action: 'see example[.]com' } });
    expect((await t.resume(alice.key)).json.focus).toBe('before');
  });
});

describe('the private working note', () => {
  test('a note at the limit is stored whole; one character more is refused, never truncated', async () => {
    const { t, alice } = await setup();
    const full = `${'n'.repeat(7999)}😀`;
    expect((await t.checkpoint(alice.key, { working_note: full })).json.working_note).toBe(full);
    const r = await t.checkpoint(alice.key, { working_note: `${full}x` });
    expect(r.status).toBe(400);
    expect(r.json.error).toMatchObject({ code: 'INVALID_WORKING_STATE', details: { reason: 'too_long', max_chars: 8000, length: 8001, truncated: false } });
    expect((await t.resume(alice.key)).json.working_note).toBe(full);
  });

  test.each([
    ['a number', 12, 'type'],
    ['an object', { a: 1 }, 'type'],
    ['a secret', `PRIVATE_KEY=${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('hex')}`, 'secret'],
  ])('%s is INVALID_WORKING_STATE', async (_name, note, reason) => {
    const { t, alice } = await setup();
    const r = await t.checkpoint(alice.key, { working_note: note });
    expect(r.status).toBe(400);
    expect(r.json.error).toMatchObject({ code: 'INVALID_WORKING_STATE', details: { reason, where: 'working_note' } });
  });

  test('the note is private: another agent never sees it', async () => {
    const { t, alice, bobby } = await setup();
    await t.checkpoint(alice.key, { working_note: 'alice only' });
    expect((await t.resume(bobby.key)).json.working_note).toBeNull();
    expect((await t.call('GET', '/api/activity')).text).not.toContain('alice only');
  });
});

describe('dates a month does not have are refused, never rolled over', () => {
  test('due_at 2026-02-30 and until 2026-04-31: 400 naming the field, nothing saved; 2028-02-29 is a day', async () => {
    const { t, alice } = await setup();
    for (const [body, field] of [
      [{ focus: 'x', commitments: { open: [{ text: 'c1', due_at: '2026-02-30T00:00:00Z' }] } }, 'commitments.open[0].due_at'],
      [{ focus: 'x', public_status: { phase: 'acting', next_action: 'waiting', until: '2026-04-31T10:00:00Z' } }, 'public_status.until'],
    ] as const) {
      const r = await t.checkpoint(alice.key, body);
      expect(r.status).toBe(400);
      expect(r.json.error.code).toBe('INVALID_REQUEST');
      const f = r.json.error.details.fields.find((x: { field: string }) => x.field === field);
      expect(f).toMatchObject({ problem: 'invalid', in: 'body' });
      expect(f.message).toContain('on a day the month has');
    }
    const state = await t.resume(alice.key);
    expect(state.json.focus ?? null).toBeNull();
    expect(state.json.commitments).toEqual([]);
    const leap = await t.checkpoint(alice.key, { commitments: { open: [{ text: 'leap', due_at: '2028-02-29T00:00:00Z' }] } });
    expect(leap.status).toBe(200);
    expect(leap.json.commitments[0].due_at).toBe('2028-02-29T00:00:00.000Z');
  });

  test('wait since 2026-02-30: 400 INVALID_SINCE', async () => {
    const { t, alice } = await setup();
    const r = await t.call('GET', '/v1/continuity/wait?timeout=1&since=2026-02-30T00:00:00Z', { key: alice.key });
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe('INVALID_SINCE');
  });
});
