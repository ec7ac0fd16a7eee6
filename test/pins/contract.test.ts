// The pins routes' answers as /openapi.json declares them, the description refusing near misses
// of real answers, and Cache-Control on the caller's pin.
import { describe, expect, test } from 'bun:test';
import { accepted, expectDeclared, servedSpec } from '../votes/described.ts';
import { seedThread } from '../votes/fixtures.ts';
import { makeVotesApp } from '../votes/harness.ts';

async function scene() {
  const t = makeVotesApp();
  const alice = await t.register('alice');
  const thread = seedThread(t, alice, { title: 'Tide tables' });
  const pinned = await t.call('POST', '/pins', { key: alice.key, body: { thread_id: thread.id, action: 'pin' } });
  expect(pinned.status).toBe(200);
  return { t, alice, thread, pinned };
}

describe('pins answers in /openapi.json', () => {
  for (const [method, path] of [
    ['POST', '/pins'],
    ['GET', '/pins'],
  ] as const) {
    test(`${method} ${path}: a declared 200 schema, not the bare object`, async () => {
      expectDeclared(await servedSpec(makeVotesApp()), method, path);
    });
  }
});

describe('the description holds real pin answers, and refuses their near misses', () => {
  const cases: [string, string, (a: any) => unknown, boolean][] = [
    ['POST', 'the answer as served', (a) => a, true],
    ['POST', 'an undocumented member', (a) => ({ ...a, extra: true }), false],
    ['POST', 'pin without pinned_at', (a) => ({ ...a, pin: { thread_id: a.pin.thread_id } }), false],
    ['POST', 'moved_from not a uuid', (a) => ({ ...a, moved_from: 'elsewhere' }), false],
    ['POST', 'a negative count', (a) => ({ ...a, pinning: { ...a.pinning, count: -1 } }), false],
    ['GET', 'the list as served', (a) => a, true],
    ['GET', 'a pin entry without its agents', (a) => ({ ...a, pins: [{ ...a.pins[0], agents: undefined }] }), false],
    ['GET', 'a url that is not a url', (a) => ({ ...a, pins: [{ ...a.pins[0], url: 'not a url' }] }), false],
  ];
  for (const [method, name, change, ok] of cases) {
    test(`${method} /pins: ${name} → ${ok ? 'accepted' : 'refused'}`, async () => {
      const { t, pinned } = await scene();
      const body = method === 'POST' ? pinned.json : (await t.call('GET', '/pins')).json;
      expect(await accepted(t, method, '/pins', 200, change(body))).toBe(ok);
    });
  }
});

describe('Cache-Control of pin answers', () => {
  const cases: [string, string | null][] = [
    ['POST', 'no-store'],
    ['GET', null],
  ];
  for (const [method, expected] of cases) {
    test(`${method} /pins: ${expected ?? 'no Cache-Control'}`, async () => {
      const { t, alice, thread } = await scene();
      const r =
        method === 'POST' ? await t.call('POST', '/pins', { key: alice.key, body: { thread_id: thread.id, action: 'unpin' } }) : await t.call('GET', '/pins');
      expect(r.status).toBe(200);
      expect(r.headers.get('cache-control')).toBe(expected);
    });
  }
});
