// The first five minutes: / points the way, /skill.md teaches the API in one read (generated
// from the description and this server's settings), /docs renders the description as a reference.
import { describe, expect, test } from 'bun:test';
import { makeApp } from '../helpers.ts';

describe('/', () => {
  test('answers a small JSON landing document pointing to the guide, the reference and the description', async () => {
    const t = makeApp();
    const r = await t.call('GET', '/', { headers: { 'x-agent-protocol': '', 'content-type': '' } });
    expect(r.status).toBe(200);
    expect(r.json.start).toMatchObject({ skill: 'http://svc.test/skill.md', docs: 'http://svc.test/docs', openapi: 'http://svc.test/openapi.json' });
  });
  test('a browser gets the same as a page', async () => {
    const t = makeApp();
    const r = await t.call('GET', '/', { headers: { accept: 'text/html' } });
    expect(r.headers.get('content-type')).toContain('text/html');
    for (const link of ['/skill.md', '/docs', '/openapi.json']) expect(r.text).toContain(`href="http://svc.test${link}"`);
  });
  // One address answers JSON or HTML by Accept: behind a shared cache each answer must say so.
  test('both answers, and the page’s 304, carry Vary: Accept', async () => {
    const t = makeApp();
    const agent = await t.call('GET', '/', { headers: { 'x-agent-protocol': '', 'content-type': '' } });
    const browser = await t.call('GET', '/', { headers: { accept: 'text/html' } });
    const again = await t.call('GET', '/', { headers: { accept: 'text/html', 'if-none-match': browser.headers.get('etag')! } });
    expect([agent.headers.get('content-type'), browser.headers.get('content-type'), again.status]).toEqual([
      expect.stringContaining('application/json'),
      expect.stringContaining('text/html'),
      304,
    ]);
    // The page may vary on Accept-Encoding too (it goes out compressed); Accept is on every answer.
    for (const r of [agent, browser, again]) expect(r.headers.get('vary')?.split(/,\s*/)).toContain('Accept');
  });
});

describe('/skill.md', () => {
  test('is markdown, versioned like the description', async () => {
    const t = makeApp();
    const r = await t.call('GET', '/skill.md');
    expect(r.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    const spec = (await t.call('GET', '/openapi.json')).json;
    expect(r.text).toContain(`Description version ${spec.info.version}`);
    expect(r.text).toContain('X-Agent-Protocol: svc/1');
  });

  test('lists every route of the description, and the key rule of each write as the description has it', async () => {
    const t = makeApp();
    const text = (await t.call('GET', '/skill.md')).text;
    const spec = (await t.call('GET', '/openapi.json')).json;
    const requiredLine = text.split('\n').find((l) => l.includes('is **required** on'))!;
    const optionalLine = text.split('\n').find((l) => l.includes('is **optional**'))!;
    for (const [path, item] of Object.entries<Record<string, any>>(spec.paths)) {
      for (const [method, op] of Object.entries<any>(item)) {
        const route = `${method.toUpperCase()} ${path}`;
        expect(text, route).toContain(`\`${route}\``);
        const key = op.parameters?.find((p: any) => p.name === 'Idempotency-Key');
        if (!key || method === 'get') continue;
        expect(key.required ? requiredLine : optionalLine, route).toContain(`\`${route}\``);
        expect(key.required ? optionalLine : requiredLine, route).not.toContain(`\`${route}\``);
      }
    }
  });

  test('every error code has its fix, and the limits are this server’s, read live', async () => {
    const t = makeApp({ SVC_POSTING_PER_DAY: '7', SVC_VOTES_PER_DAY: '3' });
    const text = (await t.call('GET', '/skill.md')).text;
    for (const code of ['IDEMPOTENCY_CONFLICT', 'PRICE_TALK', 'UNAUTHORIZED', 'REQUEST_TIMEOUT'])
      expect(text).toMatch(new RegExp(`\\| \`${code}\` \\| \\d{3} \\|`));
    expect(text).toContain('7 posts and replies per UTC day, 3 votes per UTC day');
  });
});

describe('/skill.md beyond the board', () => {
  test('says where the publication layer takes its key, and how an MCP assistant connects', async () => {
    const t = makeApp();
    const text = (await t.call('GET', '/skill.md')).text;
    expect(text).toContain('**in the JSON body** as\n  `idempotency_key`');
    expect(text).toContain('`GET /v1/pubs/capabilities`');
    expect(text).toContain('`http://svc.test/mcp`');
    expect(text).not.toContain('${');
  });
});

describe('/skill.md on articles, the Show lane and outreach', () => {
  test('states this server’s review rule, Show allowance and request budgets, read live', async () => {
    const t = makeApp({
      SVC_PUBS_QUORUM: '4',
      SVC_PUBS_GRACE_QUORUM: '2',
      SVC_PUBS_GRACE_PUBLISHED: '7',
      SVC_PUBS_REVIEWER_MIN_AGE_HOURS: '6',
      SVC_SHOW_PER_AGENT_24H: '3',
    });
    const text = (await t.call('GET', '/skill.md')).text.replace(/\s+/g, ' ');
    expect(text).toContain('(here 4, or 2 while fewer than 7 articles are published)');
    expect(text).toContain('at least 6 h old');
    expect(text).toContain('3 roots per agent per rolling 24 h');
    const ada = await t.register('ada-lab');
    const caps = await t.call('GET', '/v1/pubs/capabilities', { key: ada.key });
    expect(text).toContain(`an article or revision submission up to ${caps.json.limits.request_bytes.toLocaleString('en')} bytes`);
  });

  test('names every article block type the description accepts, and the comment block types', async () => {
    const t = makeApp();
    const text = (await t.call('GET', '/skill.md')).text;
    const section = text.slice(text.indexOf('## Articles, the Show lane and outreach'), text.indexOf('## Reading'));
    const ada = await t.register('ada-lab');
    const caps = await t.call('GET', '/v1/pubs/capabilities', { key: ada.key });
    for (const type of caps.json.limits.block_types as string[]) expect(section).toContain(`\`${type}\``);
    expect(section).toContain('`blocks` (`paragraph`, `quote`, `code`, `list`)');
    expect(section).toContain('`svc-1m`');
    expect(section).toContain('`experiment_id`');
  });
});

describe('/docs', () => {
  test('renders markdown: code spans are code, placeholders in angle brackets are text, no stray markers', async () => {
    const t = makeApp();
    const r = await t.call('GET', '/docs', { headers: { accept: 'text/html' } });
    expect(r.text).toContain('<code>X-Agent-Protocol: svc/1</code>');
    expect(r.text).not.toMatch(/`X-Agent-Protocol/);
    expect(r.text).not.toMatch(/<uuid>|<key>/);
  });

  test('shows each route’s request and answer shapes with an example, on the route’s page', async () => {
    const t = makeApp();
    const r = await t.call('GET', '/docs/api/post-v1-posts', { headers: { accept: 'text/html' } });
    const post = r.text.slice(r.text.indexOf('id="post-/v1/posts"'));
    const section = post.slice(0, post.indexOf('</section>'));
    expect(section).toContain('<summary>Request body</summary>');
    expect(section).toContain('Example:');
    expect(section).toMatch(/<summary>200 application\/json/);
  });
});
