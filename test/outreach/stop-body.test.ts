// The stop and unsubscribe POSTs (RFC 8058) take any body or none; the one body they refuse is JSON
// that does not parse, and that refusal is declared in the description and changes nothing.
import { describe, expect, test } from 'bun:test';
import { makeApp } from '../helpers.ts';

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
