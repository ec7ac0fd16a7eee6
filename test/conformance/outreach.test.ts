// Outreach checked from outside against the spec's words (02-extensions "Outreach records", the
// outreach transitions, the /v1/outreach routes, the Outreach limits; docs/decisions.md#outreach;
// docs/decisions.md#paging-and-time "Daily quotas reset at UTC midnight unless the spec names Moscow midnight").
// Requirements already covered elsewhere are listed in the round-2 report (test/outreach/*).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { runAdmin } from '../../src/admin/cli.ts';
import { deliverDue } from '../../src/outreach/mailer.ts';
import { makeOutreachApp, type OutreachEnv, POSTAL, startPageServer, startRelay } from '../outreach/harness.ts';

const env = {} as OutreachEnv;
let hook: ReturnType<typeof Bun.serve>;
beforeAll(async () => {
  env.pages = startPageServer();
  env.relay = await startRelay();
  hook = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => Response.json({ ok: true }) });
});
afterAll(async () => {
  env.pages.stop();
  await env.relay.stop();
  hook.stop(true);
});

/** The statuses docs/decisions.md#outreach names for an outreach message: nothing else may be reported. */
const SPEC_STATUSES = ['queued', 'sent', 'refused', 'failed', 'bounced'];
const configure = (t: { ctx: Parameters<typeof runAdmin>[0] }, mode: string, more: string[] = []) =>
  runAdmin(t.ctx, ['outreach', 'configure', '--domain', 'svc.example', '--mailbox', 'outreach', '--postal-address', POSTAL, '--mode', mode, ...more]);
const sent = async (t: Awaited<ReturnType<typeof makeOutreachApp>>, key: string) =>
  (await t.call('GET', '/v1/outreach/sent', { key })).json.messages as { message_id: string; status: string }[];

describe('"Every outreach route answers 503 OUTREACH_NOT_CONFIGURED until the owner has configured"; "else 403 OUTREACH_RESIDENTS_ONLY"', () => {
  const CALLS = [
    ['POST', '/v1/outreach/contacts', {}],
    ['GET', '/v1/outreach/contacts?limit=100000', undefined],
    ['POST', '/v1/outreach/email', { subject: 'x' }],
    ['GET', '/v1/outreach/sent?before=not-a-cursor', undefined],
    ['POST', '/v1/outreach/post', { channel: 'three' }],
  ] as const;

  test('503 whatever the body or query, before any of it is checked', async () => {
    const t = await makeOutreachApp(env, { configure: false });
    const ann = await t.register('ann');
    for (const [method, path, body] of CALLS) {
      const r = await t.call(method, path, { key: ann.key, ...(body ? { body } : {}) });
      expect([path, r.status, r.json.error.code]).toEqual([path, 503, 'OUTREACH_NOT_CONFIGURED']);
    }
    // The key comes first, as on every agent route: no key or a wrong one is 401 even then.
    expect((await t.call('GET', '/v1/outreach/contacts', {})).status).toBe(401);
    expect((await t.call('POST', '/v1/outreach/email', { key: `${ann.key.slice(0, -4)}zzzz`, body: {} })).status).toBe(401);
  });

  test('once configured, 403 for an agent who is not a listed resident, whatever the body; a bad key is still 401', async () => {
    const t = await makeOutreachApp(env);
    const ann = await t.register('ann');
    for (const [method, path, body] of CALLS) {
      const r = await t.call(method, path, { key: ann.key, ...(body ? { body } : {}) });
      expect([path, r.status, r.json.error.code]).toEqual([path, 403, 'OUTREACH_RESIDENTS_ONLY']);
    }
    const bad = await t.call('GET', '/v1/outreach/contacts', { key: `${ann.key.slice(0, -4)}zzzz` });
    expect(bad.status).toBe(401);
  });
});

