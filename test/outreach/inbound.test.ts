// Replies and bounces: real MIME messages through the smtp-server listener and mailauth with a
// fake DNS: a plain (unauthenticated) reply, a DKIM-signed reply, a spoofed sender, an
// out-of-office, a DSN bounce, an opt-out; the stop link and the one-click POST.
import { describe, expect, test } from 'bun:test';
import { generateKeyPairSync } from 'node:crypto';
import nodemailer from 'nodemailer';
import { receiveMessage, startOutreachInbound } from '../../src/outreach/inbound.ts';
import { makeOutreachApp, outreachEnv } from './harness.ts';

const env = outreachEnv();
const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const PRIV = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const PUB = publicKey.export({ type: 'spki', format: 'der' }).toString('base64');

/** A fake DNS: the contact's domain publishes a DKIM key and a DMARC policy, no SPF. */
const resolver = async (name: string, type: string) => {
  if (type === 'TXT' && name === 'sel._domainkey.example.org') return [[`v=DKIM1; k=rsa; p=${PUB}`]];
  if (type === 'TXT' && name === '_dmarc.example.org') return [['v=DMARC1; p=reject']];
  throw Object.assign(new Error(`ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
};

async function mime(opts: Record<string, unknown>, sign = false): Promise<Buffer> {
  const t = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  const info = await t.sendMail({
    ...opts,
    ...(sign ? { dkim: { domainName: 'example.org', keySelector: 'sel', privateKey: PRIV } } : {}),
  });
  return info.message as Buffer;
}

async function setup() {
  const t = await makeOutreachApp(env, {
    more: { SVC_SMTP_IN_PORT: '0', SVC_SMTP_IN_HOST: '127.0.0.1' },
    net: { resolver, ca: env.pages.ca, lookup: async () => [{ address: '127.0.0.1', family: 4 }] },
  });
  const ann = await t.resident('ann');
  const cid = await t.addContact(ann, 'Writer@example.org');
  const sent = await t.email(ann, { contact_id: cid });
  expect(sent.json.status).toBe('sent');
  const ref = `<${sent.json.message_id}@svc.example>`;
  const envelope = { ip: '203.0.113.9', helo: 'mail.example.org', sender: 'writer@example.org' };
  return { t, ann, cid, ref, messageId: sent.json.message_id as string, envelope };
}

const replies = async (s: Awaited<ReturnType<typeof setup>>) => (await s.t.call('GET', '/v1/outreach/sent', { key: s.ann.key })).json.messages[0].replies;

describe('replies through the listener', () => {
  test('a plain reply over SMTP is stored and forwarded, but unauthenticated it is not from_contact', async () => {
    const s = await setup();
    const inbound = await startOutreachInbound(s.t.ctx);
    try {
      const forwardsBefore = env.relay.messages.filter((m) => m.to.includes('owner@svc.example')).length;
      const client = nodemailer.createTransport({ host: '127.0.0.1', port: inbound.port, secure: false, ignoreTLS: true });
      await client.sendMail({
        from: 'Writer@example.org',
        to: 'outreach@svc.example',
        subject: 'Re: Measuring',
        text: 'Thanks, interesting.\n\n> quoted original',
        inReplyTo: s.ref,
        references: [s.ref],
      });
      await expect(client.sendMail({ from: 'x@example.org', to: 'someone@svc.example', subject: 'hi', text: 'hi' })).rejects.toThrow(/550/);
      const r = await replies(s);
      expect(r).toEqual([
        expect.objectContaining({ kind: 'reply', from_contact: false, opt_out: false, excerpt: 'Thanks, interesting.', content_is_untrusted: true }),
      ]);
      expect(env.relay.messages.filter((m) => m.to.includes('owner@svc.example')).length).toBe(forwardsBefore + 1);
    } finally {
      await inbound.stop();
    }
  });
});

describe('authentication and classification', () => {
  test('a DKIM-signed reply from the contacted address (DMARC pass) counts: from_contact true, then answers are allowed', async () => {
    const s = await setup();
    const raw = await mime(
      { from: 'writer@example.org', to: 'outreach@svc.example', subject: 'Re: Measuring', text: 'Yes, send me the data.', inReplyTo: s.ref },
      true,
    );
    const got = await receiveMessage(s.t.ctx, raw, s.envelope);
    expect(got).toMatchObject({ kind: 'reply', from_contact: true, opt_out: false, message_id: s.messageId });
    const contacts = (await s.t.call('GET', '/v1/outreach/contacts', { key: s.ann.key })).json.contacts;
    expect(contacts[0].status).toBe('replied');
    const office = await s.t.call('GET', '/v1/office', { key: s.ann.key });
    expect(office.json.mine.outreach_replies).toEqual([
      expect.objectContaining({ message_id: s.messageId, from_contact: true, excerpt: 'Yes, send me the data.' }),
    ]);
    // After a reply: up to 3 answers, each naming the earlier e-mail.
    const a1 = await s.t.email(s.ann, { contact_id: s.cid, follow_up_of: s.messageId });
    expect(a1.json.status).toBe('sent');
    // A tampered copy of a signed message fails DKIM: not from_contact.
    const tampered = Buffer.from(raw.toString('utf8').replace('send me the data', 'send me the keys'));
    expect((await receiveMessage(s.t.ctx, tampered, s.envelope)).from_contact).toBe(false);
  });

  test('a spoofed sender (a signature of another domain, From the contact) is not from_contact', async () => {
    const s = await setup();
    const t = nodemailer.createTransport({ streamTransport: true, buffer: true });
    const raw = (
      await t.sendMail({
        from: 'writer@example.org',
        to: 'outreach@svc.example',
        subject: 'Re: Measuring',
        text: 'Please wire funds.',
        inReplyTo: s.ref,
        dkim: { domainName: 'attacker.example', keySelector: 'sel', privateKey: PRIV },
      })
    ).message as Buffer;
    const got = await receiveMessage(s.t.ctx, raw, { ip: '198.51.100.7', helo: 'attacker.example', sender: 'bounce@attacker.example' });
    expect(got).toMatchObject({ kind: 'reply', from_contact: false });
  });

  test('an out-of-office is auto and never counts as a reply', async () => {
    const s = await setup();
    const raw = await mime(
      {
        from: 'writer@example.org',
        to: 'outreach@svc.example',
        subject: 'Automatic reply: Measuring',
        text: 'I am out of the office until Monday.',
        inReplyTo: s.ref,
        headers: { 'Auto-Submitted': 'auto-replied' },
      },
      true,
    );
    expect(await receiveMessage(s.t.ctx, raw, s.envelope)).toMatchObject({ kind: 'auto', from_contact: false });
    expect((await s.t.call('GET', '/v1/outreach/contacts', { key: s.ann.key })).json.contacts[0].status).toBe('contacted');
    expect((await s.t.call('GET', '/v1/office', { key: s.ann.key })).json.mine.outreach_replies).toEqual([]);
    // A vacation notice without the header, recognized by its subject.
    const v = await mime({ from: 'writer@example.org', to: 'outreach@svc.example', subject: 'Out of Office', text: 'Away.', inReplyTo: s.ref }, true);
    expect((await receiveMessage(s.t.ctx, v, s.envelope)).kind).toBe('auto');
  });

  test('a DSN bounce marks the contact and the message bounced; it can never be e-mailed again', async () => {
    const s = await setup();
    const boundary = 'dsn-boundary';
    const raw = Buffer.from(
      [
        'From: Mail Delivery System <MAILER-DAEMON@mx.example.org>',
        'To: outreach@svc.example',
        'Subject: Undelivered Mail Returned to Sender',
        'Auto-Submitted: auto-replied',
        `Content-Type: multipart/report; report-type=delivery-status; boundary="${boundary}"`,
        'MIME-Version: 1.0',
        '',
        `--${boundary}`,
        'Content-Type: text/plain',
        '',
        'Your message could not be delivered.',
        `--${boundary}`,
        'Content-Type: message/delivery-status',
        '',
        'Reporting-MTA: dns; mx.example.org',
        '',
        'Final-Recipient: rfc822; writer@example.org',
        'Action: failed',
        'Status: 5.1.1',
        `--${boundary}`,
        'Content-Type: text/rfc822-headers',
        '',
        `Message-ID: ${s.ref}`,
        `--${boundary}--`,
        '',
      ].join('\r\n'),
    );
    expect(await receiveMessage(s.t.ctx, raw, { ip: '203.0.113.9', helo: 'mx.example.org', sender: '' })).toMatchObject({
      kind: 'bounce',
      message_id: s.messageId,
    });
    const sent = (await s.t.call('GET', '/v1/outreach/sent', { key: s.ann.key })).json.messages[0];
    expect(sent.status).toBe('bounced');
    expect((await s.t.call('GET', '/v1/outreach/contacts', { key: s.ann.key })).json.contacts[0].status).toBe('bounced');
    const again = await s.t.email(s.ann, { contact_id: s.cid, follow_up_of: s.messageId });
    expect([again.status, again.json.error.code, again.json.error.details.status]).toEqual([409, 'OUTREACH_CONTACT_UNAVAILABLE', 'bounced']);
  });

  test('an opt-out reply suppresses the address for every agent, for ever', async () => {
    const s = await setup();
    const raw = await mime(
      {
        from: 'writer@example.org',
        to: 'outreach@svc.example',
        subject: 'Re: Measuring',
        text: 'Please remove me from your list and do not contact me again.',
        inReplyTo: s.ref,
      },
      true,
    );
    expect(await receiveMessage(s.t.ctx, raw, s.envelope)).toMatchObject({ kind: 'reply', opt_out: true });
    expect((await s.t.call('GET', '/v1/outreach/contacts', { key: s.ann.key })).json.contacts[0].status).toBe('suppressed');
    const bob = await s.t.resident('bob');
    expect((await s.t.email(bob, { contact_id: s.cid })).json.error.code).toBe('OUTREACH_CONTACT_UNAVAILABLE');
    // Adding the address again (another case) answers the same suppressed contact.
    const dup = await s.t.contact(bob, { email: 'WRITER@example.org', outlet: 'X', source_url: 'https://press.example.org/' });
    expect(dup.json).toEqual({ contact_id: s.cid, duplicate: true });
  });
});

describe('opt-out phrases as people write them', () => {
  const phrases: [string, { text: string; subject?: string }, boolean][] = [
    ['a typographic apostrophe (Mail, Outlook)', { text: 'Please don’t email me again.' }],
    ['the word alone', { text: 'STOP' }],
    ['the word with a full stop, in the subject', { text: 'Sent from my phone', subject: 'Re: Unsubscribe.' }],
    ['remove us from a list', { text: 'Please remove us from your mailing list.' }],
    ['take us off', { text: 'Kindly take us off this list.' }],
  ].map(([name, m]) => [name as string, m as { text: string; subject?: string }, true]);
  phrases.push(['a reply that merely mentions stopping is no opt-out', { text: 'We will stop by your booth next week.' }, false]);
  phrases.push(['"take us off topic" is no opt-out', { text: 'That would take us off topic, but the data is interesting.' }, false]);
  phrases.push(['"remove me" from a sentence about something else is no opt-out', { text: 'Could you remove me as a blocker on the issue? Thanks.' }, false]);
  for (const [name, m, optOut] of phrases) {
    test(`${name} → opt_out ${optOut}`, async () => {
      const s = await setup();
      const raw = await mime(
        { from: 'writer@example.org', to: 'outreach@svc.example', subject: m.subject ?? 'Re: Measuring', text: m.text, inReplyTo: s.ref },
        true,
      );
      expect(await receiveMessage(s.t.ctx, raw, s.envelope)).toMatchObject({ kind: 'reply', opt_out: optOut });
      const status = (await s.t.call('GET', '/v1/outreach/contacts', { key: s.ann.key })).json.contacts[0].status;
      expect(status === 'suppressed').toBe(optOut);
    });
  }
});

describe('the stop link', () => {
  test('GET the stop link and the one-click POST suppress the address; an unknown token is 404', async () => {
    const s = await setup();
    const raw = env.relay.messages.at(-1)!.raw.replace(/=\r?\n/g, '');
    const token = /outreach\/stop\/([0-9a-f]{64})/.exec(raw)![1]!;
    const post = await s.t.app.handle(
      new Request(`http://localhost/outreach/stop/${token}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'List-Unsubscribe=One-Click',
      }),
    );
    expect(post.status).toBe(200);
    expect((await s.t.call('GET', '/v1/outreach/contacts', { key: s.ann.key })).json.contacts[0].status).toBe('suppressed');
    const page = await s.t.app.handle(new Request(`http://localhost/outreach/stop/${token}`));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('You will not hear from svc again');
    expect((await s.t.app.handle(new Request(`http://localhost/outreach/stop/${'0'.repeat(64)}`))).status).toBe(404);
  });
});
