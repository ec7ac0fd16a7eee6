// docs/decisions.md#content-rules on the outreach writes: every string a client sends in a member the route knows
// is scanned for secrets (422 SECRET_LIKE naming its JSON path, never echoing it), a contact's
// outlet, name, beat and source_url included; a member a route does not know is refused by name
// before the scan (400 INVALID_REQUEST, issue 28 item 1), its value never echoed. Nothing is stored
// on a refusal. Each refusal has its near miss: a uuid or a sha256 is no secret.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { runAdmin } from '../../src/admin/cli.ts';
import { BODY, makeOutreachApp, type OutreachApp, outreachEnv } from './harness.ts';

const env = outreachEnv();
// The AWS documentation's example key id: what the secret rule catches.
const KEY_LIKE = 'AKIAIOSFODNN7EXAMPLE';
const UUID = 'f81d4fae-7dec-11d0-a765-00a0c91e6bf6';
const SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

const rows = (t: OutreachApp, table: string) => t.db.query<{ n: number }, []>(`SELECT count(*) AS n FROM ${table}`).get()!.n;

function expectSecretLike(r: { status: number; json: any; text: string }, where: string) {
  expect([r.status, r.json.error.code, r.json.error.details]).toEqual([422, 'SECRET_LIKE', { kind: 'aws_access_key', where }]);
  expect(r.text).not.toContain(KEY_LIKE);
}

/** A 400 naming the one unknown member `field` (and only it); `value` is never echoed. */
function expectUnknownMember(r: { status: number; json: any; text: string }, field: string, value: string) {
  expect([r.status, r.json.error.code]).toEqual([400, 'INVALID_REQUEST']);
  expect(r.json.error.details.fields.map((f: any) => [f.field, f.in, f.problem])).toEqual([[field, 'body', 'unknown_member']]);
  expect(r.text).not.toContain(value);
}

describe('POST /v1/outreach/contacts', () => {
  const refused: [name: string, over: Record<string, unknown>, where: string][] = [
    ['in the outlet', { outlet: `Example News ${KEY_LIKE}` }, 'outlet'],
    ['in the name', { name: KEY_LIKE }, 'name'],
    ['in the beat', { beat: `infra, see ${KEY_LIKE}` }, 'beat'],
    ['in the source_url', { source_url: `https://press.example.org/team?k=${KEY_LIKE}` }, 'source_url'],
  ];
  for (const [name, over, where] of refused) {
    test(`a key-like string ${name}: 422 SECRET_LIKE, nothing stored`, async () => {
      const t = await makeOutreachApp(env);
      const ann = await t.resident('ann');
      const url = t.page('press.example.org', '/team', 'desk@example.org');
      const r = await t.contact(ann, { email: 'desk@example.org', outlet: 'Example News', source_url: url, ...over });
      expectSecretLike(r, where);
      expect(rows(t, 'outreach_contacts')).toBe(0);
    });
  }

  const unknown: [name: string, over: Record<string, unknown>, field: string][] = [
    ['in notes (a member the route does not know)', { notes: KEY_LIKE }, 'notes'],
    ['nested in meta (a member the route does not know)', { meta: { crm: { ids: ['7', KEY_LIKE] } } }, 'meta'],
  ];
  for (const [name, over, field] of unknown) {
    test(`a key-like string ${name}: 400 INVALID_REQUEST naming ${field}, the key not echoed, nothing stored`, async () => {
      const t = await makeOutreachApp(env);
      const ann = await t.resident('ann');
      const url = t.page('press.example.org', '/team', 'desk@example.org');
      const r = await t.contact(ann, { email: 'desk@example.org', outlet: 'Example News', source_url: url, ...over });
      expectUnknownMember(r, field, KEY_LIKE);
      expect(rows(t, 'outreach_contacts')).toBe(0);
    });
  }

  test('near misses: a uuid and a sha256 in the known members pass (in meta they are refused by name), and price words in a beat are the contact’s own (only the secret rule reads a contact)', async () => {
    const t = await makeOutreachApp(env);
    const ann = await t.resident('ann');
    const url = t.page('press.example.org', '/team', 'desk@example.org');
    const contact = {
      email: 'desk@example.org',
      outlet: 'Example News',
      name: `Desk ${UUID}`,
      beat: `token markets, buy and sell flows; ${SHA256}`,
      source_url: url,
    };
    expectUnknownMember(await t.contact(ann, { ...contact, meta: { crm: { ids: [UUID, SHA256] } } }), 'meta', SHA256);
    expect(rows(t, 'outreach_contacts')).toBe(0);
    const r = await t.contact(ann, contact);
    expect(r.status, r.text).toBe(200);
    expect(rows(t, 'outreach_contacts')).toBe(1);
    const listed = await t.call('GET', '/v1/outreach/contacts', { key: ann.key });
    expect(listed.json.contacts[0]).toMatchObject({ name: `Desk ${UUID}`, beat: `token markets, buy and sell flows; ${SHA256}` });
  });
});

