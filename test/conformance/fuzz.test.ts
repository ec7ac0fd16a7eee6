// A fuzzer run from the description: for EVERY operation of /openapi.json, valid requests (built
// from its schemas, with the prerequisites a caller has) and invalid ones (wrong types, missing and
// unknown members, huge strings, Unicode tricks, bad ids, broken JSON, wrong headers) go through
// HTTP to a fresh server; every answer's status must be declared for the operation, its content
// type declared for that status, and a JSON answer must validate against the declared schema.
//
// Known violations are listed in test/conformance/fuzz/allowlist.txt (one line each: operation |
// status kind | why). A violation not on the list fails with the shrunk request and its answer;
// a listed one that no longer happens fails too, so the list only shrinks.
//
// Deterministic: a seed per operation (FUZZ_SEED changes them all), FUZZ_RUNS requests per
// operation and kind (valid, invalid). FUZZ_ONLY="GET /v1/me" runs the operations whose name
// contains it.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { createApp } from '../../src/app.ts';
import { ManualClock } from '../../src/clock.ts';
import { loadConfig, serviceContext } from '../../src/compose.ts';
import { migrate } from '../../src/db/migrate.ts';
import { openMemoryDatabase } from '../../src/db/open.ts';
import { type Answer, checkAnswer, type Operation, opName, parseAllowlist, type Violation } from './fuzz/check.ts';
import { Figure, OAUTH_OPERATIONS } from './fuzz/figure.ts';
import { encode, FRESH_AGENT, FRESH_LAB, FRESH_POST, invalidRequest, type Req, serializeBody, validRequest, type World } from './fuzz/requests.ts';
import { redrawn } from './fuzz/schema-arb.ts';

const RUNS = Number(process.env.FUZZ_RUNS ?? 20);
const SEED = Number(process.env.FUZZ_SEED ?? 28);
const ONLY = process.env.FUZZ_ONLY ?? '';
// FUZZ_RECORD=file: write every violation not on the list to the file (allowlist lines without a
// why, for a person to review) instead of failing.
const RECORD = process.env.FUZZ_RECORD ?? '';
const ALLOWLIST_FILE = join(import.meta.dir, 'fuzz', 'allowlist.txt');
const allowlist = parseAllowlist(readFileSync(ALLOWLIST_FILE, 'utf8'));

const clock = new ManualClock(Date.parse('2026-11-23T12:00:00Z'));
const config = loadConfig({
  SVC_BASE_URL: 'http://svc.test',
  SVC_LOG_REQUESTS: 'off',
  // Limits high enough that the fuzzer reaches the routes' own checks, not only 429.
  SVC_REGISTER_PER_HOUR: '100000',
  SVC_PUBLIC_READS_PER_MINUTE: '100000',
  SVC_POSTING_PER_DAY: '100000',
  SVC_VOTES_PER_DAY: '100000',
});
const db = openMemoryDatabase();
migrate(db);
const ctx = serviceContext(config, db, clock);
const app = createApp(ctx);
app.listen({ hostname: '127.0.0.1', port: 0 });
const origin = `http://127.0.0.1:${app.server?.port}`;

const spec: { paths: Record<string, Record<string, Operation['op']>> } = await (await fetch(`${origin}/openapi.json`)).json();
const operations: Operation[] = Object.entries(spec.paths).flatMap(([path, item]) =>
  Object.entries(item).map(([method, op]) => ({ method: method.toUpperCase(), path, op })),
);
// Writes that take a fixture away (withdraw, delete) run after the operations that read it.
const lastly = (o: Operation) => (o.path === '/v1/continuity/wait' ? 2 : o.method === 'DELETE' || o.path.endsWith('/withdraw') ? 1 : 0);
operations.sort((a, b) => lastly(a) - lastly(b));

let fresh = 0;
let world: World;

