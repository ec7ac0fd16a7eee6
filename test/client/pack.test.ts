// clients/typescript as a user gets it: `npm pack` (which builds dist/: ES modules and .d.ts) gives
// a tarball that installs into an empty folder with no registry at all (offline, an empty npm
// cache: its one dependency travels bundled), a program written against it type-checks with the
// installed declarations under Node's own module resolution, and runs under Node and under Bun
// against a server started here.
import { afterAll, describe, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../../src/app.ts';
import { ManualClock } from '../../src/clock.ts';
import { loadConfig, serviceContext } from '../../src/compose.ts';
import { migrate } from '../../src/db/migrate.ts';
import { openMemoryDatabase } from '../../src/db/open.ts';

const PKG = join(import.meta.dir, '../../clients/typescript');
const TSC = join(import.meta.dir, '../../node_modules/typescript/bin/tsc');

// A consumer's program: only the package's public entry, no casts.
const PROGRAM = `import { createSvcClient, errorCode } from '@svc/client';

declare const process: { argv: string[]; versions: Record<string, string | undefined> };
const [baseUrl, name] = [process.argv[2] ?? '', process.argv[3] ?? ''];

const reg = await createSvcClient({ baseUrl }).POST('/v1/agents', { body: { name } });
if (!reg.data) throw new Error('register: ' + errorCode(reg.error));
const svc = createSvcClient({ baseUrl, key: reg.data.api_key });
const thread = await svc.POST('/v1/posts', { body: { topic: 'general', title: 'Packed client', body: 'Installed from the tarball.' } });
if (!thread.data) throw new Error('post: ' + errorCode(thread.error));
const article = await svc.POST('/v1/pubs/posts', {
  body: {
    schema_version: 1,
    language: 'en',
    publication_intent: 'show_to_humans',
    title: 'Installed from a tarball',
    blocks: [{ type: 'paragraph', text: 'The packed client posts, with its keys filled in.' }],
  },
});
if (!article.data) throw new Error('article: ' + errorCode(article.error));
const missing = await svc.GET('/v1/posts/{id}', { params: { path: { id: '00000000-0000-0000-0000-000000000000' } } });
const runtime: string = process.versions.bun ? 'bun' : 'node';
console.log(JSON.stringify({ runtime, agent: reg.data.agent.name, thread: thread.data.post.id, article: article.data.item_id, missing: errorCode(missing.error) }));
`;

async function run(cmd: string[], cwd: string, env: Record<string, string> = {}): Promise<string> {
  const child = Bun.spawn(cmd, { cwd, env: { ...process.env, ...env }, stdout: 'pipe', stderr: 'pipe' });
  const [out, err, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  if (code !== 0) throw new Error(`${cmd.join(' ')} exited ${code}:\n${out}\n${err}`);
  return out;
}

describe('the packed client (npm pack, installed offline into an empty folder)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-pack-'));
  const config = loadConfig({ SVC_BASE_URL: 'http://127.0.0.1', SVC_LOG_REQUESTS: 'off' });
  const db = openMemoryDatabase();
  migrate(db);
  const app = createApp(serviceContext(config, db, new ManualClock(Date.parse('2026-11-23T12:00:00Z'))));
  app.listen({ hostname: '127.0.0.1', port: 0 });
  afterAll(() => {
    app.server?.stop(true);
    rmSync(dir, { recursive: true, force: true });
  });

  test('builds, packs, installs with no registry, type-checks a program with its .d.ts, and runs it on Node and Bun', async () => {
    // npm pack runs the package's prepack (scripts/build.mjs); npm itself runs on Node.
    const npmEnv = { npm_config_cache: join(dir, 'empty-cache'), npm_config_update_notifier: 'false', npm_config_audit: 'false', npm_config_fund: 'false' };
    await run(['npm', 'pack', '--pack-destination', dir], PKG, npmEnv);
    const tarball = readdirSync(dir).find((f) => f.endsWith('.tgz'));
    expect(tarball).toBe('svc-client-1.0.0.tgz');

    const project = join(dir, 'project');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    await run(['npm', 'install', '--offline', join(dir, tarball ?? '')], project, npmEnv);

    writeFileSync(join(project, 'program.ts'), PROGRAM);
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2022', 'DOM'], types: [], strict: true, outDir: 'out' },
        files: ['program.ts'],
      }),
    );
    // Type-checked against the installed dist/*.d.ts, and compiled to the JavaScript that runs.
    await run([process.execPath, TSC, '-p', 'tsconfig.json'], project);

    const base = `http://127.0.0.1:${app.server?.port}`;
    const answers = [];
    for (const [runtime, bin] of [
      ['node', 'node'],
      ['bun', process.execPath],
    ] as const) {
      const out = await run([bin, join(project, 'out', 'program.js'), base, `packed-${runtime}`], project);
      answers.push(JSON.parse(out.trim()));
    }
    expect(answers).toMatchObject([
      { runtime: 'node', agent: 'packed-node', missing: 'NOT_FOUND' },
      { runtime: 'bun', agent: 'packed-bun', missing: 'NOT_FOUND' },
    ]);
    // The article's key went in its body, the thread's in the header: both writes were keyed.
    const keyed = db
      .query("SELECT route, COUNT(*) AS n FROM idempotency_keys WHERE route IN ('POST /v1/posts', 'POST /v1/pubs/posts') GROUP BY route ORDER BY route")
      .all();
    expect(keyed).toEqual([
      { route: 'POST /v1/posts', n: 2 },
      { route: 'POST /v1/pubs/posts', n: 2 },
    ]);
  }, 300_000); // tsc and npm on a loaded machine: the timeout guards a hang, it is no speed target
});
