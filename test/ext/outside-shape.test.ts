// The outside objects are open, the envelope closed (issue 36): a post and a user carrying every
// member the network's v2 data dictionary lists are taken, a member the network adds tomorrow is
// taken at any depth, the members svc reads keep their types, and the envelope still refuses
// what it does not take.
import { describe, expect, test } from 'bun:test';
import { makeExtApp, OURS } from './harness.ts';
import { fullV2Post, fullV2User } from './v2-objects.ts';

let nextId = 700_000;
const freshId = () => String(nextId++);

type Json = Record<string, unknown>;
const isObject = (x: unknown): x is Json => typeof x === 'object' && x !== null && !Array.isArray(x);

/** The path of every object inside `root` (the root itself is []). */
function objectPaths(root: unknown, at: (string | number)[] = []): (string | number)[][] {
  const out: (string | number)[][] = [];
  if (isObject(root)) {
    out.push(at);
    for (const [k, val] of Object.entries(root)) out.push(...objectPaths(val, [...at, k]));
  } else if (Array.isArray(root)) {
    for (const [i, val] of root.entries()) out.push(...objectPaths(val, [...at, i]));
  }
  return out;
}

/** A deep copy of `root` with a member nobody knows yet added to the object at `path`. */
function withFutureMember(root: Json, path: (string | number)[]): Json {
  const copy = structuredClone(root);
  let node: unknown = copy;
  for (const step of path) node = (node as Record<string | number, unknown>)[step];
  (node as Json).future_member_2031 = { nested: [1, 'two', { three: null }], flag: true };
  return copy;
}

async function operatorOriginal(t: ReturnType<typeof makeExtApp>) {
  const op = await t.agent('opera', 'operator');
  const id = (t.db.query('SELECT id FROM ext_posts ORDER BY seq DESC LIMIT 1').get() as { id: string }).id;
  return (await t.call('GET', `/v1/ext/${id}/original`, { key: op.key })).json;
}

describe('complete v2 objects', () => {
  test('a post and a user with every documented member are stored and read as svc reads them', async () => {
    const t = makeExtApp();
    const p = fullV2Post(freshId(), '2001');
    const r = await t.deliver([p], [fullV2User('2001', 'outsider'), fullV2User(OURS, 'svcproject', { verified: true, verified_type: 'business' })]);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ stored: 1, duplicates: 0, dropped: 0 });
    // What svc reads still counts: the reply to the account, the link resolved from the entities.
    const row = t.db.query('SELECT kind, text, links FROM ext_posts').get() as { kind: string; text: string; links: string };
    expect(row.kind).toBe('reply');
    expect(row.text).toContain('[link: example.org]');
    expect(JSON.parse(row.links)).toEqual(['https://example.org/releases/notes']);
    const users = t.db.query('SELECT outside_id, username, name, verified FROM ext_users ORDER BY outside_id').all();
    expect(users).toEqual([
      { outside_id: OURS, username: 'svcproject', name: 'Outside Person', verified: 1 },
      { outside_id: '2001', username: 'outsider', name: 'Outside Person', verified: 0 },
    ]);
    // The operator's audit read keeps the post as delivered, members svc does not read included.
    expect((await operatorOriginal(t)).delivered).toEqual(p);
  });

  test('a mention found in the documented mention entity makes a mention', async () => {
    const t = makeExtApp();
    const p = fullV2Post(freshId(), '2002', { in_reply_to_user_id: undefined, referenced_tweets: undefined });
    expect((await t.deliver([p], [fullV2User('2002', 'someone')])).status).toBe(200);
    expect(t.rows().map((x) => x.kind)).toEqual(['mention']);
  });
});

describe('a whole page', () => {
  test('100 complete posts with their 100 authors fit one batch', async () => {
    const t = makeExtApp();
    const authors = Array.from({ length: 100 }, (_, i) => String(30_000 + i));
    const posts = authors.map((a) => fullV2Post(freshId(), a));
    const users = authors.map((a) => fullV2User(a, `u${a}`));
    expect(JSON.stringify({ posts, users }).length).toBeGreaterThan(64 * 1024);
    const r = await t.deliver(posts, users);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ stored: 100, duplicates: 0, dropped: 0 });
  });

  test('a batch past the 2 MB budget is 413 and stores nothing', async () => {
    const t = makeExtApp();
    const r = await t.deliver([fullV2Post(freshId(), '2009', { padding: 'x'.repeat(2 * 1024 * 1024) })], []);
    expect(r.status).toBe(413);
    expect(r.json.error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(t.rows()).toEqual([]);
  });
});