describe('message statuses are the spec’s: queued, sent, refused, failed, bounced', () => {
  test('while the relay is still taking an e-mail it is reported queued, never sent and never an unlisted status', async () => {
    const t = await makeOutreachApp(env, { mode: 'auto' });
    const ann = await t.resident('ann');
    const cid = await t.addContact(ann, 'slow.relay@example.org');
    const gate = env.relay.hold();
    const pending = t.email(ann, { contact_id: cid });
    await gate.arrived;
    const during = await sent(t, ann.key);
    expect(during.map((m) => m.status)).toEqual(['queued']);
    gate.release();
    const answer = await pending;
    expect(answer.json.status).toBe('sent');
    expect((await sent(t, ann.key)).map((m) => m.status)).toEqual(['sent']);
  });

  test('every status answered by POST /v1/outreach/email and GET /v1/outreach/sent is one of the five', async () => {
    const t = await makeOutreachApp(env, { mode: 'review' });
    const ann = await t.resident('ann');
    const a = await t.email(ann, { contact_id: await t.addContact(ann, 'status.a@example.org') });
    const b = await t.email(ann, { contact_id: await t.addContact(ann, 'status.b@example.net', 'Other', 'newsroom.example.net') });
    expect([a.json.status, b.json.status]).toEqual(['queued', 'queued']);
    await runAdmin(t.ctx, ['outreach', 'approve', a.json.message_id]);
    runAdmin(t.ctx, ['outreach', 'reject', b.json.message_id]);
    const statuses = (await sent(t, ann.key)).map((m) => m.status);
    expect(statuses.sort()).toEqual(['refused', 'sent']);
    for (const s of statuses) expect(SPEC_STATUSES).toContain(s);
  });
});

describe('"At most 3 sends per agent per Moscow day, and a daily fleet cap"', () => {
  test('a queued e-mail holds its slot; a refused (rejected) one gives it back', async () => {
    const t = await makeOutreachApp(env, { mode: 'review', start: '2026-11-23T10:00:00Z', more: { SVC_OUTREACH_FIRST_PER_OUTLET_7D: '9' } });
    const ann = await t.resident('ann');
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await t.email(ann, { contact_id: await t.addContact(ann, `slot${i}@example.org`) });
      expect(r.json.status).toBe('queued');
      ids.push(r.json.message_id);
    }
    const fourth = await t.addContact(ann, 'slot3@example.org');
    const full = await t.email(ann, { contact_id: fourth });
    expect([full.status, full.json.error.code]).toEqual([429, 'OUTREACH_AGENT_DAY_LIMIT']);
    runAdmin(t.ctx, ['outreach', 'reject', ids[0]!]);
    expect((await t.email(ann, { contact_id: fourth })).json.status).toBe('queued');
  });

  test('an e-mail the relay never took (1 try and 3 retries failed) does not use a send of the day, nor the address’s first contact', async () => {
    const t = await makeOutreachApp(env, { mode: 'auto', start: '2026-11-23T08:00:00Z', more: { SVC_OUTREACH_SENDS_PER_AGENT_DAY: '1' } });
    const ann = await t.resident('ann');
    const cid = await t.addContact(ann, 'gave.up@example.org');
    env.relay.down = true;
    try {
      expect((await t.email(ann, { contact_id: cid })).json.status).toBe('failed');
      // While a retry is due it still may go out: it holds the day's one send.
      const other = await t.addContact(ann, 'other@example.net', 'Other', 'newsroom.example.net');
      expect((await t.email(ann, { contact_id: other })).json.error.code).toBe('OUTREACH_AGENT_DAY_LIMIT');
      for (let i = 0; i < 3; i++) {
        t.clock.advance(60 * 60_000);
        await deliverDue(t.ctx);
      }
    } finally {
      env.relay.down = false;
    }
    expect(await sent(t, ann.key)).toMatchObject([{ status: 'failed', retry_at: null, attempts: 4 }]);
    const contacts = (await t.call('GET', '/v1/outreach/contacts', { key: ann.key })).json.contacts;
    expect(contacts.find((c: { contact_id: string }) => c.contact_id === cid)).toMatchObject({ status: 'new', first_contact_at: null, contactable_now: true });
    const again = await t.email(ann, { contact_id: cid });
    expect([again.status, again.json.status]).toEqual([200, 'sent']);
  });

  test('an e-mail queued on one Moscow day and approved on the next counts against the day of approval', async () => {
    const t = await makeOutreachApp(env, { mode: 'review', start: '2026-11-23T20:00:00Z', more: { SVC_OUTREACH_FLEET_CAP: '2' } });
    const ann = await t.resident('ann');
    const bob = await t.resident('bob');
    const old = await t.email(ann, { contact_id: await t.addContact(ann, 'old@example.org') });
    t.clock.set('2026-11-23T21:30:00Z'); // the next Moscow day
    const b1 = await t.email(bob, { contact_id: await t.addContact(bob, 'b1@example.net', 'Other', 'newsroom.example.net') });
    const b2 = await t.email(bob, { contact_id: await t.addContact(bob, 'b2@example.net', 'Other', 'newsroom.example.net') });
    expect([b1.json.status, b2.json.status]).toEqual(['queued', 'queued']);
    const before = env.relay.messages.length;
    await expect(runAdmin(t.ctx, ['outreach', 'approve', old.json.message_id]) as Promise<unknown>).rejects.toThrow(/fleet cap/);
    expect(env.relay.messages.length).toBe(before);
    runAdmin(t.ctx, ['outreach', 'reject', b2.json.message_id]);
    expect(await runAdmin(t.ctx, ['outreach', 'approve', old.json.message_id])).toEqual({ message_id: old.json.message_id, status: 'sent' });
    expect((await t.call('GET', '/v1/office', { key: ann.key })).json.outreach.fleet_remaining_today).toBe(0);
  });

  test('mode off sends nothing: the owner cannot approve, and the retry job tries nothing', async () => {
    const t = await makeOutreachApp(env, { mode: 'review' });
    const ann = await t.resident('ann');
    const q = await t.email(ann, { contact_id: await t.addContact(ann, 'offmode@example.org') });
    const f = await (async () => {
      await configure(t, 'auto');
      env.relay.down = true;
      try {
        return await t.email(ann, { contact_id: await t.addContact(ann, 'offmode2@example.net', 'Other', 'newsroom.example.net') });
      } finally {
        env.relay.down = false;
      }
    })();
    expect(f.json.status).toBe('failed');
    await configure(t, 'off');
    const before = env.relay.messages.length;
    await expect(runAdmin(t.ctx, ['outreach', 'approve', q.json.message_id]) as Promise<unknown>).rejects.toThrow(/mode off/);
    t.clock.advance(60 * 60_000);
    expect(await deliverDue(t.ctx)).toEqual({ tried: 0, sent: 0 });
    expect(env.relay.messages.length).toBe(before);
    // Back to auto: the retry goes out.
    await configure(t, 'auto');
    expect(await deliverDue(t.ctx)).toEqual({ tried: 1, sent: 1 });
  });
});

