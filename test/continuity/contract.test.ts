// The continuity answers as /openapi.json declares them, the description refusing near misses of
// real answers, and Cache-Control: no-store on every continuity answer (personal state).
import { describe, expect, test } from 'bun:test';
import { accepted, expectDeclared, servedSpec } from '../votes/described.ts';
import { until } from '../until.ts';
import { continuityApp } from './harness.ts';

/** alice with a thread, a reply to it by bobby, a checkpoint and a resume: every list has an item. */
async function scene() {
  const t = continuityApp();
  const alice = await t.register('alice');
  const bobby = await t.register('bobby');
  const before = new Date(t.clock.now()).toISOString();
  t.clock.advance(1000);
  const thread = await t.post(alice.key);
  await t.reply(bobby.key, thread.id, 'A reply to @alice with some words.');
  await t.vote(bobby.key, thread.id);
  const checkpoint = await t.checkpoint(alice.key, {
    focus: 'Tide tables',
    commitments: { open: [{ text: 'Publish the tide tables', due_at: '2026-11-24T12:00:00Z' }] },
    decision: { choice: 'Use the harmonic method', because: 'It matches the published tables within a minute.' },
    public_status: { phase: 'acting', next_action: 'Writing the tables', tool: 'editor' },
    working_note: 'Private: try the 1990 constants.',
  });
  expect(checkpoint.status).toBe(200);
  const mine = await t.post(alice.key, 'My result');
  const closed = await t.checkpoint(alice.key, { commitments: { close: [{ id: checkpoint.json.opened[0].id, evidence: `post:${mine.id}` }] } });
  expect(closed.status).toBe(200);
  const resume = await t.resume(alice.key);
  expect(resume.status).toBe(200);
  const wait = await t.call('GET', `/v1/continuity/wait?timeout=1&since=${before}`, { key: alice.key });
  expect(wait.status).toBe(200);
  return { t, alice, checkpoint, closed, resume, wait };
}

const ROUTES: [string, string][] = [
  ['POST', '/v1/continuity/checkpoint'],
  ['GET', '/v1/continuity'],
  ['GET', '/v1/continuity/wait'],
];

describe('continuity answers in /openapi.json', () => {
  for (const [method, path] of ROUTES) {
    test(`${method} ${path}: a declared 200 schema with Cache-Control no-store`, async () => {
      const { op } = expectDeclared(await servedSpec(continuityApp()), method, path);
      expect(op.responses['200'].headers['Cache-Control'].schema).toEqual({ type: 'string', const: 'no-store' });
    });
  }
});

type Scene = Awaited<ReturnType<typeof scene>>;
const cases: [string, string, (s: Scene) => any, (a: any) => unknown, boolean][] = [
  ['POST', 'a checkpoint as served', (s) => s.checkpoint.json, (a) => a, true],
  ['POST', 'a closing checkpoint as served', (s) => s.closed.json, (a) => a, true],
  ['POST', 'an undocumented member', (s) => s.checkpoint.json, (a) => ({ ...a, saved: true }), false],
  ['POST', 'a commitment without opened_at', (s) => s.checkpoint.json, (a) => ({ ...a, opened: [{ ...a.opened[0], opened_at: undefined }] }), false],
  ['POST', 'evidence that is not a string', (s) => s.closed.json, (a) => ({ ...a, closed: [{ ...a.closed[0], evidence: 1 }] }), false],
  ['POST', 'an unknown phase', (s) => s.checkpoint.json, (a) => ({ ...a, public_status: { ...a.public_status, phase: 'sleeping' } }), false],
  [
    'POST',
    'a public status with a member left out',
    (s) => s.checkpoint.json,
    (a) => ({ ...a, public_status: { ...a.public_status, route: undefined } }),
    false,
  ],
  ['GET', 'a resume as served', (s) => s.resume.json, (a) => a, true],
  [
    'GET',
    'a resume without changes.votes.net',
    (s) => s.resume.json,
    (a) => ({ ...a, changes: { ...a.changes, votes: { ...a.changes.votes, net: undefined } } }),
    false,
  ],
  [
    'GET',
    'a change of an unknown kind',
    (s) => s.resume.json,
    (a) => ({ ...a, changes: { ...a.changes, replies: { ...a.changes.replies, items: [{ ...a.changes.replies.items[0], kind: 'note' }] } } }),
    false,
  ],
  [
    'GET',
    'an unknown direction kind',
    (s) => s.resume.json,
    (a) => ({ ...a, directions: [{ kind: 'hint', id: a.changes.replies.items[0].id, title: null, author: null, at: a.visited_at, url: 'http://svc.test/' }] }),
    false,
  ],
  [
    'GET',
    'a rules direction',
    (s) => s.resume.json,
    (a) => ({
      ...a,
      directions: [
        { kind: 'rules_changed', id: '00000000-0000-7000-8000-000000000002', title: 'Rules', author: null, at: a.visited_at, url: 'http://svc.test/threads/x' },
      ],
    }),
    true,
  ],
  [
    'GET',
    'a rules direction with an excerpt',
    (s) => s.resume.json,
    (a) => ({
      ...a,
      directions: [
        {
          kind: 'rules_changed',
          id: '00000000-0000-7000-8000-000000000002',
          title: 'Rules',
          author: null,
          at: a.visited_at,
          url: 'http://svc.test/threads/x',
          excerpt: 'x',
        },
      ],
    }),
    false,
  ],
  ['GET', 'a negative ext_wanted_new', (s) => s.resume.json, (a) => ({ ...a, ext_wanted_new: -1 }), false],
  ['WAIT', 'a wait answer as served', (s) => s.wait.json, (a) => a, true],
  ['WAIT', 'an unknown event', (s) => s.wait.json, (a) => ({ ...a, event: 'mention' }), false],
  ['WAIT', 'waited_ms not an integer', (s) => s.wait.json, (a) => ({ ...a, waited_ms: 1.5 }), false],
];

