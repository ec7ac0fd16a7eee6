// The votes routes' answers as /openapi.json declares them (valibot schemas, marked x-svc-contract),
// the description refusing near misses of real answers, and Cache-Control on the caller's state.
import { describe, expect, test } from 'bun:test';
import { seedThread } from './fixtures.ts';
import { accepted, expectDeclared, servedSpec } from './described.ts';
import { makeVotesApp } from './harness.ts';

async function scene() {
  const t = makeVotesApp();
  const alice = await t.register('alice');
  const bob = await t.register('bob');
  const post = seedThread(t, alice);
  const cast = await t.call('POST', '/votes', { key: bob.key, body: { target_id: post.id, value: 1 } });
  expect(cast.status).toBe(200);
  return { t, alice, bob, post, cast };
}

describe('votes answers in /openapi.json', () => {
  const routes: [string, string][] = [
    ['POST', '/votes'],
    ['GET', '/votes'],
    ['GET', '/v1/voting'],
  ];
  for (const [method, path] of routes) {
    test(`${method} ${path}: a declared 200 schema, not the bare object`, async () => {
      expectDeclared(await servedSpec(makeVotesApp()), method, path);
    });
  }

  test('GET /votes declares both shapes: by target ids and by agent', async () => {
    const { schema } = expectDeclared(await servedSpec(makeVotesApp()), 'GET', '/votes');
    expect(schema.anyOf.map((s: { required: string[] }) => s.required.sort())).toEqual([
      ['content_is_untrusted', 'generated_at', 'targets'],
      ['agent', 'cast', 'content_is_untrusted', 'generated_at', 'received'],
    ]);
  });
});

describe('the description holds real vote answers, and refuses their near misses', () => {
  const cases: [string, (a: any) => unknown, boolean][] = [
    ['the answer as served', (a) => a, true],
    ['an undocumented member', (a) => ({ ...a, extra: 1 }), false],
    ['a member left out', ({ duplicate: _, ...a }) => a, false],
    ['a weight of 4', (a) => ({ ...a, vote: { ...a.vote, weight: 4 } }), false],
    ['a value of 0', (a) => ({ ...a, vote: { ...a.vote, value: 0 } }), false],
    ['a fractional score', (a) => ({ ...a, score: 1.5 }), false],
    ['a voting state without progress', (a) => ({ ...a, voting: { ...a.voting, progress: undefined } }), false],
    ['an unknown voting state', (a) => ({ ...a, voting: { ...a.voting, state: 'paused' } }), false],
    ['a resets_at that is not a time', (a) => ({ ...a, voting: { ...a.voting, resets_at: 'midnight' } }), false],
  ];
  for (const [name, change, ok] of cases) {
    test(`POST /votes: ${name} → ${ok ? 'accepted' : 'refused'}`, async () => {
      const { t, cast } = await scene();
      expect(await accepted(t, 'POST', '/votes', 200, change(cast.json))).toBe(ok);
    });
  }

  const reads: [string, (s: Awaited<ReturnType<typeof scene>>) => string, (a: any) => unknown, boolean][] = [
    ['by target ids', (s) => `/votes?target_ids=${s.post.id}`, (a) => a, true],
    [
      'by target ids, a voter without its weight',
      (s) => `/votes?target_ids=${s.post.id}`,
      (a) => ({
        targets: [{ ...a.targets[0], voters: [{ ...a.targets[0].voters[0], weight: undefined }] }],
        generated_at: a.generated_at,
        content_is_untrusted: true,
      }),
      false,
    ],
    ['by agent', () => '/votes?agent=alice', (a) => a, true],
    ['by agent, content_is_untrusted false', () => '/votes?agent=alice', (a) => ({ ...a, content_is_untrusted: false }), false],
    ['availability', (s) => `/v1/voting?targets=${s.post.id}`, (a) => a, true],
    ['availability, an unknown reason', (s) => `/v1/voting?targets=${s.post.id}`, (a) => ({ ...a, targets: [{ ...a.targets[0], reason: 'busy' }] }), false],
  ];
  for (const [name, path, change, ok] of reads) {
    test(`GET ${name} → ${ok ? 'accepted' : 'refused'}`, async () => {
      const s = await scene();
      const url = path(s);
      const r = await s.t.call('GET', url, url.startsWith('/v1/') ? { key: s.bob.key } : {});
      expect(r.status).toBe(200);
      expect(await accepted(s.t, 'GET', url.split('?')[0]!, 200, change(r.json))).toBe(ok);
    });
  }
});

describe('Cache-Control of vote answers', () => {
  // The caller's voting state is personal: never kept by a cache. The public record is not.
  const cases: [string, string, 'bob' | null, string | null][] = [
    ['POST', '/votes', 'bob', 'no-store'],
    ['GET', '/v1/voting?targets={post}', 'bob', 'no-store'],
    ['GET', '/votes?target_ids={post}', null, null],
    ['GET', '/votes?agent=alice', null, null],
  ];
  for (const [method, path, who, expected] of cases) {
    test(`${method} ${path}: ${expected ?? 'no Cache-Control'}`, async () => {
      const { t, bob, post } = await scene();
      const body = method === 'POST' ? { target_id: post.id, value: 1 } : undefined;
      const r = await t.call(method, path.replace('{post}', post.id), { ...(who ? { key: bob.key } : {}), body });
      expect(r.status).toBe(200);
      expect(r.headers.get('cache-control')).toBe(expected);
    });
  }
});
