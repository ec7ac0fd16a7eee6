// E-mail: sending through a real relay, the footer and unsubscribe headers, the modes and the
// owner's approval, every limit and its hard cases, the relay being down, the public log.
import { describe, expect, test } from 'bun:test';
import { runAdmin } from '../../src/admin/cli.ts';
import { deliverDue } from '../../src/outreach/mailer.ts';
import { makeOutreachApp, outreachEnv, POSTAL } from './harness.ts';

const env = outreachEnv();
const PUBLIC = { headers: { 'x-agent-protocol': '', 'content-type': '' } };
const DAY = 86_400_000;

describe('sending', () => {
  test('auto: sent through the relay with the footer, a stop link and signed-ready one-click headers; the log shows the outlet, never the address', async () => {
    const t = await makeOutreachApp(env, { mode: 'auto' });
    const ann = await t.resident('ann');
    const cid = await t.addContact(ann, 'Reporter@Example.org', 'Example News');
    const before = env.relay.messages.length;
    const r = await t.email(ann, { contact_id: cid });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ message_id: expect.any(String), status: 'sent', public_url: `http://svc.test/outreach#m-${r.json.message_id}` });
    const mail = env.relay.messages[before]!;
    expect(mail.to.map((a) => a.toLowerCase())).toEqual(['reporter@example.org']);
    expect(mail.from).toBe('outreach@svc.example');
    const raw = mail.raw.replace(/=\r?\n/g, '').replace(/\r\n[ \t]+/g, ' ');
    // RFC 8058: the header URL is not the footer's stop link (a GET of a header URL must not unsubscribe).
    expect(raw).toMatch(/^List-Unsubscribe: <http:\/\/svc\.test\/outreach\/unsubscribe\/[0-9a-f]{64}>/im);
    expect(raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click/im);
    expect(raw).toContain('an AI agent of svc');
    expect(raw).toContain('participation policy svc-policy/1: http://svc.test/policy');
    expect(raw).toContain(POSTAL);
    expect(raw).toContain('http://svc.test/outreach');
    expect(raw).toMatch(/http:\/\/svc\.test\/outreach\/stop\/[0-9a-f]{64}/);
    const log = await t.call('GET', '/api/outreach/log', PUBLIC);
    expect(log.json.items).toEqual([
      expect.objectContaining({ type: 'email', id: r.json.message_id, agent: 'ann', outlet: 'Example News', subject: 'Measuring cold starts on public nodes' }),
    ]);
    expect(log.json.items[0].footer).toContain('(a personal stop link)');
    expect(log.text.toLowerCase()).not.toContain('reporter@example.org');
    expect(log.text).not.toMatch(/stop\/[0-9a-f]{64}/);
    const page = await t.app.handle(new Request('http://localhost/outreach'));
    const html = await page.text();
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(html).toContain('Example News');
    expect(html.toLowerCase()).not.toContain('reporter@example.org');
    const sent = await t.call('GET', '/v1/outreach/sent', { key: ann.key });
    expect(sent.json.messages[0]).toMatchObject({ message_id: r.json.message_id, status: 'sent', role: 'first', replies: [] });
    const contacts = await t.call('GET', '/v1/outreach/contacts', { key: ann.key });
    expect(contacts.json.contacts[0]).toMatchObject({ status: 'contacted', contactable_now: false });
  });

  test('review queues every e-mail; auto queues a letter; the owner approves or rejects; a queued one is never in the log', async () => {
    const t = await makeOutreachApp(env, { mode: 'review' });
    const ann = await t.resident('ann');
    const c1 = await t.addContact(ann, 'one@example.org');
    const q = await t.email(ann, { contact_id: c1 });
    expect(q.json.status).toBe('queued');
    expect((await t.call('GET', '/api/outreach/log', PUBLIC)).json.items).toEqual([]);
    expect((runAdmin(t.ctx, ['outreach', 'queue']) as { message_id: string }[]).map((m) => m.message_id)).toEqual([q.json.message_id]);
    const before = env.relay.messages.length;
    expect(await runAdmin(t.ctx, ['outreach', 'approve', q.json.message_id])).toEqual({ message_id: q.json.message_id, status: 'sent' });
    expect(env.relay.messages.length).toBe(before + 1);
    const c2 = await t.addContact(ann, 'two@example.net', 'Other', 'newsroom.example.net');
    const q2 = await t.email(ann, { contact_id: c2 });
    expect(runAdmin(t.ctx, ['outreach', 'reject', q2.json.message_id])).toEqual({ message_id: q2.json.message_id, status: 'refused' });
    expect((await t.call('GET', '/v1/outreach/sent', { key: ann.key })).json.messages[0]).toMatchObject({ status: 'refused', status_reason: 'owner_rejected' });
    // auto: a pitch goes out, a letter waits.
    await runAdmin(t.ctx, ['outreach', 'configure', '--domain', 'svc.example', '--mailbox', 'outreach', '--postal-address', POSTAL, '--mode', 'auto']);
    const c3 = await t.addContact(ann, 'three@example.net', 'Other', 'newsroom.example.net');
    expect((await t.email(ann, { contact_id: c3, kind: 'letter' })).json.status).toBe('queued');
    // off: nothing is sent; a pitch is refused (a letter would be queued: test/conformance/outreach.test.ts).
    await runAdmin(t.ctx, ['outreach', 'configure', '--domain', 'svc.example', '--mailbox', 'outreach', '--postal-address', POSTAL, '--mode', 'off']);
    // Contacts can still be added in mode off.
    expect(await t.addContact(ann, 'four@example.org')).toEqual(expect.any(String));
    const off = await t.email(ann, { contact_id: c1, follow_up_of: q.json.message_id });
    expect([off.status, off.json.error.code]).toEqual([409, 'OUTREACH_SENDING_OFF']);
    const office = await t.call('GET', '/api/office', PUBLIC);
    expect(office.json.outreach).toMatchObject({ enabled: false, mode: 'off' });
  });

  test('text rules: lengths, plain text, links only to allowlisted hosts, refused content with every match', async () => {
    const t = await makeOutreachApp(env);
    const ann = await t.resident('ann');
    const cid = await t.addContact(ann, 'desk@example.org');
    const code = async (body: Record<string, unknown>) => (await t.email(ann, { contact_id: cid, ...body })).json.error?.code;
    expect(await code({ subject: 'Hey' })).toBe('OUTREACH_TEXT_INVALID');
    expect(await code({ subject: 'x'.repeat(91) })).toBe('OUTREACH_TEXT_INVALID');
    expect(await code({ body: 'y'.repeat(199) })).toBe('OUTREACH_TEXT_INVALID');
    expect(await code({ body: 'y'.repeat(1201) })).toBe('OUTREACH_TEXT_INVALID');
    expect(await code({ body: `<p>${'y'.repeat(250)}</p>` })).toBe('OUTREACH_TEXT_INVALID');
    const base = 'We measured cold starts on public nodes and wrote down every step of the method so that anyone can repeat it. '.repeat(3);
    expect(await code({ body: `${base} See https://evil.example.com/x` })).toBe('OUTREACH_LINKS');
    expect(await code({ body: `${base} https://github.com/a https://arxiv.org/abs/1 https://doi.org/10.1/x` })).toBe('OUTREACH_LINKS');
    // A mail reader links a bare domain, and a scheme URL whatever its host: each is a link.
    expect(await code({ body: `${base} See evil.example.net for more.` })).toBe('OUTREACH_LINKS');
    expect(await code({ body: `${base} See http://10.0.0.1/x for more.` })).toBe('OUTREACH_LINKS');
    expect(await code({ body: `${base} github.com arxiv.org doi.org` })).toBe('OUTREACH_LINKS');
    const r = await t.email(ann, { contact_id: cid, body: `${base} We are partnered with a major exchange and there is a giveaway of free tokens.` });
    expect(r.status).toBe(422);
    expect(r.json.error.code).toBe('OUTREACH_CONTENT_REFUSED');
    expect(r.json.error.details.matches.map((m: { rule: string }) => m.rule).sort()).toEqual(['claimed_tie', 'giveaway']);
    expect((await t.call('GET', '/v1/outreach/sent', { key: ann.key })).json.messages).toEqual([]);
    // Near miss: two allowlisted links and plain words pass.
    // The public log shows the text: no e-mail address but the service's own mailbox.
    const withAddress = await t.email(ann, { contact_id: cid, body: `${base} Or write to desk@example.org directly.` });
    expect(withAddress.json.error.details.problems).toEqual([{ field: 'body', rule: 'email_address' }]);
    expect(await code({ subject: 'For desk@example.org' })).toBe('OUTREACH_TEXT_INVALID');
    const ok = await t.email(ann, { contact_id: cid, body: `${base} Data: https://github.com/a and http://svc.test/lab/x; replies: outreach@svc.example.` });
    expect(ok.json.status).toBe('sent');
  });

  test('experiment_id must be your own Experiment root', async () => {
    const t = await makeOutreachApp(env);
    const ann = await t.resident('ann');
    const bob = await t.resident('bob');
    const cid = await t.addContact(ann, 'desk@example.org');
    const r = await t.email(ann, { contact_id: cid, experiment_id: bob.experiment });
    expect([r.status, r.json.error.code]).toEqual([422, 'OUTREACH_NOT_YOUR_EXPERIMENT']);
  });
});

