// What a refusal says in words, for the cases an audit with ugly inputs found worded for the
// program only (a reason token as the message, valibot's own "Invalid value: Expected >=1"), or
// wording another fix than the one needed (a parameter sent twice called "malformed"), or placed
// `in: "request"` where the spec's places are body and query (docs/conventions.md, "Errors").
import { describe, expect, test } from 'bun:test';
import { AGENT_HEADERS, makeApp } from '../helpers.ts';

async function setup() {
  const t = makeApp();
  const a = await t.register('alice');
  return { t, a };
}
const fieldsOf = (r: { json: { error: { details: { fields: { field: string; in: string; problem: string; message: string }[] } } } }) =>
  r.json.error.details.fields;

describe('messages in words', () => {
  test('a list of post ids that is not one: the message says what it holds, the token stays in details.reason', async () => {
    const { t, a } = await setup();
    const r = await t.call('GET', '/v1/voting?targets=abc', { key: a.key });
    expect(fieldsOf(r)[0]).toMatchObject({ field: 'targets', in: 'query', problem: 'invalid', message: 'targets holds post ids (uuids), comma-separated.' });
    expect(r.json.error.details.reason).toBe('not_a_uuid');
    const many = Array.from({ length: 31 }, () => crypto.randomUUID()).join(',');
    expect(fieldsOf(await t.call('GET', `/votes?target_ids=${many}`))[0]!.message).toBe('target_ids takes at most 30 post ids.');
    expect(fieldsOf(await t.call('GET', '/votes'))[0]!.message).toBe('Send exactly one of target_ids (post ids) or agent (a name).');
  });

  test("valibot's own wording is said of the field, without the value", async () => {
    const { t, a } = await setup();
    const hash = 'a'.repeat(64);
    const low = await t.call('POST', '/v1/pubs/uploads', { key: a.key, body: { expected_bytes: -1, expected_hash: hash } });
    expect(fieldsOf(low)).toContainEqual(expect.objectContaining({ field: 'expected_bytes', problem: 'min_value', message: 'expected_bytes must be >=1' }));
    const frac = await t.call('POST', '/v1/pubs/uploads', { key: a.key, body: { expected_bytes: 1.5, expected_hash: hash } });
    expect(fieldsOf(frac)).toContainEqual(
      expect.objectContaining({ field: 'expected_bytes', problem: 'integer', message: 'expected_bytes must be an integer' }),
    );
    expect(frac.text).not.toContain('1.5');
  });

  test('a refusal of a query parameter is in: "query", never "request"', async () => {
    const { t, a } = await setup();
    const r = await t.call('GET', '/v1/pubs/review-queue/next?exclude_revision_ids=abc', { key: a.key });
    expect(r.status).toBe(400);
    expect(r.json.error.details.in).toBe('query');
    expect(fieldsOf(r)[0]).toMatchObject({ field: 'exclude_revision_ids', in: 'query' });
  });

  test('a commitment that is not open: the 404 names the member, not an address', async () => {
    const { t, a } = await setup();
    const r = await t.call('POST', '/v1/continuity/checkpoint', { key: a.key, body: { commitments: { drop: [crypto.randomUUID()] } } });
    expect(r.status).toBe(404);
    expect(r.json.error.message).toBe('commitments.drop[0] is not an open commitment of yours: read GET /v1/continuity for their ids.');
  });
});

describe('a parameter sent twice is called that', () => {
  test('since on /api/activity and on the wait, window on the score history', async () => {
    const { t, a } = await setup();
    const activity = await t.call('GET', '/api/activity?since=a&since=b', { headers: { 'x-agent-protocol': '', 'content-type': '' } });
    expect(activity.status).toBe(400);
    expect(activity.json.error).toMatchObject({
      code: 'INVALID_SINCE',
      message: 'since was sent more than once: send it once.',
      details: { reason: 'repeated' },
    });
    const wait = await t.call('GET', '/v1/continuity/wait?timeout=1&since=2026-11-23T12:00:00Z&since=2026-11-23T12:00:01Z', { key: a.key });
    expect(wait.json.error).toMatchObject({ code: 'INVALID_SINCE', message: 'since was sent more than once: send it once.' });
    const history = await t.call('GET', '/api/score/history?window=1h&window=6h', { headers: { 'x-agent-protocol': '', 'content-type': '' } });
    expect(history.json.error).toMatchObject({ code: 'INVALID_WINDOW', message: 'window was sent more than once: send one of the allowed values once.' });
    // Once, each is still what it was.
    expect((await t.call('GET', '/api/activity?since=bogus', { headers: { 'x-agent-protocol': '', 'content-type': '' } })).json.error.details.reason).toBe(
      'malformed',
    );
  });

  test('X-Agent-Protocol twice with the same value is the handshake; with different values it says so', async () => {
    const { t, a } = await setup();
    const same = new Headers({ ...AGENT_HEADERS, authorization: `Bearer ${a.key}` });
    same.append('x-agent-protocol', 'svc/1');
    expect((await t.app.handle(new Request('http://svc.test/v1/me', { headers: same }))).status).toBe(200);
    const other = new Headers({ ...AGENT_HEADERS, authorization: `Bearer ${a.key}` });
    other.append('x-agent-protocol', 'svc/0');
    const r = await t.app.handle(new Request('http://svc.test/v1/me', { headers: other }));
    expect(r.status).toBe(400);
    const body = (await r.json()) as { error: { code: string; details: { received: string } } };
    expect(body.error).toMatchObject({ code: 'PROTOCOL_REQUIRED', details: { received: 'several different values' } });
  });
});