describe('the description holds real continuity answers, and refuses their near misses', () => {
  for (const [which, name, pick, change, ok] of cases) {
    test(`${which}: ${name} → ${ok ? 'accepted' : 'refused'}`, async () => {
      const s = await scene();
      const [method, path] = which === 'POST' ? ROUTES[0]! : which === 'GET' ? ROUTES[1]! : ROUTES[2]!;
      expect(await accepted(s.t, method, path, 200, change(pick(s)))).toBe(ok);
    });
  }
  test('the scene really fills every list the near misses change', async () => {
    const { resume, wait } = await scene();
    expect(resume.json.changes.replies.items.length).toBe(1);
    expect(resume.json.changes.votes.count).toBe(1);
    expect(resume.json.public_status).not.toBeNull();
    expect(wait.json.reason).toBe('caught_up');
  });
});

describe('Cache-Control of continuity answers: personal state is never kept by a cache', () => {
  const cases: [string, (s: Scene) => { headers: Headers; status: number }][] = [
    ['POST /v1/continuity/checkpoint', (s) => s.checkpoint],
    ['POST /v1/continuity/checkpoint (closing a commitment)', (s) => s.closed],
    ['GET /v1/continuity', (s) => s.resume],
    ['GET /v1/continuity/wait (caught up)', (s) => s.wait],
  ];
  for (const [name, pick] of cases) {
    test(`${name}: no-store`, async () => {
      const r = pick(await scene());
      expect(r.status).toBe(200);
      expect(r.headers.get('cache-control')).toBe('no-store');
    });
  }
  test('GET /v1/continuity/wait (timed out): no-store', async () => {
    const t = continuityApp();
    const a = await t.register('alice');
    const p = t.call('GET', '/v1/continuity/wait?timeout=1', { key: a.key });
    await until('the wait to subscribe', () => t.ctx.events.size > 0);
    t.clock.advance(1000);
    const r = await p;
    expect(r.json.event).toBe('timeout');
    expect(r.headers.get('cache-control')).toBe('no-store');
  });
  test('a refused checkpoint is no-store too (every error is)', async () => {
    const t = continuityApp();
    const a = await t.register('alice');
    const r = await t.checkpoint(a.key, { decision: { choice: 'x', because: 'short' } });
    expect(r.status).toBe(400);
    expect(r.headers.get('cache-control')).toBe('no-store');
  });
  test('a public read next to it is not no-store: GET /api/office', async () => {
    const t = continuityApp();
    const r = await t.call('GET', '/api/office', { headers: { 'x-agent-protocol': '', 'content-type': '' } });
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toBe('public, max-age=10');
  });
});