describe('limits', () => {
  test('one first contact per address ever (any agent); follow-up refused on day 4, allowed on day 5, once; a reply opens answers', async () => {
    const t = await makeOutreachApp(env);
    const ann = await t.resident('ann');
    const bob = await t.resident('bob');
    const cid = await t.addContact(ann, 'writer@example.org');
    const first = await t.email(ann, { contact_id: cid });
    expect(first.json.status).toBe('sent');
    expect((await t.email(bob, { contact_id: cid })).json.error.code).toBe('OUTREACH_ALREADY_CONTACTED');
    t.clock.advance(4 * DAY);
    const early = await t.email(ann, { contact_id: cid, follow_up_of: first.json.message_id });
    expect([early.status, early.json.error.code, early.json.error.details.rule]).toEqual([409, 'OUTREACH_FOLLOW_UP_REFUSED', 'too_early']);
    expect((await t.email(bob, { contact_id: cid, follow_up_of: first.json.message_id })).json.error.details.rule).toBe('follow_up_of_not_yours');
    t.clock.advance(DAY);
    const fu = await t.email(ann, { contact_id: cid, follow_up_of: first.json.message_id });
    expect(fu.json.status).toBe('sent');
    t.clock.advance(DAY);
    expect((await t.email(ann, { contact_id: cid, follow_up_of: fu.json.message_id })).json.error.details.rule).toBe('follow_up_used');
  });

  test('at most 2 first contacts per outlet domain per 7 days', async () => {
    const t = await makeOutreachApp(env);
    const ann = await t.resident('ann');
    const a = await t.addContact(ann, 'a.one@example.org');
    const b = await t.addContact(ann, 'b.two@example.org');
    const c = await t.addContact(ann, 'c.three@example.org');
    expect((await t.email(ann, { contact_id: a })).json.status).toBe('sent');
    t.clock.advance(DAY);
    expect((await t.email(ann, { contact_id: b })).json.status).toBe('sent');
    const r = await t.email(ann, { contact_id: c });
    expect([r.status, r.json.error.code, r.json.error.details.domain]).toEqual([429, 'OUTREACH_OUTLET_LIMIT', 'example.org']);
    expect(Date.parse(r.json.error.details.retry_at)).toBe(t.clock.now() - DAY + 7 * DAY);
    expect(
      (await t.call('GET', '/v1/outreach/contacts', { key: ann.key })).json.contacts.find((x: { contact_id: string }) => x.contact_id === c).contactable_now,
    ).toBe(false);
    t.clock.advance(6 * DAY + 1);
    expect((await t.email(ann, { contact_id: c })).json.status).toBe('sent');
  });

  test('3 sends per agent per Moscow day: the third at 20:59 UTC, the fourth refused until 21:00, allowed at 21:01', async () => {
    const t = await makeOutreachApp(env, { start: '2026-11-23T18:00:00Z' });
    const ann = await t.resident('ann');
    // Four contacts on two outlet domains (2 first contacts per domain per 7 days).
    const mk = async (email: string, host: string) => t.addContact(ann, email, 'O', host);
    const c = [
      await mk('p.a@example.org', 'press.example.org'),
      await mk('p.b@example.net', 'newsroom.example.net'),
      await mk('p.c@example.org', 'www.example.org'),
      await mk('p.d@example.net', 'newsroom.example.net'),
    ];
    expect((await t.email(ann, { contact_id: c[0] })).json.status).toBe('sent');
    expect((await t.email(ann, { contact_id: c[1] })).json.status).toBe('sent');
    t.clock.set('2026-11-23T20:59:00Z');
    expect((await t.email(ann, { contact_id: c[2] })).json.status).toBe('sent');
    const r = await t.email(ann, { contact_id: c[3] });
    expect([r.status, r.json.error.code, r.json.error.details.retry_at]).toEqual([429, 'OUTREACH_AGENT_DAY_LIMIT', '2026-11-23T21:00:00.000Z']);
    expect(r.headers.get('retry-after')).toBe('60');
    t.clock.set('2026-11-23T21:01:00Z');
    expect((await t.email(ann, { contact_id: c[3] })).json.status).toBe('sent');
  });

  test('two agents racing for the last fleet slot: exactly one wins', async () => {
    const t = await makeOutreachApp(env, { more: { SVC_OUTREACH_FLEET_CAP: '1' } });
    const ann = await t.resident('ann');
    const bob = await t.resident('bob');
    const ca = await t.addContact(ann, 'race.a@example.org');
    const cb = await t.addContact(bob, 'race.b@example.net', 'Other', 'newsroom.example.net');
    const [ra, rb] = await Promise.all([t.email(ann, { contact_id: ca }), t.email(bob, { contact_id: cb })]);
    const statuses = [ra.status, rb.status].sort();
    expect(statuses).toEqual([200, 429]);
    const lost = ra.status === 429 ? ra : rb;
    expect(lost.json.error.code).toBe('OUTREACH_FLEET_CAP');
    const office = await t.call('GET', '/v1/office', { key: ann.key });
    expect(office.json.outreach.fleet_remaining_today).toBe(0);
  });
});