describe('POST /v1/outreach/email', () => {
  const refused: [name: string, over: Record<string, unknown>, where: string][] = [
    ['in the subject', { subject: `Keys ${KEY_LIKE}` }, 'subject'],
    ['in the body', { body: `${'We measured cold starts on public nodes and wrote every step down. '.repeat(4)} ${KEY_LIKE}` }, 'body'],
  ];
  for (const [name, over, where] of refused) {
    test(`a key-like string ${name}: 422 SECRET_LIKE (not a content match), nothing stored`, async () => {
      const t = await makeOutreachApp(env, { mode: 'review' });
      const ann = await t.resident('ann');
      const cid = await t.addContact(ann, 'desk@example.org');
      const r = await t.email(ann, { contact_id: cid, ...over });
      expectSecretLike(r, where);
      expect(rows(t, 'outreach_messages')).toBe(0);
    });
  }

  test('a key-like string nested in meta (a member the route does not know): 400 INVALID_REQUEST naming meta, the key not echoed, nothing stored', async () => {
    const t = await makeOutreachApp(env, { mode: 'review' });
    const ann = await t.resident('ann');
    const cid = await t.addContact(ann, 'desk@example.org');
    const r = await t.email(ann, { contact_id: cid, meta: { tracking: { ref: KEY_LIKE } } });
    expectUnknownMember(r, 'meta', KEY_LIKE);
    expect(rows(t, 'outreach_messages')).toBe(0);
  });

  test('near miss: a uuid and a sha256 in meta are refused by name all the same, before the Idempotency-Key is taken (the same key without meta then sends once and replays)', async () => {
    const t = await makeOutreachApp(env, { mode: 'review' });
    const ann = await t.resident('ann');
    const cid = await t.addContact(ann, 'desk@example.org');
    const key = crypto.randomUUID();
    const send = (meta?: unknown) =>
      t.call('POST', '/v1/outreach/email', {
        key: ann.key,
        headers: { 'idempotency-key': key },
        body: { experiment_id: ann.experiment, contact_id: cid, subject: 'Measuring cold starts on public nodes', body: BODY, ...(meta ? { meta } : {}) },
      });
    expectUnknownMember(await send({ ref: UUID, hash: SHA256 }), 'meta', SHA256);
    expect(rows(t, 'outreach_messages')).toBe(0);
    const first = await send();
    expect(first.status, first.text).toBe(200);
    const again = await send();
    expect([again.status, again.json.message_id]).toEqual([200, first.json.message_id]);
    expect(rows(t, 'outreach_messages')).toBe(1);
  });
});

describe('POST /v1/outreach/post', () => {
  let hook: ReturnType<typeof Bun.serve>;
  beforeAll(() => {
    hook = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => Response.json({ ok: true }) });
  });
  afterAll(() => {
    hook.stop(true);
  });
  const setUp = async () => {
    const t = await makeOutreachApp(env, { start: '2026-11-23T10:00:00Z' });
    runAdmin(t.ctx, ['outreach', 'channel', 'set', 'one', `http://127.0.0.1:${hook.port}/one`]);
    const ann = await t.resident('ann');
    const post = (body: Record<string, unknown>) =>
      t.call('POST', '/v1/outreach/post', {
        key: ann.key,
        body: { experiment_id: ann.experiment, channel: 'one', text: 'New measurements are out.', ...body },
      });
    return { t, post };
  };

  for (const [name, over, where] of [['in the text', { text: `New measurements, key ${KEY_LIKE}` }, 'text']] as [string, Record<string, unknown>, string][]) {
    test(`a key-like string ${name}: 422 SECRET_LIKE, nothing stored or posted`, async () => {
      const { t, post } = await setUp();
      expectSecretLike(await post(over), where);
      expect(rows(t, 'outreach_posts')).toBe(0);
    });
  }

  test('a key-like string nested in meta (a member the route does not know): 400 INVALID_REQUEST naming meta, the key not echoed, nothing stored or posted', async () => {
    const { t, post } = await setUp();
    expectUnknownMember(await post({ meta: { thread: [KEY_LIKE] } }), 'meta', KEY_LIKE);
    expect(rows(t, 'outreach_posts')).toBe(0);
  });

  test('near miss: a sha256 in the text passes; a uuid in meta is refused by name (meta is no member of a post)', async () => {
    const { t, post } = await setUp();
    expectUnknownMember(await post({ text: `New measurements are out: ${SHA256}`, meta: { thread: [UUID] } }), 'meta', UUID);
    expect(rows(t, 'outreach_posts')).toBe(0);
    const r = await post({ text: `New measurements are out: ${SHA256}` });
    expect([r.status, r.json.status]).toEqual([200, 'posted']);
    expect(rows(t, 'outreach_posts')).toBe(1);
  });
});
