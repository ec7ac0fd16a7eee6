// Internal faults and coded validation, through the shared HTTP layer mounted on a small app.
import { describe, expect, spyOn, test } from 'bun:test';
import { Elysia } from 'elysia';
import * as v from 'valibot';
import { serviceCodes } from '../../src/compose.ts';
import { pageQuery, pageRequest } from '../../src/http/paging.ts';
import { httpPlugin } from '../../src/http/plugin.ts';
import { limitQuery } from '../../src/http/schema.ts';
import { AGENT_HEADERS, makeApp } from '../helpers.ts';

const CODES = serviceCodes();

function harness() {
  const { ctx } = makeApp();
  const app: Elysia = new Elysia();
  const built = app
    .use(httpPlugin(ctx, () => app.routes))
    .get('/v1/boom', () => {
      throw new Error('database password is hunter2 at /srv/secret.ts:12');
    })
    .get('/v1/limited', ({ query }) => ({ limit: query.limit }), { query: v.object({ limit: limitQuery({ max: 200, def: 100 }) }) })
    .get('/v1/paged', ({ query }) => pageRequest('posts', query), { query: v.object(pageQuery({ max: 50, def: 20 })) });
  return (path: string) =>
    built.handle(new Request(`http://localhost${path}`, { headers: AGENT_HEADERS })).then(async (r) => ({ status: r.status, json: (await r.json()) as any }));
}

describe('internal faults', () => {
  test('are 500 INTERNAL, logged, with no stack or message in the body', async () => {
    const get = harness();
    const logged: string[] = [];
    const spy = spyOn(console, 'error').mockImplementation((line: string) => void logged.push(line));
    const res = await get('/v1/boom');
    spy.mockRestore();
    expect(res.status).toBe(500);
    expect(res.json.error.code).toBe('INTERNAL');
    expect(JSON.stringify(res.json)).not.toContain('hunter2');
    expect(JSON.stringify(res.json)).not.toContain('secret.ts');
    expect(logged.join('\n')).toContain('hunter2');
  });
});

describe('limit', () => {
  test.each(['0', '-1', 'abc', '1000000000', '201', '1.5', '', '１０'])('limit=%s is 400 INVALID_LIMIT with min, max, default, example', async (limit) => {
    const res = await harness()(`/v1/limited?limit=${encodeURIComponent(limit)}`);
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe('INVALID_LIMIT');
    expect(res.json.error.details).toMatchObject({ min: 1, max: 200, default: 100 });
    expect(res.json.error.details.example).toBeGreaterThanOrEqual(1);
    // Whatever was wrong with it, the message says what the parameter takes.
    expect(res.json.error.message).toBe('limit must be a whole number from 1 to 200 (100 when omitted).');
  });

  test('a repeated limit is 400 INVALID_LIMIT with the same message', async () => {
    const res = await harness()('/v1/limited?limit=5&limit=6');
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe('INVALID_LIMIT');
    expect(res.json.error.message).toBe('limit must be a whole number from 1 to 200 (100 when omitted).');
  });

  test('a missing limit takes the default, a valid one is a number', async () => {
    const get = harness();
    expect((await get('/v1/limited')).json).toEqual({ limit: 100 });
    expect((await get('/v1/limited?limit=200')).json).toEqual({ limit: 200 });
  });
});

describe('cursors', () => {
  test('before and after together are 400 INVALID_CURSOR', async () => {
    const res = await harness()('/v1/paged?before=cG9zdHM6MQ&after=cG9zdHM6Mg');
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe('INVALID_CURSOR');
  });

  test("another feed's cursor and garbage are refused", async () => {
    const get = harness();
    const inbox = Buffer.from('inbox:5').toString('base64url');
    for (const c of [inbox, 'garbage', '%00']) {
      const res = await get(`/v1/paged?before=${c}`);
      expect(res.status).toBe(400);
      expect(res.json.error.code).toBe('INVALID_CURSOR');
    }
    expect((await get(`/v1/paged?before=${Buffer.from('posts:7').toString('base64url')}`)).json).toEqual({ limit: 20, before: 7 });
  });
});

describe('the codes table', () => {
  test('every code has a status, a message and a fix', () => {
    for (const [code, info] of Object.entries(CODES)) {
      expect(code).toMatch(/^[A-Z][A-Z0-9_]+$/);
      expect(info.status).toBeGreaterThanOrEqual(400);
      expect(info.message.length).toBeGreaterThan(5);
      expect(info.fix.length).toBeGreaterThan(5);
    }
  });
});
