// The /docs renderer (marked, @elysiajs/openapi, the JSON Schema conversion: src/docs/render.ts) is
// loaded by the first request that needs it, not when the service is built: the server starts and
// idles without it (issue 27, idle memory). The pages are the same either way.
import { describe, expect, setDefaultTimeout, test } from 'bun:test';
import { join } from 'node:path';

// A child process importing the whole service on a loaded machine: the timeout guards a hang.
setDefaultTimeout(60_000);

const ROOT = join(import.meta.dir, '..', '..');
const src = (file: string) => JSON.stringify(join(ROOT, 'src', file));

describe('the docs renderer loads on first use', () => {
  test('building the service loads none of it; /openapi.json, /docs, /docs/errors and /skill.md load it and answer', async () => {
    const probe = `
      const { loadConfig, serviceContext } = await import(${src('compose.ts')});
      const { createApp } = await import(${src('app.ts')});
      const { openMemoryDatabase } = await import(${src('db/open.ts')});
      const { migrate } = await import(${src('db/migrate.ts')});
      const { ManualClock } = await import(${src('clock.ts')});
      const loaded = () => ['/node_modules/marked/', '/node_modules/@elysiajs/openapi/', '/node_modules/@valibot/to-json-schema/', '/src/docs/render.ts']
        .filter((part) => Object.keys(require.cache).some((p) => p.includes(part)));
      const db = openMemoryDatabase();
      migrate(db);
      const config = loadConfig({ SVC_BASE_URL: 'http://svc.test', SVC_LOG_REQUESTS: 'off' });
      const app = createApp(serviceContext(config, db, new ManualClock(Date.parse('2026-11-23T12:00:00Z'))));
      const call = (path, accept = 'application/json') =>
        app.handle(new Request('http://svc.test' + path, { headers: { 'X-Agent-Protocol': 'svc/1', Accept: accept } }));
      const before = loaded();
      const health = (await call('/healthz')).status;
      const afterHealth = loaded();
      const landing = await call('/');
      const start = await landing.json();
      const afterLanding = loaded();
      const answers = {};
      for (const [path, accept] of [['/openapi.json'], ['/docs', 'text/html'], ['/docs/errors', 'text/html'], ['/skill.md', 'text/markdown']]) {
        const res = await call(path, accept);
        const body = await res.text();
        answers[path] = [res.status, res.headers.get('content-type')?.split(';')[0], body.length > 1000];
      }
      const docs = await (await call('/docs', 'text/html')).text();
      console.log(JSON.stringify({ before, health, afterHealth, landing: [landing.status, start.version, start.start?.docs], afterLanding, after: loaded(), answers,
        rendered: docs.includes('<code>X-Agent-Protocol: svc/1</code>') }));`;
    const proc = Bun.spawn([process.execPath, '-e', probe], { cwd: ROOT, stdout: 'pipe', stderr: 'pipe' });
    const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
    expect(await proc.exited, err).toBe(0);
    const all = ['/node_modules/marked/', '/node_modules/@elysiajs/openapi/', '/node_modules/@valibot/to-json-schema/', '/src/docs/render.ts'];
    expect(JSON.parse(out.trim().split('\n').at(-1)!)).toEqual({
      before: [],
      health: 200,
      afterHealth: [],
      // The JSON start document names the version from the description: it loads the renderer.
      landing: [200, '1.0.0', 'http://svc.test/docs'],
      afterLanding: all,
      after: all,
      answers: {
        '/openapi.json': [200, 'application/json', true],
        '/docs': [200, 'text/html', true],
        '/docs/errors': [200, 'text/html', true],
        '/skill.md': [200, 'text/markdown', true],
      },
      rendered: true,
    });
  });
});
