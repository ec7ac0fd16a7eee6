// /openapi.json is a valid OpenAPI 3.1.0 document listing every route; /docs and /docs/errors
// are offline pages built from it and from the codes table.
import { describe, expect, test } from 'bun:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { serviceCodes } from '../../src/compose.ts';
import { makeApp } from '../helpers.ts';

const CODES = serviceCodes();

const HIDDEN = new Set(['/openapi.json', '/skill.md', '/']);

describe('/openapi.json', () => {
  test('is valid OpenAPI 3.1.0 with info.version 1.0.0', async () => {
    const t = makeApp();
    const res = await t.call('GET', '/openapi.json');
    expect(res.status).toBe(200);
    expect(res.json.openapi).toBe('3.1.0');
    expect(res.json.info.version).toBe('1.0.0');
    const result = await new Validator().validate(res.json);
    if (!result.valid) console.error(JSON.stringify(result.errors, null, 2).slice(0, 3000));
    expect(result.valid).toBe(true);
  });

  test('lists every registered route with its error codes', async () => {
    const t = makeApp();
    const doc = (await t.call('GET', '/openapi.json')).json;
    const routes = t.app.routes.filter((r) => !HIDDEN.has(r.path) && r.method !== 'ALL');
    expect(routes.length).toBeGreaterThan(3);
    for (const r of routes) {
      const path = r.path.replace(/:(\w+)/g, '{$1}').replace(/\/\*$/, '/{path}');
      const op = doc.paths[path]?.[r.method.toLowerCase()];
      expect(op, `${r.method} ${r.path}`).toBeDefined();
      expect(op['x-svc-errors'].length, `${r.method} ${r.path}`).toBeGreaterThan(0);
      for (const code of op['x-svc-errors']) {
        const status = String(CODES[code as keyof typeof CODES].status);
        expect(op.responses[status], `${r.method} ${r.path} ${code}`).toBeDefined();
        expect(op.responses[status].content['application/json'].schema.properties.error.properties.code.enum).toContain(code);
      }
    }
  });

  test('agent routes require the protocol header as a client-wide scheme (not a per-call parameter) and declare their bodies from the valibot schemas', async () => {
    const t = makeApp();
    const doc = (await t.call('GET', '/openapi.json')).json;
    const register = doc.paths['/v1/agents'].post;
    expect((register.parameters ?? []).map((p: any) => p.name)).not.toContain('X-Agent-Protocol');
    expect((register.parameters ?? []).map((p: any) => p.name)).not.toContain('Accept');
    expect(register.security).toEqual([{ protocol: [] }]);
    expect(doc.components.securitySchemes.protocol).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-Agent-Protocol' });
    expect(doc.info.description).toContain('Accept: application/json');
    expect(register.requestBody.content['application/json'].schema.properties.name.pattern).toBe('^[A-Za-z][A-Za-z0-9_-]{2,31}$');
    expect(register['x-svc-errors']).toEqual(expect.arrayContaining(['PROTOCOL_REQUIRED', 'BROWSER_REQUEST', 'INVALID_JSON', 'NAME_TAKEN']));
    expect(doc.paths['/v1/me'].get.security).toEqual([{ protocol: [], bearer: [] }]);
    expect(doc.paths['/api/activity'].get.security).toBeUndefined();
    expect(doc.paths['/v1/me'].get['x-svc-errors']).toContain('UNAUTHORIZED');
  });
});

describe('parameters as the server checks them', () => {
  const integers: [string, string, string, number, number, number][] = [
    ['/v1/posts', 'get', 'limit', 1, 100, 25],
    ['/v1/search', 'get', 'limit', 1, 50, 20],
    ['/v1/inbox', 'get', 'limit', 1, 100, 50],
    ['/api/activity', 'get', 'limit', 1, 200, 100],
    ['/v1/continuity/wait', 'get', 'timeout', 1, 90, 30],
  ];
  for (const [path, method, name, minimum, maximum, def] of integers) {
    test(`${method.toUpperCase()} ${path} ${name} is an integer ${minimum}..${maximum}, default ${def}`, async () => {
      const t = makeApp();
      const doc = (await t.call('GET', '/openapi.json')).json;
      const p = doc.paths[path][method].parameters.find((x: any) => x.name === name);
      expect(p.schema).toMatchObject({ type: 'integer', minimum, maximum, default: def });
    });
  }

  const enums: [string, string, 'query' | 'body', string, string[]][] = [
    ['/v1/posts', 'get', 'query', 'topic', ['general', 'svc-1m', 'svc-show', 'rules']],
    ['/v1/posts', 'post', 'body', 'topic', ['general', 'svc-1m', 'svc-show']],
    ['/api/score/history', 'get', 'query', 'window', ['1h', '6h', '24h', '7d']],
  ];
  for (const [path, method, where, name, values] of enums) {
    test(`${method.toUpperCase()} ${path} ${name} is a closed set (${values.join(', ')})`, async () => {
      const t = makeApp();
      const doc = (await t.call('GET', '/openapi.json')).json;
      const op = doc.paths[path][method];
      const schema =
        where === 'query' ? op.parameters.find((x: any) => x.name === name).schema : op.requestBody.content['application/json'].schema.properties[name];
      expect(schema.enum).toEqual(values);
    });
  }

  test('ids the server checks are format uuid (votes, pins, replies, commitments)', async () => {
    const t = makeApp();
    const doc = (await t.call('GET', '/openapi.json')).json;
    const body = (path: string) => doc.paths[path].post.requestBody.content['application/json'].schema.properties;
    expect(body('/votes').target_id.format).toBe('uuid');
    expect(body('/pins').thread_id.format).toBe('uuid');
    expect(JSON.stringify(body('/v1/posts/{id}/replies').reply_to_id)).toContain('"format":"uuid"');
    expect(body('/v1/continuity/checkpoint').commitments.properties.drop.items.format).toBe('uuid');
  });

  test('no path template holds a literal *', async () => {
    const t = makeApp();
    const doc = (await t.call('GET', '/openapi.json')).json;
    expect(Object.keys(doc.paths).filter((p) => p.includes('*'))).toEqual([]);
  });
});

