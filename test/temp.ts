// Temporary folders for tests, removed when the run ends. A hook registered at a shared module's
// top level (afterAll) belongs to the first test file that imports it: `bun test` loads a module
// once for the whole run, so the folders later files made were never removed (thousands a suite
// run), and `bun test` emits no process 'exit'. test/end.ts, preloaded by bunfig.toml, runs
// runAtEnd once every file of the process has finished.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made: string[] = [];
const ends: (() => unknown)[] = [];

/** A fresh folder under the system's temporary folder, named `prefix`…, removed when the run ends. */
export function tempDir(prefix: string): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  made.push(d);
  return d;
}

/** Runs `fn` when the run ends, before the folders go (a server still running on one is stopped first). */
export function atEnd(fn: () => unknown): void {
  ends.push(fn);
}

/** What the run's end does: each atEnd function, then every folder tempDir made is removed. */
export async function runAtEnd(): Promise<void> {
  for (const fn of ends.splice(0)) await fn();
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
}