describe('a member the network adds later', () => {
  const post = fullV2Post('1', '2003');
  const user = fullV2User('2003', 'later');
  const postPaths = objectPaths(post);
  const userPaths = objectPaths(user);

  test('the fixtures reach every nesting level the network uses', () => {
    const names = (paths: (string | number)[][]) => paths.map((p) => p.join('.'));
    for (const at of [
      '',
      'entities',
      'entities.urls.0',
      'entities.urls.0.images.0',
      'entities.mentions.0',
      'entities.annotations.0',
      'referenced_tweets.0',
      'attachments',
      'public_metrics',
      'context_annotations.0.domain',
      'note_tweet.entities.hashtags.0',
      'geo.coordinates',
      'edit_controls',
      'withheld',
    ]) {
      expect(names(postPaths)).toContain(at);
    }
    for (const at of ['', 'entities.url.urls.0', 'entities.description.mentions.0', 'public_metrics', 'affiliation', 'withheld'])
      expect(names(userPaths)).toContain(at);
  });

  test.each(postPaths.map((p) => [p.join('.') || '(the post)', p] as const))('in a post at %s is taken and kept', async (_name, path) => {
    const t = makeExtApp();
    const p = withFutureMember(fullV2Post(freshId(), '2004'), path);
    const r = await t.deliver([p], []);
    expect(r.status).toBe(200);
    expect(r.json.stored).toBe(1);
    expect((await operatorOriginal(t)).delivered).toEqual(p);
  });

  test.each(userPaths.map((p) => [p.join('.') || '(the user)', p] as const))('in a user at %s is taken', async (_name, path) => {
    const t = makeExtApp();
    const r = await t.deliver([], [withFutureMember(fullV2User('2005', 'later'), path)]);
    expect(r.status).toBe(200);
    expect(t.db.query('SELECT username FROM ext_users').all()).toEqual([{ username: 'later' }]);
  });
});

describe('what svc reads keeps its types', () => {
  test.each([
    ['posts.0.id', (p: Json) => ({ ...p, id: 1234 })],
    ['posts.0.created_at', (p: Json) => ({ ...p, created_at: 'yesterday' })],
    ['posts.0.in_reply_to_user_id', (p: Json) => ({ ...p, in_reply_to_user_id: 'svc' })],
    ['posts.0.referenced_tweets.0.id', (p: Json) => ({ ...p, referenced_tweets: [{ type: 'quoted', id: 'abc' }] })],
    ['posts.0.entities.urls', (p: Json) => ({ ...p, entities: { urls: { url: 'https://t.co/x' } } })],
    ['posts.0.entities.urls.0.expanded_url', (p: Json) => ({ ...p, entities: { urls: [{ url: 'https://t.co/x', expanded_url: 7 }] } })],
    ['posts.0.entities.mentions.0.id', (p: Json) => ({ ...p, entities: { mentions: [{ id: 1000, username: 'svc' }] } })],
  ])('a wrong type for %s is 400 naming it', async (field, spoil) => {
    const t = makeExtApp();
    const r = await t.deliver([spoil(fullV2Post(freshId(), '2006'))], []);
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe('INVALID_REQUEST');
    const named = (r.json.error.details.fields as { field: string }[]).map((f) => f.field.replace(/\[(\d+)\]/g, '.$1'));
    expect(named).toContain(field);
    expect(t.rows()).toEqual([]);
  });

  test('a user whose verified is not a boolean is 400 naming it', async () => {
    const t = makeExtApp();
    const r = await t.deliver([], [fullV2User('2007', 'x', { verified: 'yes' })]);
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.json.error.details.fields)).toContain('verified');
  });
});

describe('the envelope stays closed', () => {
  test('an unknown envelope member is refused with its name', async () => {
    const t = makeExtApp();
    const l = await t.lease();
    const body = { lease_id: l.json.lease_id, posts: [fullV2Post(freshId(), '2008')], users: [], cursor: null, includes: { users: [] } };
    const r = await t.call('POST', '/v1/ext/ingest', { key: t.fetcher, body });
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe('INVALID_REQUEST');
    expect(r.json.error.details.fields[0]).toMatchObject({ field: 'includes', problem: 'unknown_member' });
    expect(t.rows()).toEqual([]);
  });

  test('the description says so: the envelope is closed, the outside objects open at every level', async () => {
    const t = makeExtApp();
    const doc = (await t.call('GET', '/openapi.json')).json;
    const body = doc.paths['/v1/ext/ingest'].post.requestBody.content['application/json'].schema;
    const resolve = (s: Json): Json => (typeof s.$ref === 'string' ? resolve(doc.components.schemas[s.$ref.split('/').pop()!]) : s);
    const root = resolve(body);
    expect(root.additionalProperties).toBe(false);
    const postSchema = resolve((root.properties as any).posts.items);
    const userSchema = resolve((root.properties as any).users.items);
    const entities = resolve((postSchema.properties as any).entities);
    const open = [
      postSchema,
      userSchema,
      entities,
      resolve((entities.properties as any).urls.items),
      resolve((entities.properties as any).mentions.items),
      resolve((postSchema.properties as any).referenced_tweets.items),
    ];
    for (const s of open) {
      expect(s.additionalProperties).not.toBe(false);
      expect(String(s.description)).toContain('Open: members svc does not read are accepted');
    }
    expect(doc.paths['/v1/ext/ingest'].post.description).toContain('additionalProperties');
  });
});
