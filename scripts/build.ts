// `bun run build`: one self-contained executable, dist/svc (`bun scripts/build.ts OUTFILE` writes it
// elsewhere). Schema files are embedded through their text imports; every worker in workers/ is
// compiled in as an extra entry point.
//
// Start-up memory and time (issue 27: idle < 70 MB, cold start < 120 ms; docs/operations.md
// "Start-up"):
// - ES modules with code splitting: what is only reached through `import()` (mail, MCP, the /docs
//   renderer, jsdom in the SVG worker, …) is a chunk of its own, read from the executable when it
//   is first imported instead of with the server.
// - Bytecode laid out by a profile of a start: the executable is built once, started on an empty
//   data folder with BUN_BYTECODE_ORDER_OUT until it answers /healthz, stopped, and built again with
//   that profile, so the functions a start runs sit together at the front of the embedded bytecode
//   and the pages a start never reads are never faulted in. SVC_BUILD_PROFILE=off skips the second
//   pass (a quicker build, the same program, more memory at start).
// - A JIT policy that keeps start-up code in the interpreter (below).
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// The commit `svc --version` and /healthz report (src/lib/version.ts): SVC_COMMIT when the builder
// sets it (a tarball has no .git), else this checkout's HEAD, else "unknown".
function commitOf(): string {
  const given = process.env.SVC_COMMIT?.trim().toLowerCase();
  if (given) return /^[0-9a-f]{7,64}$/.test(given) ? given : 'unknown';
  try {
    const git = Bun.spawnSync(['git', 'rev-parse', 'HEAD'], { stdout: 'pipe', stderr: 'ignore' });
    const sha = git.exitCode === 0 ? git.stdout.toString().trim() : '';
    return /^[0-9a-f]{7,64}$/.test(sha) ? sha : 'unknown';
  } catch {
    return 'unknown';
  }
}
const commit = commitOf();
const outfile = process.argv[2] ?? 'dist/svc';

const workers = (existsSync('workers') ? readdirSync('workers') : []).filter((f) => f.endsWith('.ts')).map((f) => `workers/${f}`);

async function build(file: string, bytecodeOrder: string | null): Promise<void> {
  const result = await Bun.build({
    entrypoints: ['src/main.ts', ...workers],
    // JavaScriptCore's tier-up thresholds ×8 (compile: { jitPolicy }): code that only runs while
    // starting (route registration, migrations' checks, the scheduler's catch-up) stays in the
    // interpreter instead of being compiled by the optimizing JITs, whose code and compiler pages
    // would stay resident; hot request paths still tier up (same CPU per request after a warm-up).
    compile: { outfile: file, bytecodeOrder, jitPolicy: 8 },
    minify: true,
    // Bytecode compiled in: the server and each worker skip parsing their JavaScript at start-up
    // (spawn → first /healthz answer about 2× less CPU; docs/operations.md "Start-up").
    bytecode: true,
    format: 'esm',
    splitting: true,
    sourcemap: 'linked',
    target: 'bun',
    define: { SVC_BUILD_COMMIT: JSON.stringify(commit) },
  });
  if (!result.success) {
    for (const log of result.logs) console.error(log);
    process.exit(1);
  }
}

/** `promise`'s value, or null after `ms` (the timer is cleared: it keeps no build waiting). */
async function within<T>(promise: Promise<T>, ms: number): Promise<T | null> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([promise, new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), Math.max(0, ms))))]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Starts `bin` as a self-hoster would (its own empty data folder, nothing but PATH and HOME set),
 * with BUN_BYTECODE_ORDER_OUT, until /healthz answers 200; stops it with SIGTERM and returns the
 * profile it wrote on exit. The database is created by `migrate` first, outside the profile: the
 * profile is a start on an existing database, the usual one.
 */
async function recordStart(bin: string, dir: string): Promise<string> {
  const data = join(dir, 'data');
  const order = join(dir, 'start.order');
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir };
  const migrate = Bun.spawnSync([bin, 'migrate', '--data', data], { env, stdout: 'pipe', stderr: 'pipe' });
  if (migrate.exitCode !== 0) throw new Error(`migrate exited ${migrate.exitCode}: ${migrate.stderr.toString().trim()}`);
  const proc = Bun.spawn([bin, 'serve', '--port', '0', '--host', '127.0.0.1', '--data', data], {
    env: { ...env, BUN_BYTECODE_ORDER_OUT: order },
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const stderr = new Response(proc.stderr).text();
  try {
    // The listening line names the port; /healthz answered 200 is the end of a start.
    const reader = proc.stdout.getReader();
    let out = '';
    let url: string | undefined;
    const deadline = Date.now() + 120_000;
    while (!url) {
      const chunk = await within(reader.read(), deadline - Date.now());
      if (!chunk || chunk.done) throw new Error(`no listening line: ${((await within(stderr, 1000)) ?? '').trim()}`);
      out += new TextDecoder().decode(chunk.value);
      url = /"event":"listening","url":"([^"]+)"/.exec(out)?.[1];
    }
    void (async () => {
      while (!(await reader.read()).done);
    })();
    const health = await fetch(`${url}/healthz`);
    if (health.status !== 200) throw new Error(`/healthz answered ${health.status}`);
    await health.arrayBuffer();
  } finally {
    proc.kill('SIGTERM');
    if ((await within(proc.exited, 30_000)) === null) proc.kill('SIGKILL');
    await proc.exited;
  }
  if (proc.exitCode !== 0) throw new Error(`serve exited ${proc.exitCode}: ${(await stderr).trim()}`);
  if (!existsSync(order) || statSync(order).size === 0) throw new Error('no profile was written');
  return order;
}

const profiled = !/^(off|0|false|no)$/i.test(process.env.SVC_BUILD_PROFILE?.trim() ?? '');
let profile: { functions: number; record_ms: number } | { skipped: string } = { skipped: 'SVC_BUILD_PROFILE=off' };
let recordMs = 0;
if (!profiled) {
  await build(outfile, null);
} else {
  // The first pass (and the maps it writes beside itself) stays in a temporary folder.
  const work = mkdtempSync(join(tmpdir(), 'svc-build-'));
  try {
    const first = join(work, 'svc');
    await build(first, null);
    let order: string | null = null;
    try {
      const t0 = performance.now();
      order = await recordStart(first, work);
      recordMs = Math.round(performance.now() - t0);
    } catch (err) {
      // Without a profile it is the same program: build it so, and say why it has none.
      profile = { skipped: `recording the start failed: ${(err as Error).message}` };
      console.error(JSON.stringify({ warning: 'built without a bytecode profile', reason: (err as Error).message }));
    }
    await build(outfile, order);
    if (order) profile = { functions: (await Bun.file(order).text()).split('\n').filter((l) => l.startsWith('F ')).length, record_ms: recordMs };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
console.log(JSON.stringify({ built: outfile, workers, commit, profile }));
