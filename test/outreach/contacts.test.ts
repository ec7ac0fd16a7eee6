// Contacts: the address rules, the source page fetched by the server under the SSRF rules, the
// duplicate in another letter case, the daily allowance; access (not configured, residents only).
import { describe, expect, test } from 'bun:test';
import { runAdmin } from '../../src/admin/cli.ts';
import { makeOutreachApp, outreachEnv } from './harness.ts';

const env = outreachEnv();

describe('access', () => {
  test('503 OUTREACH_NOT_CONFIGURED on every route until configured, then 403 for non-residents', async () => {
    const t = await makeOutreachApp(env, { configure: false });
    const ann = await t.resident('ann');
    for (const [m, p, body] of [
      ['GET', '/v1/outreach/contacts', undefined],
      ['POST', '/v1/outreach/contacts', { email: 'a@example.org', outlet: 'X', source_url: 'https://www.example.org/' }],
      ['GET', '/v1/outreach/sent', undefined],
      ['POST', '/v1/outreach/email', { contact_id: crypto.randomUUID(), subject: 'hello there', body: 'x'.repeat(250), experiment_id: ann.experiment }],
      ['POST', '/v1/outreach/post', { channel: 'one', text: 'hi', experiment_id: ann.experiment }],
    ] as const) {
      const r = await t.call(m, p, { key: ann.key, ...(body ? { body } : {}) });
      expect([p, r.status, r.json.error.code]).toEqual([p, 503, 'OUTREACH_NOT_CONFIGURED']);
    }
    await runAdmin(t.ctx, ['outreach', 'configure', '--domain', 'svc.example', '--mailbox', 'outreach', '--postal-address', '1 Example Street, Berlin']);
    expect((await t.call('GET', '/v1/outreach/contacts', { key: ann.key })).status).toBe(200);
    const bob = await t.register('bob');
    const r = await t.call('GET', '/v1/outreach/contacts', { key: bob.key });
    expect([r.status, r.json.error.code]).toEqual([403, 'OUTREACH_RESIDENTS_ONLY']);
    // A stopped residency no longer passes.
    await runAdmin(t.ctx, ['residency', 'stop', 'ann']);
    const s = await t.call('GET', '/v1/outreach/contacts', { key: ann.key });
    expect([s.status, s.json.error.code]).toEqual([403, 'OUTREACH_RESIDENTS_ONLY']);
    // The default mode after set-up is review.
    expect((await t.call('GET', '/api/office', { headers: { 'x-agent-protocol': '', 'content-type': '' } })).json.outreach).toMatchObject({
      enabled: true,
      mode: 'review',
    });
  });
});

describe('svc admin outreach configure', () => {
  test('--forward-to sets the owner address, stays when left out, and none clears it', async () => {
    const t = await makeOutreachApp(env, { configure: false });
    const base = ['outreach', 'configure', '--domain', 'svc.example', '--mailbox', 'outreach', '--postal-address', '1 Example Street, Berlin'];
    expect(runAdmin(t.ctx, [...base, '--forward-to', 'owner@svc.example'])).toMatchObject({ forward_to: 'owner@svc.example' });
    expect(runAdmin(t.ctx, [...base, '--mode', 'auto'])).toMatchObject({ forward_to: 'owner@svc.example', mode: 'auto' });
    expect(() => runAdmin(t.ctx, [...base, '--forward-to', 'not an address'])).toThrow('--forward-to must be an e-mail address');
    expect(runAdmin(t.ctx, [...base, '--forward-to', 'none'])).toMatchObject({ forward_to: null, mode: 'auto' });
    expect(runAdmin(t.ctx, [...base, '--forward-to', 'owner@svc.example'])).toMatchObject({ forward_to: 'owner@svc.example' });
    expect(runAdmin(t.ctx, [...base, '--forward-to', ''])).toMatchObject({ forward_to: null });
  });
});

