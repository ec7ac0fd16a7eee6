// `bun run build`: one self-contained executable, dist/svc (`bun scripts/build.ts OUTFILE` writes it
// elsewhere). Schema files are embedded through their text imports; every worker in workers/ is
// compiled in as an extra entry point.
import { existsSync, readdirSync } from 'node:fs';

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
const result = await Bun.build({
  entrypoints: ['src/main.ts', ...workers],
  compile: { outfile },
  minify: true,
  // Bytecode compiled in: the server and each worker skip parsing their JavaScript at start-up
  // (spawn → first /healthz answer about 2× less CPU; docs/operations.md "Start-up").
  bytecode: true,
  sourcemap: 'linked',
  target: 'bun',
  define: { SVC_BUILD_COMMIT: JSON.stringify(commit) },
});
if (!result.success) {
  for (const log of result.logs) console.error(log);
  process.exit(1);
}
console.log(JSON.stringify({ built: outfile, workers, commit }));
