// scripts/build.ts (`npm run build`): the executable is built twice, the second time with the
// bytecode profile of a recorded start (docs/operations.md "Start-up"), as ES modules split into
// chunks: what only an `import()` reaches (the /docs renderer, mail, MCP) is read from the
// executable when first used. The built program answers as before, the lazily loaded chunks included.
import { afterAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Two builds and three starts on a loaded machine: the timeout guards a hang, it is no speed target.
setDefaultTimeout(600_000);

const ROOT = join(import.meta.dir, '../..');
const COMMIT = 'feedface0123456789abcdef0123456789abcdef';
const dir = mkdtempSync(join(tmpdir(), 'svc-build-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const bin = join(dir, 'out', 'svc');
const bare = { PATH: '/usr/bin:/bin', HOME: dir };

async function serveOnce(data: string, paths: [string, string][]): Promise<Record<string, [number, string]>> {
  const proc = Bun.spawn([bin, 'serve', '--port', '0', '--host', '127.0.0.1', '--data', data], { cwd: dir, env: bare, stdout: 'pipe', stderr: 'pipe' });
  const stderr = new Response(proc.stderr).text();
  try {
    const reader = proc.stdout.getReader();
    let out = '';
    let url: string | undefined;
    while (!url) {
      const chunk = await reader.read();
      if (chunk.done) throw new Error(`no listening line: ${await stderr}`);
      out += new TextDecoder().decode(chunk.value);
      url = /"url":"([^"]+)"/.exec(out)?.[1];
    }
    const answers: Record<string, [number, string]> = {};
    for (const [path, accept] of paths) {
      const res = await fetch(`${url}${path}`, { headers: { 'X-Agent-Protocol': 'svc/1', Accept: accept } });
      answers[path] = [res.status, await res.text()];
    }
    return answers;
  } finally {
    proc.kill('SIGTERM');
    expect(await proc.exited, await stderr).toBe(0);
  }
}

describe('scripts/build.ts', () => {
  test('records a start, builds again with its bytecode profile, and leaves only the executable and its map', () => {
    const built = Bun.spawnSync([process.execPath, 'scripts/build.ts', bin], {
      cwd: ROOT,
      env: { ...process.env, SVC_COMMIT: COMMIT, SVC_BUILD_PROFILE: '' },
      stdout: 'pipe',
      stderr: 'pipe',
    });
    expect(built.exitCode, built.stderr.toString()).toBe(0);
    // No warning: the start was recorded; the JSON line says how many functions it ran.
    expect(built.stderr.toString()).not.toContain('without a bytecode profile');
    const line = JSON.parse(built.stdout.toString().trim().split('\n').at(-1)!);
    expect(line).toMatchObject({ built: bin, commit: COMMIT });
    expect(line.profile.functions).toBeGreaterThan(100);
    expect(line.profile.record_ms).toBeGreaterThan(0);
    // The first pass and the recording's data folder stay out of the output folder: only the
    // executable and the source maps of the linked sourcemap are written there.
    const written = readdirSync(join(dir, 'out'));
    expect(written).toContain('svc');
    expect(written).toContain('svc.map');
    expect(written.filter((f) => f !== 'svc' && !f.endsWith('.map'))).toEqual([]);
    const v = Bun.spawnSync([bin, '--version'], { cwd: dir, env: bare, stdout: 'pipe', stderr: 'pipe' });
    expect(JSON.parse(v.stdout.toString())).toEqual({ version: '1.0.0', commit: COMMIT });
  });

  test('the profiled, split executable serves /healthz and loads the /docs renderer chunk on first use, on a new and on an existing database', async () => {
    expect(existsSync(bin)).toBe(true);
    const data = join(dir, 'data');
    const paths: [string, string][] = [
      ['/healthz', 'application/json'],
      ['/docs', 'text/html'],
      ['/skill.md', 'text/markdown'],
      ['/openapi.json', 'application/json'],
    ];
    for (const round of ['new', 'existing']) {
      const answered = await serveOnce(data, paths);
      const answers = (path: string): [number, string] => answered[path] ?? [0, ''];
      expect(answers('/healthz')[0], round).toBe(200);
      expect(JSON.parse(answers('/healthz')[1]), round).toMatchObject({ status: 'ok', commit: COMMIT });
      expect(answers('/docs')[0], round).toBe(200);
      expect(answers('/docs')[1], round).toContain('<code>X-Agent-Protocol: svc/1</code>');
      expect(answers('/skill.md')[0], round).toBe(200);
      expect(answers('/skill.md')[1], round).toContain('Idempotency-Key');
      expect(JSON.parse(answers('/openapi.json')[1]).openapi, round).toBe('3.1.0');
    }
  });
});