describe('contacts', () => {
  test('an outlet, name or beat holding an e-mail address is refused (addresses are never shown again); nothing is stored', async () => {
    const t = await makeOutreachApp(env);
    const ann = await t.resident('ann');
    const url = t.page('press.example.org', '/about', 'writer@example.org');
    for (const [field, value] of [
      ['outlet', 'writer@example.org'],
      ['name', 'Writer <writer@example.org>'],
      ['beat', 'tips to tips@example.org'],
    ] as const) {
      const r = await t.contact(ann, { email: 'writer@example.org', outlet: 'Example News', source_url: url, [field]: value });
      expect([field, r.status, r.json.error.code, r.json.error.details.field]).toEqual([field, 400, 'INVALID_REQUEST', field]);
    }
    expect((await t.call('GET', '/v1/outreach/contacts', { key: ann.key })).json.contacts).toEqual([]);
  });

  test('a valid contact; the same address in another letter case is a duplicate; the address is never shown', async () => {
    const t = await makeOutreachApp(env);
    const ann = await t.resident('ann');
    const url = t.page('press.example.org', '/about', 'Jane.Doe@Example.org');
    const r = await t.contact(ann, { email: 'Jane.Doe@Example.org', outlet: 'Example News', name: 'Jane Doe', beat: 'infrastructure', source_url: url });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ contact_id: expect.any(String), duplicate: false });
    const again = await t.contact(ann, { email: 'jane.doe@EXAMPLE.ORG', outlet: 'Example News', source_url: url });
    expect(again.json).toEqual({ contact_id: r.json.contact_id, duplicate: true });
    const list = await t.call('GET', '/v1/outreach/contacts?outlet=example%20news', { key: ann.key });
    expect(list.json.contacts).toEqual([
      {
        contact_id: r.json.contact_id,
        outlet: 'Example News',
        outlet_domain: 'example.org',
        name: 'Jane Doe',
        beat: 'infrastructure',
        status: 'new',
        first_contact_at: null,
        contactable_now: true,
      },
    ]);
    expect(list.text.toLowerCase()).not.toContain('jane.doe@');
    expect((await t.call('GET', '/v1/outreach/contacts?q=infra', { key: ann.key })).json.contacts).toHaveLength(1);
    expect((await t.call('GET', '/v1/outreach/contacts?q=sports', { key: ann.key })).json.contacts).toHaveLength(0);
  });

  test('free-mail, the country-code domain and role addresses are refused, each with its code', async () => {
    const t = await makeOutreachApp(env);
    const ann = await t.resident('ann');
    const url = 'https://press.example.org/x';
    const cases: [string, string][] = [
      ['someone@gmail.com', 'OUTREACH_FREE_MAIL'],
      ['someone@mail.proton.me', 'OUTREACH_FREE_MAIL'],
      ['editor@lenta.ru', 'OUTREACH_BLOCKED_DOMAIN'],
      ['editor@news.spb.ru', 'OUTREACH_BLOCKED_DOMAIN'],
      ['no-reply@example.org', 'OUTREACH_ROLE_ADDRESS'],
      ['NoReply+x@example.org', 'OUTREACH_ROLE_ADDRESS'],
      ['privacy@example.org', 'OUTREACH_ROLE_ADDRESS'],
      ['legal@example.org', 'OUTREACH_ROLE_ADDRESS'],
      ['abuse@example.org', 'OUTREACH_ROLE_ADDRESS'],
      ['security@example.org', 'OUTREACH_ROLE_ADDRESS'],
      ['not an address', 'OUTREACH_INVALID_EMAIL'],
      ['a@b@example.org', 'OUTREACH_INVALID_EMAIL'],
    ];
    for (const [email, code] of cases) {
      const r = await t.contact(ann, { email, outlet: 'X', source_url: url });
      expect([email, r.status, r.json.error.code]).toEqual([email, 422, code]);
    }
    // A near miss: a press address on a normal domain whose local part only contains a role word.
    const ok = await t.contact(ann, {
      email: 'security.desk.editor@example.org',
      outlet: 'X',
      source_url: t.page('press.example.org', '/sec', 'security.desk.editor@example.org'),
    });
    expect(ok.status).toBe(200);
    // The blocked TLD is a setting.
    const t2 = await makeOutreachApp(env, { more: { SVC_OUTREACH_BLOCKED_TLD: 'org' } });
    const bo = await t2.resident('bob');
    expect((await t2.contact(bo, { email: 'x.y@example.org', outlet: 'X', source_url: url })).json.error.code).toBe('OUTREACH_BLOCKED_DOMAIN');
  });

  test('source_url: private and disguised addresses, a private host, a redirect to a private address — refused, nothing stored', async () => {
    const t = await makeOutreachApp(env);
    const ann = await t.resident('ann');
    const email = 'writer@example.org';
    t.page('press.example.org', '/hop', email, { status: 302, headers: { location: 'https://[::ffff:169.254.169.254]/latest/meta-data' } });
    t.page('press.example.org', '/hop-name', email, { status: 301, headers: { location: 'https://intranet.example.org/' } });
    const cases: [string, string, string | undefined][] = [
      ['https://127.0.0.1/', 'OUTREACH_SOURCE_DOMAIN', undefined],
      ['https://[::ffff:169.254.169.254]/', 'OUTREACH_SOURCE_DOMAIN', undefined],
      ['https://2130706433/', 'OUTREACH_SOURCE_DOMAIN', undefined],
      ['https://0177.0.0.1/', 'OUTREACH_SOURCE_DOMAIN', undefined],
      ['http://press.example.org/team', 'OUTREACH_SOURCE_NOT_PUBLIC', 'scheme'],
      ['https://intranet.example.org/team', 'OUTREACH_SOURCE_NOT_PUBLIC', 'private_address'],
      ['https://user:pw@press.example.org/team', 'OUTREACH_SOURCE_NOT_PUBLIC', 'userinfo'],
      [`https://press.example.org:${env.pages.port}/hop`, 'OUTREACH_SOURCE_NOT_PUBLIC', 'private_address'],
      [`https://press.example.org:${env.pages.port}/hop-name`, 'OUTREACH_SOURCE_NOT_PUBLIC', 'private_address'],
      [`https://press.example.org:${env.pages.port}/missing`, 'OUTREACH_SOURCE_UNREACHABLE', 'status'],
      ['https://gone.example.org/team', 'OUTREACH_SOURCE_UNREACHABLE', 'dns'],
      [`https://other.example.net:${env.pages.port}/team`, 'OUTREACH_SOURCE_DOMAIN', undefined],
    ];
    for (const [source_url, code, reason] of cases) {
      const r = await t.contact(ann, { email, outlet: 'X', source_url });
      expect([source_url, r.status, r.json.error.code, r.json.error.details?.reason]).toEqual([source_url, 422, code, reason ?? r.json.error.details?.reason]);
      if (reason) expect(r.json.error.details.reason).toBe(reason);
    }
    // The page must show the address.
    const elsewhere = t.page('press.example.org', '/other', 'someone.else@example.org');
    expect((await t.contact(ann, { email, outlet: 'X', source_url: elsewhere })).json.error.code).toBe('OUTREACH_SOURCE_NO_ADDRESS');
    expect((await t.call('GET', '/v1/outreach/contacts', { key: ann.key })).json.contacts).toEqual([]);
    // Without the test-only loopback switch the same loopback page is refused as private.
    const t2 = await makeOutreachApp(env, { more: { SVC_FETCH_ALLOW_LOOPBACK: '0' } });
    const bo = await t2.resident('bob');
    const url = t2.page('press.example.org', '/ok', email);
    const r = await t2.contact(bo, { email, outlet: 'X', source_url: url });
    expect([r.json.error.code, r.json.error.details.reason]).toEqual(['OUTREACH_SOURCE_NOT_PUBLIC', 'private_address']);
    // The address shown with an entity on a subdomain page counts.
    const encoded = t.page('www.example.org', '/staff', email, { body: '<p>writer&#64;example.org</p>' });
    expect((await t.contact(ann, { email, outlet: 'X', source_url: encoded })).status).toBe(200);
  });

  test('at most 30 new contacts per agent per day (UTC: the spec names no Moscow day here); duplicates do not count', async () => {
    const t = await makeOutreachApp(env, { more: { SVC_OUTREACH_CONTACTS_PER_DAY: '2' }, start: '2026-11-23T23:00:00Z' });
    const ann = await t.resident('ann');
    await t.addContact(ann, 'one@example.org');
    await t.addContact(ann, 'two@example.org');
    expect((await t.contact(ann, { email: 'ONE@example.org', outlet: 'X', source_url: 'https://press.example.org/' })).json.duplicate).toBe(true);
    const url = t.page('press.example.org', '/three', 'three@example.org');
    const r = await t.contact(ann, { email: 'three@example.org', outlet: 'X', source_url: url });
    expect([r.status, r.json.error.code, r.json.error.details.retry_at]).toEqual([429, 'OUTREACH_CONTACT_LIMIT', '2026-11-24T00:00:00.000Z']);
    t.clock.advance(60 * 60_000 + 1000);
    expect((await t.contact(ann, { email: 'three@example.org', outlet: 'X', source_url: url })).status).toBe(200);
  });
});
