// /skill.md is the one read it says it is (issue 28, item 2): each agent write's minimal and full
// request body, generated from the description, is sent as written to a fresh server (ids stand
// for ids the service gave: they are the one thing replaced) with its prerequisites set up, and
// gets a 2xx. The guide also carries the first owner step and the lab and review prerequisites.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { addCrew, setLabAllowed, setRole } from '../../src/accounts/admin.ts';
import { runAdmin } from '../../src/admin/cli.ts';
import { exampleOf } from '../../src/docs/example.ts';
import { bodyExamples } from '../../src/docs/skill.ts';
import { createFetcherCredential } from '../../src/ext/credential.ts';
import { makeApp } from '../helpers.ts';
import { makeOutreachApp, outreachEnv } from '../outreach/harness.ts';
import { envelope } from '../pubs/harness.ts';
import { rootOf } from '../show/harness.ts';

// Every route's prerequisites in one server: reviewers qualify at once and one upvote publishes
// (so a test can publish an article), the mirror knows its outside account.
const ENV = { SVC_PUBS_REVIEWER_MIN_AGE_HOURS: '0', SVC_PUBS_GRACE_QUORUM: '1', SVC_EXT_ACCOUNT_ID: '1000' };

const outreach = outreachEnv();
/** The owner's channel webhook for outreach posts (a local server answering 200). */
let hook: ReturnType<typeof Bun.serve>;
beforeAll(() => {
  hook = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => Response.json({ ok: true }) });
});
afterAll(() => {
  hook.stop(true);
});

type App = ReturnType<typeof makeApp>;
type Agent = Awaited<ReturnType<App['register']>>;
type OutreachApp = Awaited<ReturnType<typeof makeOutreachApp>>;

async function write(t: App, key: string, method: string, path: string, body: unknown) {
  return t.call(method, path, { key, body, headers: { 'idempotency-key': crypto.randomUUID() } });
}

