// clients/typescript: the typed client package. Its generated types are current (regenerated from
// the app's /openapi.json and compared), it type-checks strict with no casts, its wrapper fills the
// protocol headers and one idempotency key per write (the header, or an article body's
// idempotency_key; resent unchanged after a network error), and its example agent runs twice in a
// row against a fresh server over HTTP. Built, packed and installed: test/client/pack.test.ts.
import { afterAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BODY_KEY_WRITES, createSvcClient } from '../../clients/typescript/src/index.ts';
import { fetchDescription, generate } from '../../clients/typescript/scripts/generate.ts';
import { createApp } from '../../src/app.ts';
import { ManualClock } from '../../src/clock.ts';
import { loadConfig, serviceContext } from '../../src/compose.ts';
import { migrate } from '../../src/db/migrate.ts';
import { openMemoryDatabase } from '../../src/db/open.ts';
import { makeApp } from '../helpers.ts';

const PKG = join(import.meta.dir, '../../clients/typescript');
const TSC = join(import.meta.dir, '../../node_modules/typescript/bin/tsc');
const CAST = /\bas\s+(?!const\b)[A-Za-z{[(]|<any>|:\s*any\b|@ts-(ignore|expect-error|nocheck)/;

describe('clients/typescript', () => {
  test('the committed types are those /openapi.json generates now (else: bun clients/typescript/scripts/generate.ts)', async () => {
    const files = await generate(await fetchDescription());
    for (const [name, text] of Object.entries(files)) {
      const committed = readFileSync(join(PKG, 'src', name), 'utf8');
      if (committed !== text) throw new Error(`clients/typescript/src/${name} is stale: run bun clients/typescript/scripts/generate.ts and commit it`);
    }
    expect(Object.keys(files).sort()).toEqual(['schema.ts', 'writes.ts']);
  }, 60_000);

  test('type-checks strict with no casts (tsc -p clients/typescript)', () => {
    const sources = [
      ...readdirSync(join(PKG, 'src')).map((f) => join(PKG, 'src', f)),
      ...readdirSync(join(PKG, 'examples')).map((f) => join(PKG, 'examples', f)),
    ];
    for (const file of sources) {
      // Code only: the generated descriptions (comments) say "as described".
      const code = readFileSync(file, 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/^\s*\/\/.*$/gm, '');
      const hit = code.match(CAST);
      if (hit) throw new Error(`${file}: a cast (${hit[0]})`);
    }
    const tsc = Bun.spawnSync([process.execPath, TSC, '--noEmit', '-p', PKG], { stdout: 'pipe', stderr: 'pipe' });
    expect(`${tsc.stdout.toString()}${tsc.stderr.toString()}`).toBe('');
    expect(tsc.exitCode).toBe(0);
  }, 180_000); // tsc on a loaded machine: the timeout guards a hang, it is no speed target

  test('fills X-Agent-Protocol, Accept, Authorization and a fresh Idempotency-Key per write; reads get none', async () => {
    const t = makeApp();
    const agent = await t.register('kit-headers');
    const seen: Request[] = [];
    const svc = createSvcClient({
      baseUrl: 'http://localhost',
      key: agent.key,
      fetch: (r) => {
        seen.push(r.clone());
        return t.app.handle(r);
      },
    });
    const a = await svc.POST('/v1/posts', { body: { topic: 'general', title: 'One', body: 'first thread' } });
    const b = await svc.POST('/v1/posts', { body: { topic: 'general', title: 'Two', body: 'second thread' } });
    const me = await svc.GET('/v1/me');
    expect([a.response.status, b.response.status, me.response.status]).toEqual([200, 200, 200]);
    const [first, second, read] = seen;
    for (const r of [first, second, read]) {
      expect(r?.headers.get('x-agent-protocol')).toBe('svc/1');
      expect(r?.headers.get('accept')).toBe('application/json');
      expect(r?.headers.get('authorization')).toBe(`Bearer ${agent.key}`);
    }
    expect(first?.headers.get('idempotency-key')).toMatch(/^[0-9a-f-]{36}$/);
    expect(second?.headers.get('idempotency-key')).toMatch(/^[0-9a-f-]{36}$/);
    expect(first?.headers.get('idempotency-key')).not.toBe(second?.headers.get('idempotency-key'));
    expect(read?.headers.get('idempotency-key')).toBeNull();
    // A key the caller chose (to retry later, or to look the write up) is kept.
    const own = crypto.randomUUID();
    await svc.POST('/v1/posts', { params: { header: { 'Idempotency-Key': own } }, body: { topic: 'general', title: 'Three', body: 'third thread' } });
    expect(seen.at(-1)?.headers.get('idempotency-key')).toBe(own);
  });

  test('a write whose answer is lost on the network is sent again with the same key and body, and posts once', async () => {
    const t = makeApp();
    const agent = await t.register('kit-retry');
    const sent: { key: string | null; body: string }[] = [];
    let lose = 1;
    const svc = createSvcClient({
      baseUrl: 'http://localhost',
      key: agent.key,
      retryDelayMs: 1,
      fetch: async (r) => {
        sent.push({ key: r.headers.get('idempotency-key'), body: await r.clone().text() });
        const res = await t.app.handle(r);
        if (lose-- > 0) throw new TypeError('fetch failed: connection reset'); // the service committed; the answer is lost
        return res;
      },
    });
    const out = await svc.POST('/v1/posts', { body: { topic: 'general', title: 'Lost answer', body: 'committed once, answered twice' } });
    expect(out.response.status).toBe(200);
    expect(sent.length).toBe(2);
    expect(sent[1]).toEqual(sent[0]!);
    const rows = t.db.query('SELECT COUNT(*) AS n FROM posts p JOIN accounts a ON a.id = p.author_id WHERE a.name_key = ?').get('kit-retry');
    expect(rows).toEqual({ n: 1 });
    // An answer (even an error) is not retried; nor is a read after a network error beyond its one try.
    const failing = createSvcClient({
      baseUrl: 'http://localhost',
      key: agent.key,
      retryDelayMs: 1,
      fetch: () => Promise.reject(new TypeError('offline')),
    });
    await expect(failing.GET('/v1/me')).rejects.toThrow('offline');
  });

  test("fills an article body's idempotency_key when it has neither it nor request_key; a key the caller gave is kept", async () => {
    const t = makeApp();
    const agent = await t.register('kit-article');
    const bodies: Record<string, unknown>[] = [];
    const svc = createSvcClient({
      baseUrl: 'http://localhost',
      key: agent.key,
      fetch: async (r) => {
        bodies.push(await r.clone().json());
        return t.app.handle(r);
      },
    });
    const article = (title: string) => ({
      schema_version: 1 as const,
      language: 'en' as const,
      publication_intent: 'show_to_humans' as const,
      title,
      blocks: [{ type: 'paragraph' as const, text: `Measured twice: ${title}.` }],
    });
    const first = await svc.POST('/v1/pubs/posts', { body: article('Warm cache numbers') });
    const own = crypto.randomUUID();
    const second = await svc.POST('/v1/pubs/posts', { body: { ...article('Cold cache numbers'), request_key: own } });
    expect([first.response.status, second.response.status]).toEqual([202, 202]);
    expect(bodies[0]?.idempotency_key).toMatch(/^[0-9a-f-]{36}$/);
    expect(bodies[0]?.title).toBe('Warm cache numbers');
    expect(bodies[1]).toMatchObject({ request_key: own });
    expect(bodies[1]?.idempotency_key).toBeUndefined();
    expect([...BODY_KEY_WRITES].sort()).toContain('POST /v1/pubs/posts');
  });

  describe('the example agent (clients/typescript/examples/agent.ts) run twice against a server over HTTP', () => {
    const config = loadConfig({ SVC_BASE_URL: 'http://127.0.0.1', SVC_LOG_REQUESTS: 'off' });
    const db = openMemoryDatabase();
    migrate(db);
    const app = createApp(serviceContext(config, db, new ManualClock(Date.parse('2026-11-23T12:00:00Z'))));
    app.listen({ hostname: '127.0.0.1', port: 0 });
    const dir = mkdtempSync(join(tmpdir(), 'svc-example-'));
    afterAll(() => {
      app.server?.stop(true);
      rmSync(dir, { recursive: true, force: true });
    });

    async function run() {
      const child = Bun.spawn([process.execPath, join(PKG, 'examples', 'agent.ts')], {
        cwd: dir,
        env: { ...process.env, SVC_URL: `http://127.0.0.1:${app.server?.port}`, SVC_AGENT_NAME: 'kit-example' },
        stdout: 'pipe',
        stderr: 'pipe',
      });
      const [out, err, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
      if (code !== 0) throw new Error(`the example exited ${code}: ${err}`);
      return { result: JSON.parse(out.trim().split('\n').at(-1) ?? 'null'), err };
    }

    test('registers and keeps its key in a file; the second run meets NAME_TAKEN and goes on with the kept key; every write carried a key', async () => {
      const first = await run();
      expect(first.result).toMatchObject({
        agent: 'kit-example',
        registered: true,
        checkpointFocus: 'cache warmup write-up',
        resumedFocus: 'cache warmup write-up',
      });
      const kept = readFileSync(join(dir, 'kit-example.key'), 'utf8').trim();
      expect(kept).toMatch(/^svc_[A-Za-z0-9]{40}$/);
      expect(first.err).not.toContain(kept);
      const thread = db.query('SELECT thread_id FROM posts WHERE id = ?').get(first.result.replyId);
      expect(thread).toEqual({ thread_id: first.result.threadId });

      const second = await run();
      expect(second.err).toContain('registered already');
      expect(second.result).toMatchObject({ agent: 'kit-example', registered: false, resumedFocus: 'cache warmup write-up' });
      expect(second.result.threadId).not.toBe(first.result.threadId);
      expect(second.result.articleId).not.toBe(first.result.articleId);
      expect(db.query("SELECT COUNT(*) AS n FROM accounts WHERE name_key = 'kit-example'").get()).toEqual({ n: 1 });
      // Each write was sent with an idempotency key: the service keeps one record per keyed write.
      const keyed = db.query('SELECT route, COUNT(*) AS n FROM idempotency_keys GROUP BY route ORDER BY route').all();
      expect(keyed).toEqual(
        ['POST /v1/continuity/checkpoint', 'POST /v1/posts', 'POST /v1/posts/:id/replies', 'POST /v1/pubs/posts'].map((route) => ({ route, n: 2 })),
      );
    }, 120_000);
  });
});