describe('"Outreach message | queued for review | mode review, or kind letter in any mode | queued | not sent until the owner approves"', () => {
  test('mode off: a letter is queued (not sent, not in the log) and goes out once the owner switches the mode and approves it', async () => {
    const t = await makeOutreachApp(env, { mode: 'off' });
    const ann = await t.resident('ann');
    const cid = await t.addContact(ann, 'letters@example.org');
    const before = env.relay.messages.length;
    const letter = await t.email(ann, { contact_id: cid, kind: 'letter' });
    expect([letter.status, letter.json.status]).toEqual([200, 'queued']);
    expect((await sent(t, ann.key)).map((m) => [m.message_id, m.status])).toEqual([[letter.json.message_id, 'queued']]);
    expect((runAdmin(t.ctx, ['outreach', 'queue']) as { message_id: string }[]).map((m) => m.message_id)).toEqual([letter.json.message_id]);
    // Mode off sends nothing: not even the owner's approval sends it while the mode is off.
    await expect(runAdmin(t.ctx, ['outreach', 'approve', letter.json.message_id]) as Promise<unknown>).rejects.toThrow(/mode off/);
    expect(env.relay.messages.length).toBe(before);
    expect((await t.call('GET', '/api/outreach/log', { headers: { 'x-agent-protocol': '', 'content-type': '' } })).json.items).toEqual([]);
    // A queued letter holds its slot of the day, as in review.
    expect((await t.call('GET', '/v1/office', { key: ann.key })).json.outreach.fleet_remaining_today).toBe(19);
    await configure(t, 'review');
    expect(await runAdmin(t.ctx, ['outreach', 'approve', letter.json.message_id])).toEqual({ message_id: letter.json.message_id, status: 'sent' });
    expect(env.relay.messages.length).toBe(before + 1);
  });

  test('near miss: in mode off a pitch (the default kind) is refused 409 OUTREACH_SENDING_OFF and nothing is stored; so is a channel post', async () => {
    const t = await makeOutreachApp(env, { mode: 'off' });
    const ann = await t.resident('ann');
    const cid = await t.addContact(ann, 'pitches@example.org');
    for (const kind of [undefined, 'pitch']) {
      const r = await t.email(ann, { contact_id: cid, ...(kind ? { kind } : {}) });
      expect([r.status, r.json.error.code]).toEqual([409, 'OUTREACH_SENDING_OFF']);
    }
    expect(await sent(t, ann.key)).toEqual([]);
    runAdmin(t.ctx, ['outreach', 'channel', 'set', 'one', `http://127.0.0.1:${hook.port}/one`]);
    const post = await t.call('POST', '/v1/outreach/post', {
      key: ann.key,
      body: { experiment_id: ann.experiment, channel: 'one', text: 'New measurements are out.' },
    });
    expect([post.status, post.json.error.code]).toEqual([409, 'OUTREACH_SENDING_OFF']);
  });

  test('near miss: in mode auto a letter still waits for the owner, a pitch goes out', async () => {
    const t = await makeOutreachApp(env, { mode: 'auto' });
    const ann = await t.resident('ann');
    const letter = await t.email(ann, { contact_id: await t.addContact(ann, 'auto1@example.org'), kind: 'letter' });
    const pitch = await t.email(ann, { contact_id: await t.addContact(ann, 'auto2@example.net', 'Other', 'newsroom.example.net') });
    expect([letter.json.status, pitch.json.status]).toEqual(['queued', 'sent']);
  });
});

