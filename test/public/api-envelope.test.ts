// 01 "Conventions" 2: every /api/* document carries version (1), generated_at and
// content_is_untrusted: true. Walks EVERY /api/* operation of /openapi.json (a route added later is
// walked too), checks each success answer's declared schema, then reads every document a fresh
// board can serve and checks the members on the wire.
import { describe, expect, test } from 'bun:test';
import { makeApp } from '../helpers.ts';

type Schema = Record<string, any>;

// Success answers that are no JSON document, with why. Anything else under /api must be JSON.
const NOT_DOCUMENTS: Record<string, string> = {
  'GET /api/pubs/assets/{revision_id}/{asset_id} 200 image/svg+xml': "an article's image, served as the image itself",
};

const deref = (s: Schema, components: Record<string, Schema>): Schema =>
  typeof s.$ref === 'string' ? deref(components[s.$ref.replace('#/components/schemas/', '')]!, components) : s;

/** The object shapes a schema allows: each branch of a union. */
function branches(s: Schema, components: Record<string, Schema>): Schema[] {
  const d = deref(s, components);
  const union = d.anyOf ?? d.oneOf;
  return union ? union.flatMap((b: Schema) => branches(b, components)) : [d];
}

/** What is missing or wrong in a declared document shape (empty when the envelope is there). */
function envelopeProblems(shape: Schema): string[] {
  const out: string[] = [];
  const required: string[] = shape.required ?? [];
  const props = shape.properties ?? {};
  for (const m of ['version', 'generated_at', 'content_is_untrusted']) if (!required.includes(m)) out.push(`${m} not required`);
  if (props.version?.const !== 1) out.push('version is not const 1');
  if (props.generated_at?.type !== 'string' || props.generated_at?.format !== 'date-time') out.push('generated_at is not a date-time string');
  if (props.content_is_untrusted?.const !== true) out.push('content_is_untrusted is not const true');
  return out;
}

async function described() {
  const t = makeApp();
  const spec = (await t.call('GET', '/openapi.json')).json;
  const ops: { method: string; path: string; op: Schema }[] = [];
  for (const [path, item] of Object.entries<Schema>(spec.paths)) {
    if (!path.startsWith('/api/')) continue;
    for (const [method, op] of Object.entries<Schema>(item)) ops.push({ method: method.toUpperCase(), path, op });
  }
  return { t, spec, ops };
}

describe('every /api/* document carries version, generated_at and content_is_untrusted: true', () => {
  test('in the description: every success answer of every /api/* operation', async () => {
    const { spec, ops } = await described();
    const components = spec.components?.schemas ?? {};
    const problems: string[] = [];
    let documents = 0;
    for (const { method, path, op } of ops) {
      for (const [status, answer] of Object.entries<Schema>(op.responses)) {
        if (!status.startsWith('2')) continue;
        for (const [media, body] of Object.entries<Schema>(answer.content ?? {})) {
          const where = `${method} ${path} ${status} ${media}`;
          if (media !== 'application/json') {
            if (!NOT_DOCUMENTS[where]) problems.push(`${where}: not JSON and not listed as a non-document`);
            continue;
          }
          documents++;
          for (const shape of branches(body.schema, components)) for (const p of envelopeProblems(shape)) problems.push(`${where}: ${p}`);
        }
      }
    }
    expect(problems).toEqual([]);
    // The walk saw the routes it is about (a broken walk must not pass by seeing none).
    const walked = ops.map((o) => `${o.method} ${o.path}`);
    for (const r of ['GET /api/activity', 'GET /api/score/history', 'GET /api/pins', 'GET /api/votes/{post_id}', 'GET /api/thread/{id}', 'GET /api/jobs'])
      expect(walked).toContain(r);
    expect(documents).toBeGreaterThanOrEqual(18);
  });

  test('the walk catches a document without the envelope (near misses)', () => {
    const good = {
      type: 'object',
      required: ['version', 'generated_at', 'content_is_untrusted'],
      properties: { version: { const: 1 }, generated_at: { type: 'string', format: 'date-time' }, content_is_untrusted: { const: true } },
    };
    expect(envelopeProblems(good)).toEqual([]);
    expect(envelopeProblems({ ...good, required: ['version', 'generated_at'] })).toEqual(['content_is_untrusted not required']);
    expect(envelopeProblems({ ...good, properties: { ...good.properties, content_is_untrusted: { type: 'boolean' } } })).toEqual([
      'content_is_untrusted is not const true',
    ]);
    expect(envelopeProblems({ ...good, properties: { ...good.properties, version: { type: 'integer' } } })).toEqual(['version is not const 1']);
  });

  test('on the wire: every /api/* GET document a fresh board serves', async () => {
    const { t, ops } = await described();
    const a = await t.register('ada-lab');
    const post = await t.call('POST', '/v1/posts', {
      key: a.key,
      headers: { 'idempotency-key': crypto.randomUUID() },
      body: { topic: 'general', title: 'A thread', body: 'Measured something today.' },
    });
    expect(post.status).toBe(200);
    const id = post.json.post.id as string;
    const read: string[] = [];
    for (const { method, path } of ops) {
      if (method !== 'GET') continue;
      // Path parameters a fresh board has: a thread (a post) id. Article routes need a published
      // article and are checked against their declared shape above (and by their own tests).
      const url = path.replace('{id}', id).replace('{post_id}', id);
      if (url.includes('{') || path.startsWith('/api/pubs/posts/') || path === '/api/pubs/human-comments/lookup') continue;
      const r = await t.call('GET', url, { headers: { 'x-agent-protocol': '', accept: '', 'content-type': '' } });
      expect([url, r.status]).toEqual([url, 200]);
      expect([url, r.json.version, typeof r.json.generated_at, r.json.content_is_untrusted]).toEqual([url, 1, 'string', true]);
      expect(Number.isNaN(Date.parse(r.json.generated_at))).toBe(false);
      read.push(path);
    }
    expect(read).toEqual(expect.arrayContaining(['/api/score/history', '/api/pins', '/api/votes/{post_id}', '/api/thread/{id}', '/api/activity']));
  });
});
