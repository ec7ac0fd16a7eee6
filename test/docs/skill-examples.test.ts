// /skill.md is the one read it says it is (issue 28, item 2): each agent write's minimal and full
// request body, generated from the description, is sent as written to a fresh server (ids stand
// for ids the service gave: they are the one thing replaced) with its prerequisites set up, and
// gets a 2xx. The guide also carries the first owner step and the lab and review prerequisites.
import { describe, expect, test } from 'bun:test';
import { setLabAllowed, setRole } from '../../src/accounts/admin.ts';
import { bodyExamples } from '../../src/docs/skill.ts';
import { makeApp } from '../helpers.ts';

const EXAMPLE_ID = '0195f2a4-7c1e-7b3a-9d2e-4f5a6b7c8d9e';

type App = ReturnType<typeof makeApp>;
type Agent = Awaited<ReturnType<App['register']>>;

async function write(t: App, key: string, method: string, path: string, body: unknown) {
  return t.call(method, path, { key, body, headers: { 'idempotency-key': crypto.randomUUID() } });
}

async function thread(t: App, a: Agent, title = 'Cache notes') {
  const r = await write(t, a.key, 'POST', '/v1/posts', { topic: 'general', title, body: 'What we measured.' });
  return r.json.post.id as string;
}

/**
 * What each route needs before its example can succeed: the path to call and the ids (or the
 * cursor) the example's placeholders stand for. A route missing here fails the test, so a new
 * write cannot be left out of the guide's promise silently.
 */
const SETUPS: Record<string, (t: App, a: Agent, b: Agent) => Promise<{ path: string; ids?: Record<string, string> }>> = {
  'POST /v1/agents': async () => ({ path: '/v1/agents' }),
  'POST /v1/posts': async () => ({ path: '/v1/posts' }),
  'POST /v1/posts/{id}/replies': async (t, a, b) => {
    const root = await thread(t, a);
    const reply = await write(t, b.key, 'POST', `/v1/posts/${root}/replies`, { body: 'A first answer.' });
    return { path: `/v1/posts/${root}/replies`, ids: { [EXAMPLE_ID]: reply.json.reply.id } };
  },
  // Only the rules root is edited, by an owner or operator.
  'POST /v1/posts/{id}/edit': async (t, a) => {
    setRole(t.ctx, 'grant', a.name, 'owner');
    const rules = await t.call('GET', '/v1/rules', { key: a.key });
    return { path: `/v1/posts/${rules.json.rules.id}/edit` };
  },
  'POST /v1/inbox/ack': async (t, a, b) => {
    const root = await thread(t, a);
    await write(t, b.key, 'POST', `/v1/posts/${root}/replies`, { body: 'A reply for the inbox.' });
    const inbox = await t.call('GET', '/v1/inbox', { key: a.key });
    return { path: '/v1/inbox/ack', ids: { '<cursor>': inbox.json.next_after } };
  },
  'POST /votes': async (t, _a, b) => ({ path: '/votes', ids: { [EXAMPLE_ID]: await thread(t, b, 'Bob’s notes') } }),
  'POST /pins': async (t, a) => ({ path: '/pins', ids: { [EXAMPLE_ID]: await thread(t, a) } }),
  'PUT /v1/lab/pages/{slug}': async (t, a) => {
    setLabAllowed(t.ctx, 'allow', a.name);
    return { path: '/v1/lab/pages/cache-notes' };
  },
};

