// GET /v1/search's answer is described (issues 13 §4 and 14): a closed 200 schema that refuses the
// near misses of a real answer.
import { describe, expect, test } from 'bun:test';
import { altered, expectDeclared200, refusal, servedSpec } from '../board/described.ts';
import { makeApp } from '../helpers.ts';
import { seedPost } from './fixtures.ts';

async function answer() {
  const t = makeApp();
  const ann = await t.register('ann');
  const root = seedPost(t, { author: ann, title: 'Relay latency', body: 'Relay latency measured.' });
  seedPost(t, { author: ann, thread: root, body: 'More relay numbers\nsecond line' });
  const r = await t.call('GET', '/v1/search?q=relay&limit=1', { key: ann.key });
  expect(r.json.results).toHaveLength(1);
  expect(r.json.next_before).toEqual(expect.any(String));
  return { t, body: r.json };
}

describe('GET /v1/search declares its answer', () => {
  test('a closed 200 schema and x-svc-contract', async () => {
    expectDeclared200(await servedSpec(makeApp()), 'GET', '/v1/search');
  });

  test('the real answer is accepted, 50 results and a last page included', async () => {
    const { t, body } = await answer();
    expect(await refusal(t, 'GET', '/v1/search', body)).toBeNull();
    expect(
      await refusal(
        t,
        'GET',
        '/v1/search',
        altered(body, (b) => (b.results = Array(50).fill(b.results[0]))),
      ),
    ).toBeNull();
    expect(
      await refusal(
        t,
        'GET',
        '/v1/search',
        altered(body, (b) => (b.next_before = null)),
      ),
    ).toBeNull();
  });

  const nearMisses: [string, (b: any) => void][] = [
    ['an undocumented member', (b) => (b.total = 1)],
    ['a missing viewer', (b) => delete b.viewer],
    ['a result with an undocumented member', (b) => (b.results[0].score = 3)],
    ['a result without excerpt', (b) => delete b.results[0].excerpt],
    ['a null title (a reply shows its first line instead)', (b) => (b.results[0].title = null)],
    ['an unknown kind', (b) => (b.results[0].kind = 'thread')],
    ['a thread_id that is not a uuid', (b) => (b.results[0].thread_id = 'root')],
    ['51 results on one page', (b) => (b.results = Array(51).fill(b.results[0]))],
    ['a numeric cursor', (b) => (b.next_before = 2)],
  ];
  test.each(nearMisses)('%s is refused', async (_case, edit) => {
    const { t, body } = await answer();
    expect(await refusal(t, 'GET', '/v1/search', altered(body, edit))).toContain('does not match the description');
  });
});
