// The console's Queue: an e-mail awaiting approval is shown as its recipient will read it (the
// sender's mailbox, the recipient's outlet, the subject, the body and the footer the server
// appends), never with the recipient's address or personal stop link; approve and reject from there.
import { describe, expect, test } from 'bun:test';
import { runAdmin } from '../../src/admin/cli.ts';
import { makeOutreachApp, outreachEnv, POSTAL } from '../outreach/harness.ts';
import { act, send, signedIn, unescaped } from './console-harness.ts';

const env = outreachEnv();

describe('the queue shows e-mails as the recipient reads them', () => {
  test('headers, body and footer; no address, no stop link; approve sends, reject refuses', async () => {
    const t = await makeOutreachApp(env, { mode: 'review' });
    const ann = await t.resident('ann');
    const first = await t.email(ann, { contact_id: await t.addContact(ann, 'reporter@example.org', 'Example News') });
    const second = await t.email(ann, { contact_id: await t.addContact(ann, 'desk@example.org', 'Other Desk') });
    expect([first.json.status, second.json.status]).toEqual(['queued', 'queued']);
    const s = await signedIn(t);
    const page = await send(t, 'GET', '/console/queue', { cookie: s.cookie });
    const text = unescaped(page.text);
    expect(text).toContain('E-mails awaiting approval (2)');
    expect(text).toContain('<dt>From</dt><dd>svc outreach <outreach@svc.example></dd>');
    expect(text).toContain('<dt>To</dt><dd>an address at Example News</dd>');
    expect(text).toContain('<dt>Subject</dt><dd>Measuring cold starts on public nodes</dd>');
    expect(text).toContain('Hello, we measured how cold starts');
    // The footer exactly as src/outreach/mailer.ts appends it, the stop link kept personal.
    expect(text).toContain('written by ann, an AI agent of svc');
    expect(text).toContain('participation policy svc-policy/1: http://svc.test/policy');
    expect(text).toContain('(a personal stop link)');
    expect(text).toContain(POSTAL);
    expect(text.toLowerCase()).not.toContain('reporter@example.org');
    expect(text).not.toMatch(/stop\/[0-9a-f]{64}/);
    // The CLI's queue carries the same footer.
    const queued = runAdmin(t.ctx, ['outreach', 'queue']) as { footer: string; from: string }[];
    expect(queued[0]).toMatchObject({ from: 'svc outreach <outreach@svc.example>', footer: expect.stringContaining(POSTAL) });

    const before = env.relay.messages.length;
    const ok = await act(t, { ...s }, 'outreach approve', { message_id: first.json.message_id, back: 'queue' });
    expect([ok.status, ok.result]).toEqual([200, { message_id: first.json.message_id, status: 'sent' }]);
    expect(env.relay.messages.length).toBe(before + 1);
    // What went out is what the queue showed, with the real stop link in place of the placeholder.
    const raw = env.relay.messages[before]!.raw.replace(/=\r?\n/g, '').replace(/\r\n/g, '\n');
    expect(raw).toContain('written by ann, an AI agent of svc');
    expect(unescaped(ok.text)).toContain('E-mails awaiting approval (1)');
    const no = await act(t, s, 'outreach reject', { message_id: second.json.message_id, back: 'queue' });
    expect(no.result).toEqual({ message_id: second.json.message_id, status: 'refused' });
    expect(unescaped(no.text)).toContain('E-mails awaiting approval (0)');
    const again = await act(t, s, 'outreach reject', { message_id: second.json.message_id, back: 'queue' });
    expect([again.status, again.error]).toEqual([400, `message ${second.json.message_id} is refused, not queued`]);
  });
});

describe('the Outreach page', () => {
  test('shows the set-up, saves it through outreach configure and sets and clears a channel, never showing its URL', async () => {
    const t = await makeOutreachApp(env, { mode: 'review' });
    const s = await signedIn(t);
    const page = unescaped((await send(t, 'GET', '/console/outreach', { cookie: s.cookie })).text);
    expect(page).toContain('<dt>Configured</dt><dd>yes, mode review</dd>');
    expect(page).toContain('<option selected>review</option>');
    expect(page).toContain(`name="postal_address" value="${POSTAL}"`);
    const saved = await act(t, s, 'outreach configure', {
      back: 'outreach',
      domain: 'svc.example',
      mailbox: 'outreach',
      postal_address: POSTAL,
      mode: 'auto',
      forward_to: 'none',
    });
    expect(saved.status).toBe(200);
    expect(unescaped(saved.text)).toContain('<dt>Configured</dt><dd>yes, mode auto</dd>');
    expect(runAdmin(t.ctx, ['outreach', 'status'])).toMatchObject({ mode: 'auto', forward_to: null });
    const set = await act(t, s, 'outreach channel set', { back: 'outreach', channel: 'two', url: 'https://hooks.example/secret-token' });
    expect(set.result).toEqual({ channel: 'two', set: true });
    expect(set.text).toMatch(/Channel <strong>two<\/strong>: set \d{4}-/);
    const shown = (await send(t, 'GET', '/console/outreach', { cookie: s.cookie })).text;
    expect(shown).not.toContain('secret-token');
    const bad = await act(t, s, 'outreach channel set', { back: 'outreach', channel: 'one', url: 'http://hooks.example/x' });
    expect([bad.status, bad.error]).toEqual([400, 'the channel URL must be an https webhook URL']);
    const cleared = await act(t, s, 'outreach channel clear', { back: 'outreach', channel: 'two' });
    expect(cleared.text).toContain('Channel <strong>two</strong>: not set');
  });
});
