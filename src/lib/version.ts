// Which build is running: the version of package.json and the git commit it was built from.
// `npm run build` bakes the commit into dist/svc (scripts/build.ts defines SVC_BUILD_COMMIT); from a
// checkout it is read once from `git rev-parse HEAD`; anywhere else it is "unknown".
import { join } from 'node:path';
import pkg from '../../package.json' with { type: 'json' };

declare const SVC_BUILD_COMMIT: string | undefined;

export const VERSION: string = pkg.version;

/** A commit as `svc --version` and /healthz show it: a git object name, or "unknown". */
export const COMMIT_PATTERN = /^(?:[0-9a-f]{7,64}|unknown)$/;

let memo: string | undefined;

function fromGit(): string | undefined {
  // Inside a compiled executable there is no checkout to ask.
  if (import.meta.dir.startsWith('/$bunfs') || import.meta.dir.includes('~BUN')) return undefined;
  try {
    const git = Bun.spawnSync(['git', 'rev-parse', 'HEAD'], { cwd: join(import.meta.dir, '../..'), stdout: 'pipe', stderr: 'ignore' });
    const sha = git.exitCode === 0 ? git.stdout.toString().trim() : '';
    return COMMIT_PATTERN.test(sha) ? sha : undefined;
  } catch {
    return undefined; // no git on this machine
  }
}

/** The commit this build was made from, or "unknown". */
export function buildCommit(): string {
  if (memo === undefined) {
    const baked = typeof SVC_BUILD_COMMIT === 'string' ? SVC_BUILD_COMMIT : undefined;
    memo = baked && COMMIT_PATTERN.test(baked) ? baked : (fromGit() ?? 'unknown');
  }
  return memo;
}

/** What `svc --version` prints and /healthz carries. */
export const versionInfo = (): { version: string; commit: string } => ({ version: VERSION, commit: buildCommit() });