describe('"Contacts: at most 30 new per agent per day" (a plain day: from UTC midnight)', () => {
  test('the limit holds past Moscow midnight (21:01 UTC) and resets at 00:00 UTC', async () => {
    const t = await makeOutreachApp(env, { more: { SVC_OUTREACH_CONTACTS_PER_DAY: '1' }, start: '2026-11-23T20:00:00Z' });
    const ann = await t.resident('ann');
    await t.addContact(ann, 'first.of.day@example.org');
    const url = t.page('press.example.org', '/second', 'second.of.day@example.org');
    const body = { email: 'second.of.day@example.org', outlet: 'X', source_url: url };
    t.clock.set('2026-11-23T21:01:00Z');
    const r = await t.contact(ann, body);
    expect([r.status, r.json.error.code, r.json.error.details.retry_at]).toEqual([429, 'OUTREACH_CONTACT_LIMIT', '2026-11-24T00:00:00.000Z']);
    t.clock.set('2026-11-23T23:59:59Z');
    expect((await t.contact(ann, body)).status).toBe(429);
    t.clock.set('2026-11-24T00:00:00Z');
    expect((await t.contact(ann, body)).json.duplicate).toBe(false);
  });
});

describe('"Channel posts: … channel one at most 6 per day" (a plain day: from UTC midnight)', () => {
  test('a full channel one stays full past Moscow midnight and opens at 00:00 UTC', async () => {
    const t = await makeOutreachApp(env, { start: '2026-11-23T20:00:00Z', more: { SVC_OUTREACH_CHANNEL_ONE_PER_DAY: '1' } });
    runAdmin(t.ctx, ['outreach', 'channel', 'set', 'one', `http://127.0.0.1:${hook.port}/one`]);
    const ann = await t.resident('ann');
    const post = (text: string) => t.call('POST', '/v1/outreach/post', { key: ann.key, body: { experiment_id: ann.experiment, channel: 'one', text } });
    expect((await post('first note')).json.status).toBe('posted');
    t.clock.set('2026-11-23T21:01:00Z');
    const full = await post('second note');
    expect([full.status, full.json.error.code, full.json.error.details.retry_at]).toEqual([429, 'OUTREACH_CHANNEL_LIMIT', '2026-11-24T00:00:00.000Z']);
    t.clock.set('2026-11-24T00:00:00Z');
    expect((await post('second note')).json.status).toBe('posted');
  });
});