describe('a relay that is down', () => {
  test('the e-mail is failed (never sent), retried with backoff up to 3 times, and sent when the relay is back', async () => {
    const t = await makeOutreachApp(env);
    const ann = await t.resident('ann');
    const cid = await t.addContact(ann, 'late@example.org');
    env.relay.down = true;
    try {
      const r = await t.email(ann, { contact_id: cid });
      expect(r.json.status).toBe('failed');
      let m = (await t.call('GET', '/v1/outreach/sent', { key: ann.key })).json.messages[0];
      expect(m).toMatchObject({ status: 'failed', attempts: 1 });
      expect(Date.parse(m.retry_at) - t.clock.now()).toBe(60_000);
      expect((await t.call('GET', '/api/outreach/log', PUBLIC)).json.items).toEqual([]);
      // Not due yet: nothing tried.
      expect(await deliverDue(t.ctx)).toEqual({ tried: 0, sent: 0 });
      t.clock.advance(60_000);
      expect(await deliverDue(t.ctx)).toEqual({ tried: 1, sent: 0 });
      m = (await t.call('GET', '/v1/outreach/sent', { key: ann.key })).json.messages[0];
      expect(m.attempts).toBe(2);
      expect(Date.parse(m.retry_at) - t.clock.now()).toBe(240_000);
    } finally {
      env.relay.down = false;
    }
    t.clock.advance(240_000);
    expect(await deliverDue(t.ctx)).toEqual({ tried: 1, sent: 1 });
    expect((await t.call('GET', '/v1/outreach/sent', { key: ann.key })).json.messages[0]).toMatchObject({ status: 'sent', attempts: 3, retry_at: null });
  });

  test('after 1 try and 3 retries the e-mail stays failed with no further try', async () => {
    const t = await makeOutreachApp(env);
    const ann = await t.resident('ann');
    const cid = await t.addContact(ann, 'never@example.org');
    env.relay.down = true;
    try {
      await t.email(ann, { contact_id: cid });
      for (let i = 0; i < 3; i++) {
        t.clock.advance(60 * 60_000);
        await deliverDue(t.ctx);
      }
      t.clock.advance(60 * 60_000);
      expect(await deliverDue(t.ctx)).toEqual({ tried: 0, sent: 0 });
    } finally {
      env.relay.down = false;
    }
    expect((await t.call('GET', '/v1/outreach/sent', { key: ann.key })).json.messages[0]).toMatchObject({ status: 'failed', attempts: 4, retry_at: null });
  });
});
