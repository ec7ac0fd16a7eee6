// The stop and unsubscribe POSTs (RFC 8058) take any body or none; the one body they refuse is JSON
// that does not parse, and that refusal is declared in the description and changes nothing.
import { describe, expect, test } from 'bun:test';
import { makeApp } from '../helpers.ts';
import { makeOutreachApp, outreachEnv } from './harness.ts';

const env = outreachEnv();

const PATHS = ['/outreach/stop/{token}', '/outreach/unsubscribe/{token}'];

describe('the stop POSTs and their bodies', () => {
  test('a body declared as JSON that does not parse is 400 INVALID_JSON, as the description says', async () => {
    const t = makeApp();
    const doc = (await t.call('GET', '/openapi.json')).json;
    for (const path of PATHS) {
      expect(doc.paths[path].post['x-error-codes'] ?? JSON.stringify(doc.paths[path].post.responses)).toContain('INVALID_JSON');
      const r = await t.call('POST', path.replace('{token}', 'no-such-token'), {
        raw: new TextEncoder().encode('{"List-Unsubscribe":'),
        headers: { 'content-type': 'application/json', 'x-agent-protocol': '' },
      });
      expect([r.status, r.json.error.code]).toEqual([400, 'INVALID_JSON']);
    }
  });

  test("RFC 8058's form body and an empty body are read as the POST they are (an unknown token: 404)", async () => {
    const t = makeApp();
    for (const path of PATHS) {
      for (const [type, body] of [
        ['application/x-www-form-urlencoded', 'List-Unsubscribe=One-Click'],
        ['text/plain', ''],
      ] as const) {
        const r = await t.call('POST', path.replace('{token}', 'no-such-token'), {
          raw: new TextEncoder().encode(body),
          headers: { 'content-type': type, 'x-agent-protocol': '' },
        });
        expect(r.status).toBe(404);
      }
    }
  });
});

describe('an unknown token (audit-api item 12: every failure gets the envelope)', () => {
  test('the POSTs answer 404 NOT_FOUND in the envelope, saying the link is unknown or expired; the GETs keep their HTML page', async () => {
    const t = makeApp();
    for (const path of PATHS) {
      for (const token of ['no-such-token', 'a'.repeat(64)]) {
        const url = path.replace('{token}', token);
        const r = await t.call('POST', url, {
          raw: new TextEncoder().encode('List-Unsubscribe=One-Click'),
          headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-agent-protocol': '', accept: '' },
        });
        expect([url, r.status, r.headers.get('content-type')]).toEqual([url, 404, 'application/json; charset=utf-8']);
        expect(r.json).toEqual({
          error: { code: 'NOT_FOUND', message: expect.stringMatching(/unknown or expired/), details: { reason: 'unknown_link' } },
          docs: 'http://svc.test/docs/errors#NOT_FOUND',
        });
        const page = await t.call('GET', url, { headers: { 'x-agent-protocol': '', accept: 'text/html', 'content-type': '' } });
        expect([url, page.status, page.headers.get('content-type')?.split(';')[0]]).toEqual([url, 404, 'text/html']);
      }
    }
    // The description says so: NOT_FOUND among the POSTs' errors, no text/plain 404.
    const doc = (await t.call('GET', '/openapi.json')).json;
    for (const path of PATHS) {
      const op = doc.paths[path].post;
      expect(JSON.stringify(op.responses['404'])).not.toContain('text/plain');
      expect(op['x-error-codes'] ?? JSON.stringify(op.responses)).toContain('NOT_FOUND');
    }
  });
});

describe('a known token', () => {
  test('each POST answers 200 text/plain (RFC 8058 asks only for success) and suppresses the address', async () => {
    const t = await makeOutreachApp(env);
    const ann = await t.resident('ann');
    for (const [i, path] of PATHS.entries()) {
      const cid = await t.addContact(ann, `reader${i}@example.org`);
      const token = t.ctx.db.query<{ stop_token: string }, [string]>('SELECT stop_token FROM outreach_contacts WHERE id = ?').get(cid)!.stop_token;
      const r = await t.call('POST', path.replace('{token}', token), {
        raw: new TextEncoder().encode('List-Unsubscribe=One-Click'),
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-agent-protocol': '', accept: '' },
      });
      expect([r.status, r.headers.get('content-type'), r.text]).toEqual([200, 'text/plain; charset=utf-8', 'unsubscribed\n']);
      const contacts = (await t.call('GET', '/v1/outreach/contacts', { key: ann.key })).json.contacts;
      expect(contacts.find((c: { contact_id: string }) => c.contact_id === cid)?.status).toBe('suppressed');
    }
  });
});