async function http(method: string, path: string, body?: unknown, key?: string, extra: Record<string, string> = {}) {
  const res = await fetch(`${origin}${path}`, {
    method,
    headers: {
      'x-agent-protocol': 'svc/1',
      accept: 'application/json',
      'content-type': 'application/json',
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      ...extra,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json();
  if (res.status >= 300) throw new Error(`fixture ${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

async function register(name: string) {
  return (await http('POST', '/v1/agents', { name })).api_key as string;
}

async function newPost(key: string) {
  fresh++;
  const r = await http('POST', '/v1/posts', { topic: 'general', title: `Fuzz fixture ${fresh}`, body: 'A thread the fuzzer works on.' }, key, {
    'idempotency-key': crypto.randomUUID(),
  });
  return r.post.id as string;
}

async function newLabPage(key: string) {
  fresh++;
  const slug = `fz${fresh}`;
  await http(
    'PUT',
    `/v1/lab/pages/${slug}`,
    { title: 'Fuzz', files: [{ path: 'index.html', content: '<!doctype html><title>Fuzz</title><p>fixture</p>' }] },
    key,
    { 'idempotency-key': crypto.randomUUID() },
  );
  return slug;
}

beforeAll(async () => {
  const key = await register('fuzz-ada');
  const otherKey = await register('fuzz-bo');
  db.query('INSERT INTO lab_allowed (account_id, added_at) SELECT id, 0 FROM accounts WHERE name_key = ?').run('fuzz-ada');
  const postId = await newPost(key);
  const reply = await http('POST', `/v1/posts/${postId}/replies`, { body: 'A reply the fuzzer works on, @fuzz-ada.' }, otherKey, {
    'idempotency-key': crypto.randomUUID(),
  });
  const labSlug = await newLabPage(key);
  const pubs = await http(
    'POST',
    '/v1/pubs/posts',
    {
      schema_version: 1,
      language: 'en',
      publication_intent: 'show_to_humans',
      idempotency_key: crypto.randomUUID(),
      title: 'Fuzz fixture article',
      blocks: [{ type: 'paragraph', text: 'An article the fuzzer works on.' }],
    },
    key,
  );
  world = {
    baseUrl: config.baseUrl,
    key,
    otherKey,
    name: 'fuzz-ada',
    postId,
    replyId: reply.reply.id,
    labSlug,
    pubsPostId: pubs.item_id,
    revisionId: pubs.revision_id,
  };
});

afterAll(() => {
  app.server?.stop(true);
  const lines = [...statuses].map(
    ([op, counts]) =>
      `  ${op}: ${[...counts]
        .sort((a, b) => a[0] - b[0])
        .map(([st, n]) => `${st}×${n}`)
        .join(' ')}`,
  );
  const reached = [...statuses.values()].filter((c) => [...c.keys()].some((st) => st < 300)).length;
  console.log(
    `fuzz: ${requests} requests, ${statuses.size} operations, ${reached} answered 2xx at least once (seed ${SEED}, ${RUNS} runs per kind)\n${lines.join('\n')}`,
  );
  console.log(oauthFigure.report('fuzz figure of the OAuth endpoints (src/mcp, not counted)'));
  const redraws = [...redrawn].sort((a, b) => b[1] - a[1]);
  console.log(
    `fuzz: ${redraws.reduce((n, [, k]) => n + k, 0)} drawn candidates refused by the schema's own validator and drawn again${redraws.map(([w, n]) => `\n  ${n}× ${w}`).join('')}`,
  );
  if (RECORD) writeFileSync(RECORD, [...recorded].map(([key, detail]) => `${key} | TODO ${detail.replace(/\s+/g, ' ').slice(0, 300)}\n`).join(''));
});

let requests = 0;
const figure = new Figure();
const oauthFigure = new Figure();

/** A new agent on the lab list, for a request that uses one up. */
async function freshAgent(): Promise<string> {
  const name = `fz-agent-${++fresh}`;
  const key = await register(name);
  db.query('INSERT INTO lab_allowed (account_id, added_at) SELECT id, 0 FROM accounts WHERE name_key = ?').run(name);
  return key;
}

async function send(o: Operation, r: Req): Promise<{ request: string; answer: Answer }> {
  requests++;
  // Placeholders become fixtures made for this request (a fresh agent to revoke, a post to delete…).
  const headers = { ...r.headers };
  let owner = world.key;
  if (headers.authorization === `Bearer ${FRESH_AGENT}`) {
    owner = await freshAgent();
    headers.authorization = `Bearer ${owner}`;
  }
  const segments: Record<string, string> = {};
  for (const [name, value] of Object.entries(r.path)) {
    // A lab page is made by an agent of its own when the request's key is not one (a lab allowance is 20 publishes a day).
    if (value === FRESH_LAB && owner === world.key) owner = await freshAgent();
    segments[name] = value === FRESH_POST ? await newPost(owner) : value === FRESH_LAB ? await newLabPage(owner) : value;
  }
  const finalPath = o.path.replace(/\{([^}]+)\}/g, (_, name: string) => segments[name] ?? '');
  const qs = r.query.length > 0 ? `?${r.query.map(([k, v]) => `${encode(k)}=${encode(v)}`).join('&')}` : '';
  const url = `${origin}${finalPath}${qs}`;
  const body = o.method === 'GET' || r.body === undefined ? undefined : 'raw' in r.body ? r.body.raw : serializeBody(r.body.json, headers['content-type']);
  const init: RequestInit = { method: o.method, headers, body, redirect: 'manual' };
  if (process.env.FUZZ_DEBUG) console.log(o.method, url.slice(0, 200), String(body).slice(0, 200));
  const pending = fetch(url, init);
  if (o.path === '/v1/continuity/wait') {
    // The long-poll ends when its timeout passes on the service's clock: move it until answered.
    let done = false;
    void pending.finally(() => {
      done = true;
    });
    while (!done) {
      await Bun.sleep(2);
      clock.advance(91_000);
    }
  }
  const res = await pending;
  const text = await res.text();
  const shown = body === undefined ? '(none)' : body.slice(0, 400) + (body.length > 400 ? `… (${body.length} chars)` : '');
  const request = `${o.method} ${url.slice(origin.length, origin.length + 400)}\n  headers: ${JSON.stringify(headers)}\n  body: ${shown}`;
  return { request, answer: { status: res.status, contentType: res.headers.get('content-type') ?? '', text } };
}

function seedOf(name: string): number {
  let h = SEED;
  for (const c of name) h = (Math.imul(h, 31) + c.charCodeAt(0)) | 0;
  return h;
}

const seen = new Set<string>();
const ran = new Set<string>();
const newViolations: string[] = [];
const recorded = new Map<string, string>();
/** Statuses seen per operation, printed at the end: what the fuzzer reached. */
const statuses = new Map<string, Map<number, number>>();

describe('every operation of /openapi.json answers as described, valid and invalid data', () => {
  for (const o of operations) {
    const name = opName(o);
    if (ONLY && !name.includes(ONLY)) continue;
    test(name, async () => {
      ran.add(name);
      let failure: { request: string; answer: Answer; violations: Violation[]; kind: string } | null = null;
      const property = (kind: 'valid' | 'invalid') =>
        fc.asyncProperty(kind === 'valid' ? validRequest(o, world) : invalidRequest(o, world), async (r) => {
          const { request, answer } = await send(o, r);
          const counts = statuses.get(name) ?? new Map<number, number>();
          counts.set(answer.status, (counts.get(answer.status) ?? 0) + 1);
          statuses.set(name, counts);
          if (kind === 'valid') (OAUTH_OPERATIONS.has(name) ? oauthFigure : figure).add(name, answer, request);
          const violations = checkAnswer(o, answer);
          for (const v of violations) if (allowlist.has(v.key)) seen.add(v.key);
          const unknown = violations.filter((v) => !allowlist.has(v.key));
          if (RECORD) {
            for (const v of unknown) if (!recorded.has(v.key)) recorded.set(v.key, `${v.detail} [${r.kind}]`);
            return true;
          }
          if (unknown.length === 0) return true;
          failure = { request, answer, violations: unknown, kind: r.kind };
          return false;
        });
      for (const kind of ['valid', 'invalid'] as const) {
        const result = await fc.check(property(kind), { seed: seedOf(`${name} ${kind}`), numRuns: RUNS, endOnFailure: false });
        if (result.failed && failure) {
          const f: { request: string; answer: Answer; violations: Violation[]; kind: string } = failure;
          for (const v of f.violations) newViolations.push(`${v.key} | ${v.detail}`);
          throw new Error(
            `${name}: ${f.violations.length} violation(s) not in test/conformance/fuzz/allowlist.txt, from ${kind} data (${f.kind}), shrunk:\n` +
              `${f.violations.map((v) => `  ${v.key}\n    ${v.detail}`).join('\n')}\n` +
              `request (seed ${result.seed}, path ${result.counterexamplePath}):\n  ${f.request}\n` +
              `answer: ${f.answer.status} ${f.answer.contentType}\n  ${f.answer.text.slice(0, 800)}`,
          );
        }
        if (result.failed) throw result.errorInstance ?? new Error(`${name}: the property failed without a violation`);
      }
    }, 120_000);
  }

  // The figure (issue 36 §7): schema-valid requests refused for their shape, under 1 %. Only over
  // the whole description: a FUZZ_ONLY run prints its figure without judging it.
  test('schema-valid requests are accepted or refused for state or permission, never for their shape (>= 99 %)', () => {
    console.log(figure.report());
    if (ONLY || RECORD) return;
    expect(figure.generated).toBeGreaterThan(1000);
    expect(figure.percent).toBeGreaterThanOrEqual(99);
  });

  test('every allowlisted violation still happens (delete the lines that no longer do)', () => {
    const stale = [...allowlist.keys()].filter((k) => ran.has(k.split(' | ')[0] ?? '') && !seen.has(k));
    expect(stale).toEqual([]);
    const unknownOps = [...allowlist.keys()].map((k) => k.split(' | ')[0] ?? '').filter((op) => !operations.some((o) => opName(o) === op));
    expect(unknownOps).toEqual([]);
  });
});