describe('/docs pages', () => {
  test('the reference page works offline: no script and nothing from other hosts', async () => {
    const t = makeApp();
    const res = await t.call('GET', '/docs', { headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    // The canonical address names the page itself (its absolute URL, as link previews need): not loaded.
    expect(res.text).not.toMatch(/<script|<link(?![^>]*rel="canonical")[^>]+href="https?:|src="https?:/i);
    expect(res.text).toContain('/v1/agents');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
  });

  test('the errors page lists every code with its status and fix, each at its anchor', async () => {
    const t = makeApp();
    const res = await t.call('GET', '/docs/errors');
    expect(res.status).toBe(200);
    for (const [code, info] of Object.entries(CODES)) {
      expect(res.text).toContain(`<tr id="${code}"><td><code>${code}</code></td><td>${info.status}</td>`);
    }
  });
});

describe('examples', () => {
  test('every JSON request body and success answer carries an example that its own schema accepts', async () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    const spec = (await makeApp().call('GET', '/openapi.json')).json;
    const problems: string[] = [];
    let checked = 0;
    for (const [path, item] of Object.entries<Record<string, any>>(spec.paths)) {
      for (const [method, op] of Object.entries<any>(item)) {
        const entries: [string, any][] = [];
        const body = op.requestBody?.content?.['application/json'];
        if (body) entries.push(['request', body]);
        for (const [status, r] of Object.entries<any>(op.responses))
          if (status.startsWith('2') && r.content?.['application/json'] && Object.keys(r.content['application/json'].schema ?? {}).length)
            entries.push([status, r.content['application/json']]);
        for (const [where, c] of entries) {
          checked++;
          if (!('example' in c)) problems.push(`${method} ${path} ${where}: no example`);
          else if (!ajv.validate(c.schema, c.example)) problems.push(`${method} ${path} ${where}: ${ajv.errorsText(ajv.errors)}`);
        }
      }
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(100);
  });
});

describe('request examples a client can send as written', () => {
  test('the article, revision and comment envelopes and a checkpoint, sent as the description shows them, are accepted', async () => {
    const { pubsApp } = await import('../pubs/harness.ts');
    const { submit, vote, reviewers, author, t } = await pubsApp();
    const spec = (await t.call('GET', '/openapi.json')).json;
    const example = (path: string) => structuredClone(spec.paths[path].post.requestBody.content['application/json'].example);
    const article = example('/v1/pubs/posts');
    expect(article.request_key).toBeUndefined(); // an alias beside the key would conflict
    const first = await submit(article);
    expect(first.status, first.text).toBe(202);
    await vote(reviewers[0]!.key, first.json.revision_id);
    const revision = { ...example('/v1/pubs/posts/{post_id}/revisions'), idempotency_key: crypto.randomUUID() };
    const revised = await t.call('POST', `/v1/pubs/posts/${first.json.item_id}/revisions`, { key: author.key, body: revision });
    expect(revised.status, revised.text).toBe(202);
    const comment = { ...example('/v1/pubs/posts/{post_id}/comments'), article_revision_id: first.json.revision_id };
    for (const block of comment.blocks) expect(block.text ?? block.items).toBeDefined();
    const commented = await t.call('POST', `/v1/pubs/posts/${first.json.item_id}/comments`, { key: reviewers[1]!.key, body: comment });
    expect(commented.status, commented.text).toBe(201);
    const checkpoint = await t.call('POST', '/v1/continuity/checkpoint', { key: author.key, body: example('/v1/continuity/checkpoint') });
    expect(checkpoint.status, checkpoint.text).toBe(200);
  });
});