/** A write that must succeed (a prerequisite): its JSON. */
async function must(t: App, key: string, method: string, path: string, body: unknown) {
  const r = await write(t, key, method, path, body);
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${r.text}`);
  return r.json;
}

async function thread(t: App, a: Agent, title = 'Cache notes') {
  return (await must(t, a.key, 'POST', '/v1/posts', { topic: 'general', title, body: 'What we measured.' })).post.id as string;
}

/** An article of `who` in review: its item and revision ids. */
async function article(t: App, who: Agent, title = 'What we measured') {
  const r = await must(t, who.key, 'POST', '/v1/pubs/posts', envelope({ title }));
  return { item: r.item_id as string, revision: r.revision_id as string };
}

/** A Show root picked by the desk and the owner: its id, and `a` holds the reporter role. */
async function pickedShowRoot(t: App, a: Agent) {
  const author = await t.register('show-author');
  addCrew(t.ctx, author.name, 'research');
  const editor = await t.register('show-editor');
  setRole(t.ctx, 'grant', editor.name, 'editor');
  const owner = await t.register('show-owner');
  setRole(t.ctx, 'grant', owner.name, 'owner');
  setRole(t.ctx, 'grant', a.name, 'reporter');
  const id = (await must(t, author.key, 'POST', '/v1/posts', rootOf())).post.id as string;
  await must(t, editor.key, 'POST', `/v1/posts/${id}/replies`, { body: 'Pick: yes' });
  await must(t, owner.key, 'POST', `/v1/posts/${id}/replies`, { body: 'Picked: yes' });
  return id;
}

type Prepared = {
  /** The path to call (the route's path parameters filled). */
  path: string;
  /** Placeholder → the id the service gave. */
  ids?: Record<string, string>;
  /** Who sends the example, when not `a`. */
  key?: string;
  /** Text replaced in the example that is not an id (the reason said where it is used). */
  rewrite?: Record<string, string>;
};
type Which = 'minimal' | 'full';
type Setup = { outreach?: true; run: (t: App & Partial<OutreachApp>, a: Agent, b: Agent, which: Which) => Promise<Prepared> };

/**
 * What each route needs before its example can succeed: the path to call and the ids (or the
 * cursor) the example's placeholders stand for. A route missing here fails the test, so a new
 * write cannot be left out of the guide's promise silently.
 */
const SETUPS: Record<string, Setup> = {
  'POST /v1/agents': { run: async () => ({ path: '/v1/agents' }) },
  'POST /v1/posts': { run: async () => ({ path: '/v1/posts' }) },
  'POST /v1/posts/{id}/replies': {
    run: async (t, a, b) => {
      const root = await thread(t, a);
      const reply = await must(t, b.key, 'POST', `/v1/posts/${root}/replies`, { body: 'A first answer.' });
      return { path: `/v1/posts/${root}/replies`, ids: { '<reply_to_id>': reply.reply.id } };
    },
  },
  // Only the rules root is edited, by an owner or operator.
  'POST /v1/posts/{id}/edit': {
    run: async (t, a) => {
      setRole(t.ctx, 'grant', a.name, 'owner');
      const rules = await t.call('GET', '/v1/rules', { key: a.key });
      return { path: `/v1/posts/${rules.json.rules.id}/edit` };
    },
  },
  'POST /v1/inbox/ack': {
    run: async (t, a, b) => {
      const root = await thread(t, a);
      await must(t, b.key, 'POST', `/v1/posts/${root}/replies`, { body: 'A reply for the inbox.' });
      const inbox = await t.call('GET', '/v1/inbox', { key: a.key });
      return { path: '/v1/inbox/ack', ids: { '<cursor>': inbox.json.next_after } };
    },
  },
  'POST /votes': { run: async (t, _a, b) => ({ path: '/votes', ids: { '<target_id>': await thread(t, b, 'Bob’s notes') } }) },
  'POST /pins': { run: async (t, a) => ({ path: '/pins', ids: { '<thread_id>': await thread(t, a) } }) },
  // Two open commitments (one closed, one dropped) and a post written after them as evidence.
  'POST /v1/continuity/checkpoint': {
    run: async (t, a) => {
      const opened = (
        await must(t, a.key, 'POST', '/v1/continuity/checkpoint', { commitments: { open: [{ text: 'measure p99' }, { text: 'try a bigger cache' }] } })
      ).opened as { id: string }[];
      t.clock.advance(1000);
      const evidence = await thread(t, a, 'p99 measured');
      return {
        path: '/v1/continuity/checkpoint',
        ids: { '<closed_commitment_id>': opened[0]!.id, '<dropped_commitment_id>': opened[1]!.id, '<evidence_post_id>': evidence },
      };
    },
  },
  'PUT /v1/lab/pages/{slug}': {
    run: async (t, a) => {
      setLabAllowed(t.ctx, 'allow', a.name);
      return { path: '/v1/lab/pages/cache-notes' };
    },
  },
  'POST /v1/show/{id}/posted': { run: async (t, a) => ({ path: `/v1/show/${await pickedShowRoot(t, a)}/posted` }) },
  // The 2 h checkpoint is reported once 2 h have passed since posting.
  'POST /v1/show/{id}/metrics': {
    run: async (t, a) => {
      const id = await pickedShowRoot(t, a);
      await must(t, a.key, 'POST', `/v1/show/${id}/posted`, { url: 'https://x.com/svc/status/1', published_at: '2026-11-23T12:00:00Z' });
      t.clock.advance(2.5 * 3_600_000);
      return { path: `/v1/show/${id}/metrics` };
    },
  },
  // The fetcher's credential holds a lease.
  'POST /v1/ext/ingest': {
    run: async (t) => {
      const key = createFetcherCredential(t.ctx).credential;
      const lease = await must(t, key, 'POST', '/v1/ext/ingest/lease', undefined);
      return { path: '/v1/ext/ingest', key, ids: { '<lease_id>': lease.lease_id } };
    },
  },
  // A mirrored reply to the project's account, and a crew member's thread to link it to.
  'POST /v1/ext/{id}/link': {
    run: async (t, a) => {
      const key = createFetcherCredential(t.ctx).credential;
      const lease = await must(t, key, 'POST', '/v1/ext/ingest/lease', undefined);
      const outside = {
        id: '5000',
        text: 'Does the cache survive a restart?',
        author_id: '2000',
        created_at: '2026-11-23T11:00:00.000Z',
        in_reply_to_user_id: '1000',
      };
      await must(t, key, 'POST', '/v1/ext/ingest', { lease_id: lease.lease_id, posts: [outside], users: [], cursor: null });
      addCrew(t.ctx, a.name, 'research');
      const mirrored = (await t.call('GET', '/v1/ext', { key: a.key })).json.items[0].id as string;
      return { path: `/v1/ext/${mirrored}/link`, ids: { '<post_id>': await thread(t, a) } };
    },
  },
  'POST /v1/pubs/posts': { run: async () => ({ path: '/v1/pubs/posts' }) },
  'POST /v1/pubs/posts/{post_id}/revisions': { run: async (t, a) => ({ path: `/v1/pubs/posts/${(await article(t, a)).item}/revisions` }) },
  'POST /v1/pubs/revisions/{revision_id}/appeals': { run: async (t, a) => ({ path: `/v1/pubs/revisions/${(await article(t, a)).revision}/appeals` }) },
  'POST /v1/pubs/votes': { run: async (t, _a, b) => ({ path: '/v1/pubs/votes', ids: { '<revision_id>': (await article(t, b)).revision } }) },
  // An article of b's, published by a's upvote (the grace quorum of one).
  'POST /v1/pubs/posts/{post_id}/comments': {
    run: async (t, a, b) => {
      const { item, revision } = await article(t, b);
      await must(t, a.key, 'POST', '/v1/pubs/votes', { revision_id: revision, value: 1 });
      return { path: `/v1/pubs/posts/${item}/comments`, ids: { '<article_revision_id>': revision } };
    },
  },
  'POST /v1/pubs/uploads': { run: async (t, a) => ({ path: '/v1/pubs/uploads', ids: { '<article_id>': (await article(t, a)).item } }) },
  // An upload session opened with the guide's own upload example.
  'POST /v1/pubs/uploads/{upload_id}/parts': {
    run: async (t, a) => {
      const doc = (await t.call('GET', '/openapi.json')).json;
      const open = bodyExamples(doc).find((e) => e.path === '/v1/pubs/uploads')!;
      const session = await must(t, a.key, 'POST', '/v1/pubs/uploads', open.minimal);
      return { path: `/v1/pubs/uploads/${session.upload_id}/parts` };
    },
  },
  // A resident of a configured server; the example's page is served by the loopback page server
  // (the one rewrite that is not an id: the test cannot listen on port 443).
  'POST /v1/outreach/contacts': {
    outreach: true,
    run: async (t) => {
      const ann = await t.resident!('ann');
      const url = t.page!('press.example.org', '/team', 'press@example.org');
      return { path: '/v1/outreach/contacts', key: ann.key, rewrite: { 'https://press.example.org/team': url } };
    },
  },
  // A contact not yet written to and the resident's Experiment root; for the full example (a
  // follow-up) a first e-mail to that contact sent more than the follow-up wait ago.
  'POST /v1/outreach/email': {
    outreach: true,
    run: async (t, _a, _b, which): Promise<Prepared> => {
      const ann = await t.resident!('ann');
      const contact = await t.addContact!(ann, 'reporter@example.org');
      if (which === 'minimal') return { path: '/v1/outreach/email', key: ann.key, ids: { '<contact_id>': contact, '<experiment_id>': ann.experiment } };
      const first = await t.email!(ann, { contact_id: contact });
      if (first.status !== 200) throw new Error(`first e-mail: ${first.status} ${first.text}`);
      t.clock.advance(6 * 86_400_000);
      return {
        path: '/v1/outreach/email',
        key: ann.key,
        ids: { '<contact_id>': contact, '<experiment_id>': ann.experiment, '<earlier_message_id>': first.json.message_id },
      };
    },
  },
  'POST /v1/outreach/post': {
    outreach: true,
    run: async (t) => {
      const ann = await t.resident!('ann');
      runAdmin(t.ctx, ['outreach', 'channel', 'set', 'one', `http://127.0.0.1:${hook.port}/one`]);
      return { path: '/v1/outreach/post', key: ann.key, ids: { '<experiment_id>': ann.experiment } };
    },
  },
};

