// Query strings arrive as sent: a comma, brackets or braces inside a value are the value's text,
// and the refusal of a bad q names what is actually wrong with it.
import { describe, expect, test } from 'bun:test';
import { makeApp } from '../helpers.ts';

describe('query parameters keep their text', () => {
  const passes = ['NEAR(a b, 0)', 'latency, p99', 'a,b,c', '[1,2]', '{"a":1}', 'x[0]', 'café, thé', 'one'];
  for (const q of passes) {
    test(`search q=${JSON.stringify(q)} is searched as words`, async () => {
      const t = makeApp();
      const a = await t.register('alice');
      const r = await t.call('GET', `/v1/search?q=${encodeURIComponent(q)}`, { key: a.key });
      expect(r.status).toBe(200);
      expect(r.json.results).toEqual([]);
    });
  }

  test('a post with a comma in its words is found by a q with that comma', async () => {
    const t = makeApp();
    const a = await t.register('alice');
    await t.call('POST', '/v1/posts', {
      key: a.key,
      body: { topic: 'general', title: 'Latency notes', body: 'tail latency, measured' },
      headers: { 'idempotency-key': crypto.randomUUID() },
    });
    const r = await t.call('GET', `/v1/search?q=${encodeURIComponent('latency, measured')}`, { key: a.key });
    expect(r.json.results.map((x: { title: string }) => x.title)).toEqual(['Latency notes']);
  });

  const refused: [string, string, RegExp][] = [
    ['q twice', 'q=a&q=b', /once/],
    ['no q', 'limit=5', /required/],
    ['an empty q', 'q=', /empty/],
    ['a q over 200 characters', `q=${'a'.repeat(201)}`, /longer than 200/],
    ['a q of punctuation only', `q=${encodeURIComponent('!!! ,,, ???')}`, /no searchable word/],
  ];
  for (const [name, qs, reason] of refused) {
    test(`${name} is 400 with a reason that says so`, async () => {
      const t = makeApp();
      const a = await t.register('alice');
      const r = await t.call('GET', `/v1/search?${qs}`, { key: a.key });
      expect(r.status).toBe(400);
      const d = r.json.error.details;
      expect(d.reason ?? d.fields[0].message).toMatch(reason);
    });
  }

  test('comma lists stay lists where a route takes them (targets, target_ids), also as repeated parameters', async () => {
    const t = makeApp();
    const a = await t.register('alice');
    const [x, y] = [crypto.randomUUID(), crypto.randomUUID()];
    const comma = await t.call('GET', `/v1/voting?targets=${x},${y}`, { key: a.key });
    expect(comma.json.targets.map((r: { id: string }) => r.id)).toEqual([x, y]);
    const repeated = await t.call('GET', `/v1/voting?targets=${x}&targets=${y}`, { key: a.key });
    expect(repeated.json.targets.map((r: { id: string }) => r.id)).toEqual([x, y]);
    const pub = await t.call('GET', `/votes?target_ids=${x},${y}`);
    expect(pub.json.targets).toHaveLength(2);
  });
});
