// Post checks are composed explicitly (src/compose.ts) and declare the codes they can raise; the
// board routes' documented errors are derived from those declarations.
import { describe, expect, test } from 'bun:test';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PostCheck } from '../../src/board/checks.ts';
import { serviceParts } from '../../src/compose.ts';
import { fail } from '../../src/http/errors.ts';
import { makeApp } from '../helpers.ts';

const SRC = join(import.meta.dir, '../../src');
const raised = (file: string): string[] => [...readFileSync(file, 'utf8').matchAll(/fail(?:Retry)?\('([A-Z0-9_]+)'/g)].map((m) => m[1]!);

// Where each check's refusals live: codes raised on roots, on replies, or by helpers of both.
const SOURCES: Record<string, { root: string[]; reply: string[]; either: string[] }> = {
  'lab-conventions': {
    root: ['lab/conventions/roots.ts'],
    reply: ['lab/conventions/labels.ts'],
    either: readdirSync(join(SRC, 'lab/conventions'))
      .filter((f) => !['roots.ts', 'labels.ts', 'check.ts'].includes(f))
      .map((f) => `lab/conventions/${f}`),
  },
  'jobs-acceptance': { root: [], reply: ['jobs/acceptance.ts'], either: [] },
  'show-lane': {
    root: ['show/roots.ts'],
    reply: ['show/labels.ts'],
    either: ['show/rules.ts', 'show/quota.ts', 'show/novelty.ts', 'show/text.ts', 'show/evidence.ts', 'show/ranking.ts'],
  },
};

describe('the post checks of the service', () => {
  const checks = serviceParts().postChecks;

  test('are listed in src/compose.ts in the order they run, and every one has its sources here', () => {
    expect(checks.map((c) => c.name)).toEqual(['lab-conventions', 'jobs-acceptance', 'show-lane']);
    for (const c of checks) expect(SOURCES[c.name], c.name).toBeDefined();
  });

  for (const check of serviceParts().postChecks) {
    test(`${check.name} declares every code its sources can raise`, () => {
      const src = SOURCES[check.name]!;
      for (const f of src.root) for (const code of raised(join(SRC, f))) expect(check.codes.root, `${f}: ${code}`).toContain(code as never);
      for (const f of src.reply) for (const code of raised(join(SRC, f))) expect(check.codes.reply, `${f}: ${code}`).toContain(code as never);
      for (const f of src.either)
        for (const code of raised(join(SRC, f))) expect([...check.codes.root, ...check.codes.reply], `${f}: ${code}`).toContain(code as never);
    });
  }

  test("the board's write routes document every code their checks declare", async () => {
    const t = makeApp();
    const doc = (await t.call('GET', '/openapi.json')).json;
    const root = doc.paths['/v1/posts'].post['x-svc-errors'];
    const reply = doc.paths['/v1/posts/{id}/replies'].post['x-svc-errors'];
    for (const c of checks) {
      for (const code of c.codes.root) expect(root).toContain(code);
      for (const code of c.codes.reply) expect(reply).toContain(code);
    }
  });
});

describe('composition is explicit', () => {
  // A check of this test's own, composed into one app only: it runs, and the description follows.
  const noMondays: PostCheck = {
    name: 'no-mondays',
    codes: { root: ['LAB_QUOTA'], reply: [] },
    beforeRoot: () => fail('LAB_QUOTA', { reason: 'test check' }),
  };

  test('an app composed with another check runs it and documents its code; the service app does neither', async () => {
    const parts = serviceParts();
    const custom = makeApp({}, undefined, { ...parts, postChecks: [...parts.postChecks, noMondays] });
    const a = await custom.register('alice');
    const r = await custom.call('POST', '/v1/posts', {
      key: a.key,
      body: { topic: 'general', title: 't', body: 'b' },
      headers: { 'idempotency-key': crypto.randomUUID() },
    });
    expect(r.json.error.code).toBe('LAB_QUOTA');
    expect((await custom.call('GET', '/openapi.json')).json.paths['/v1/posts'].post['x-svc-errors']).toContain('LAB_QUOTA');

    const plain = makeApp();
    const b = await plain.register('bob');
    const ok = await plain.call('POST', '/v1/posts', {
      key: b.key,
      body: { topic: 'general', title: 't', body: 'b' },
      headers: { 'idempotency-key': crypto.randomUUID() },
    });
    expect(ok.status).toBe(200);
    expect((await plain.call('GET', '/openapi.json')).json.paths['/v1/posts'].post['x-svc-errors']).not.toContain('LAB_QUOTA');
  });
});