/** The examples of the routes the test has no setup for, with the reason (the report lists them). */
const NOT_SENT: Record<string, string> = {};

/** The checkpoint schema's example of one member, as the generator writes it. */
function exampleOfMember(doc: any, member: string) {
  const schema = doc.paths['/v1/continuity/checkpoint'].post.requestBody.content['application/json'].schema;
  return exampleOf(schema.properties[member], member, 1, false, true);
}

const replaceAll = (example: unknown, pairs: Record<string, string> = {}): unknown =>
  JSON.parse(Object.entries(pairs).reduce((text, [from, to]) => text.split(from).join(to), JSON.stringify(example)));

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

  test('examples hold real values: no null, an upload part that is the base64 of the bytes its session expects, ids named', async () => {
    const t = makeApp();
    const doc = (await t.call('GET', '/openapi.json')).json;
    const text = (await t.call('GET', '/skill.md')).text;
    const examples = bodyExamples(doc);
    for (const e of examples) expect(JSON.stringify([e.minimal, e.full]), `${e.method} ${e.path}`).not.toContain('null');
    const session = examples.find((e) => e.path === '/v1/pubs/uploads')!.minimal as { expected_hash: string; expected_bytes: number };
    const part = examples.find((e) => e.path === '/v1/pubs/uploads/{upload_id}/parts')!.minimal as { data: string };
    const bytes = Buffer.from(part.data, 'base64');
    expect(bytes.toString('base64')).toBe(part.data);
    expect(bytes.length).toBe(session.expected_bytes);
    expect(new Bun.CryptoHasher('sha256').update(bytes).digest('hex')).toBe(session.expected_hash);
    // The checkpoint's full example keeps continuation; the guide names stop as its alternative.
    const checkpoint = examples.find((e) => e.path === '/v1/continuity/checkpoint')!;
    expect(checkpoint.full).toHaveProperty('continuation');
    expect(checkpoint.full).not.toHaveProperty('stop');
    expect(text).toContain('`stop` is sent instead of `continuation`, never both');
    expect(text).toContain('`<post_id>`');
    expect(text).toContain('`<…_id>`');
  });

  // The upload example committed: the bytes it carries are an article the service accepts.
  test('the upload example, committed, submits its article', async () => {
    const t = makeApp(ENV);
    const a = await t.register('alice');
    const doc = (await t.call('GET', '/openapi.json')).json;
    const examples = bodyExamples(doc);
    const session = await must(t, a.key, 'POST', '/v1/pubs/uploads', examples.find((e) => e.path === '/v1/pubs/uploads')!.minimal);
    await must(t, a.key, 'POST', `/v1/pubs/uploads/${session.upload_id}/parts`, examples.find((e) => e.path === '/v1/pubs/uploads/{upload_id}/parts')!.minimal);
    const r = await write(t, a.key, 'POST', `/v1/pubs/uploads/${session.upload_id}/commit`, {});
    expect(r.status, r.text).toBe(202);
  });

  test('the checkpoint’s stop, sent instead of continuation, succeeds', async () => {
    const t = makeApp(ENV);
    const a = await t.register('alice');
    const doc = (await t.call('GET', '/openapi.json')).json;
    const full = bodyExamples(doc).find((e) => e.path === '/v1/continuity/checkpoint')!.full as Record<string, unknown>;
    const stop = exampleOfMember(doc, 'stop');
    const { continuation: _, commitments: __, ...rest } = full;
    const r = await write(t, a.key, 'POST', '/v1/continuity/checkpoint', { ...rest, stop });
    expect(r.status, r.text).toBe(200);
  });

  for (const [route, setup] of Object.entries(SETUPS)) {
    for (const which of ['minimal', 'full'] as const) {
      test(`${route}: the ${which} example succeeds as written`, async () => {
        const t = setup.outreach ? await makeOutreachApp(outreach, { mode: 'auto' }) : makeApp(ENV);
        const a = await t.register('alice');
        const b = await t.register('bob-agent');
        const doc = (await t.call('GET', '/openapi.json')).json;
        const [method, path] = route.split(' ') as [string, string];
        const example = bodyExamples(doc).find((e) => e.method === method && e.path === path);
        expect(example, route).toBeDefined();
        const { path: target, ids = {}, key = a.key, rewrite = {} } = await setup.run(t, a, b, which);
        const body = replaceAll(example![which], { ...ids, ...rewrite });
        // Every id placeholder was given an id: nothing `<…_id>` is sent.
        expect(JSON.stringify(body)).not.toMatch(/"<[a-z_]+_id>"|<[a-z_]+_id>/);
        const r = await write(t, key, method, target, body);
        if (r.status >= 300) console.error(route, which, r.text.slice(0, 400));
        expect(r.status, `${route} ${which}: ${r.text.slice(0, 300)}`).toBeLessThan(300);
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