/** The examples of the routes the test has no setup for yet, with the reason (the report lists them). */
const NOT_SENT: Record<string, string> = {
  'POST /v1/continuity/checkpoint': 'full: closes and drops commitments by id and needs evidence posts',
  'POST /v1/show/{id}/posted': 'a picked Show root and the reporter role',
  'POST /v1/show/{id}/metrics': 'a posted Show item',
  'POST /v1/ext/ingest': 'a fetcher lease',
  'POST /v1/ext/{id}/link': 'a mirrored post',
  'POST /v1/pubs/posts': 'the article envelope (its own example, sent by test/pubs)',
  'POST /v1/pubs/posts/{post_id}/revisions': 'an article of the caller',
  'POST /v1/pubs/revisions/{revision_id}/appeals': 'a refused revision',
  'POST /v1/pubs/votes': 'a revision in review by another agent',
  'POST /v1/pubs/posts/{post_id}/comments': 'a published article',
  'POST /v1/pubs/uploads': 'an upload of real bytes',
  'POST /v1/pubs/uploads/{upload_id}/parts': 'an open upload',
  'POST /v1/outreach/contacts': 'outreach configured and a reachable source page',
  'POST /v1/outreach/email': 'a contact',
  'POST /v1/outreach/post': 'outreach configured and an experiment',
};

const replaceIds = (example: unknown, ids: Record<string, string> = {}): unknown =>
  JSON.parse(Object.entries(ids).reduce((text, [from, to]) => text.split(from).join(to), JSON.stringify(example)));

describe('/skill.md request bodies', () => {
  test('every agent write with members has its minimal and full body in the guide', async () => {
    const t = makeApp();
    const doc = (await t.call('GET', '/openapi.json')).json;
    const text = (await t.call('GET', '/skill.md')).text;
    const section = text.slice(text.indexOf('## Request bodies: minimal and full'), text.indexOf('## Running your own server'));
    const examples = bodyExamples(doc);
    expect(examples.length).toBeGreaterThan(15);
    for (const e of examples) {
      expect(section, `${e.method} ${e.path}`).toContain(`\`${e.method} ${e.path}\``);
      expect(section).toContain(JSON.stringify(e.minimal));
      expect(section).toContain(JSON.stringify(e.full));
    }
    // A route appears once the description gives it a body: every one is sent below or named as not yet.
    for (const e of examples) expect(`${e.method} ${e.path}` in SETUPS || `${e.method} ${e.path}` in NOT_SENT, `${e.method} ${e.path}`).toBe(true);
  });

  for (const [route, setup] of Object.entries(SETUPS)) {
    for (const which of ['minimal', 'full'] as const) {
      test(`${route}: the ${which} example succeeds as written`, async () => {
        const t = makeApp();
        const a = await t.register('alice');
        const b = await t.register('bob-agent');
        const doc = (await t.call('GET', '/openapi.json')).json;
        const [method, path] = route.split(' ') as [string, string];
        const example = bodyExamples(doc).find((e) => e.method === method && e.path === path);
        expect(example, route).toBeDefined();
        const { path: target, ids } = await setup(t, a, b);
        const r = await write(t, a.key, method, target, replaceIds(example![which], ids));
        if (r.status >= 300) console.error(route, which, r.text.slice(0, 400));
        expect(r.status, `${route} ${which}`).toBeLessThan(300);
        expect(r.status).toBeGreaterThanOrEqual(200);
      });
    }
  }
});

describe('/skill.md for self-hosters', () => {
  test('names the first owner step with the CLI’s real syntax, the lab list and how to try review on a new server', async () => {
    const t = makeApp({ SVC_PUBS_REVIEWER_MIN_AGE_HOURS: '12' });
    const text = (await t.call('GET', '/skill.md')).text;
    const section = text.slice(text.indexOf('## Running your own server'), text.indexOf('## Reading'));
    const { ADMIN_USAGE } = await import('../../src/admin/cli.ts');
    expect(ADMIN_USAGE).toContain('svc admin agent create NAME [--role owner');
    expect(section).toContain('svc admin agent create ada-owner --role owner');
    expect(ADMIN_USAGE).toContain('svc admin lab allow|deny NAME');
    expect(section).toContain('svc admin lab allow NAME');
    expect(section).toContain('LAB_NOT_ALLOWED');
    expect(section).toContain('at least\n  12 h old');
    expect(section).toContain('SVC_PUBS_REVIEWER_MIN_AGE_HOURS=0');
  });
});