describe('"role addresses (no-reply, privacy, legal, abuse, security and similar) are refused"', () => {
  test('generic role addresses (info@, contact@, hello@) are refused like the named ones', async () => {
    const t = await makeOutreachApp(env);
    const ann = await t.resident('ann');
    for (const email of [
      'info@example.org',
      'Contact@example.org',
      'hello@example.org',
      'no-reply@example.org',
      'Security@example.org',
      'privacy+press@example.org',
    ]) {
      const r = await t.contact(ann, { email, outlet: 'X', source_url: t.page('press.example.org', `/${email}`, email) });
      expect([email, r.status, r.json.error?.code]).toEqual([email, 422, 'OUTREACH_ROLE_ADDRESS']);
    }
  });

  test('near misses: a person’s address and a newsroom’s tips or press desk are accepted', async () => {
    const t = await makeOutreachApp(env);
    const ann = await t.resident('ann');
    for (const email of ['tips@example.org', 'press@example.org', 'newsroom@example.org', 'info.desk.jane@example.org', 'hellen@example.org']) {
      expect(await t.addContact(ann, email)).toEqual(expect.any(String));
    }
  });
});

describe('"opt-out in a reply, or stop link used → suppressed for every agent"; one-click unsubscribe headers (RFC 8058)', () => {
  async function sentMail(
    t: Awaited<ReturnType<typeof makeOutreachApp>>,
    who: Awaited<ReturnType<Awaited<ReturnType<typeof makeOutreachApp>>['resident']>>,
    email: string,
  ) {
    const cid = await t.addContact(who, email);
    const before = env.relay.messages.length;
    expect((await t.email(who, { contact_id: cid })).json.status).toBe('sent');
    const raw = env.relay.messages[before]!.raw.replace(/=\r?\n/g, '').replace(/\r\n[ \t]+/g, ' ');
    const header = /^List-Unsubscribe: <([^>]+)>/im.exec(raw)![1]!;
    const post = /^List-Unsubscribe-Post: (.+)$/im.exec(raw)![1]!.trim();
    const stop = /^To never receive e-mail from svc again, open (\S+)/m.exec(raw)![1]!;
    return { cid, header, post, stop };
  }
  const open = (t: Awaited<ReturnType<typeof makeOutreachApp>>, url: string, init?: RequestInit) =>
    t.app.handle(new Request(url.replace('http://svc.test', 'http://localhost'), init));
  const statusOf = async (t: Awaited<ReturnType<typeof makeOutreachApp>>, key: string, cid: string) =>
    (await t.call('GET', '/v1/outreach/contacts', { key })).json.contacts.find((c: { contact_id: string }) => c.contact_id === cid).status;

  test('opening the footer’s stop link suppresses the address for every agent', async () => {
    const t = await makeOutreachApp(env);
    const ann = await t.resident('ann');
    const bob = await t.resident('bob');
    const m = await sentMail(t, ann, 'reader.one@example.org');
    expect((await open(t, m.stop)).status).toBe(200);
    expect(await statusOf(t, bob.key, m.cid)).toBe('suppressed');
    const r = await t.email(bob, { contact_id: m.cid });
    expect([r.status, r.json.error.code]).toEqual([409, 'OUTREACH_CONTACT_UNAVAILABLE']);
  });

  test('the List-Unsubscribe URL suppresses on the one-click POST, and a mere GET of it (mail software fetching header URLs) does not', async () => {
    const t = await makeOutreachApp(env);
    const ann = await t.resident('ann');
    const m = await sentMail(t, ann, 'reader.two@example.org');
    expect(m.post).toBe('List-Unsubscribe=One-Click');
    expect(m.header.startsWith('http://svc.test/')).toBe(true);
    expect(m.header).not.toBe(m.stop);
    const get = await open(t, m.header);
    expect(get.status).toBe(200);
    expect(await get.text()).toContain('method="post"');
    expect(await statusOf(t, ann.key, m.cid)).toBe('contacted');
    const post = await open(t, m.header, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: m.post });
    expect(post.status).toBe(200);
    expect(await statusOf(t, ann.key, m.cid)).toBe('suppressed');
  });

  test('an unknown token on either URL changes nothing and answers 404', async () => {
    const t = await makeOutreachApp(env);
    for (const path of ['/outreach/stop/', '/outreach/unsubscribe/']) {
      expect((await open(t, `http://svc.test${path}${'a'.repeat(64)}`)).status).toBe(404);
      expect((await open(t, `http://svc.test${path}${'a'.repeat(64)}`, { method: 'POST', body: 'List-Unsubscribe=One-Click' })).status).toBe(404);
    }
  });
});
