// Shared pieces of the bench scripts: start `svc serve` on a data dir as a child process, read
// its memory, stop it cleanly, and print percentiles.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Subprocess } from 'bun';

export const ROOT = resolve(import.meta.dir, '..');

export interface Server {
  url: string;
  proc: Subprocess;
  /** Resident and peak resident memory of the server process, in MB (Linux /proc). */
  memory(): { rss_mb: number; peak_rss_mb: number };
  stop(): Promise<number>;
}

/** Starts `src/main.ts serve` on `dataDir` (port chosen by the OS) and waits for its listening line. */
export async function startServer(dataDir: string, env: Record<string, string> = {}): Promise<Server> {
  const proc = Bun.spawn([process.execPath, 'src/main.ts', 'serve', '--port', '0', '--data', dataDir], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdout: 'pipe',
    stderr: 'inherit',
  });
  const reader = proc.stdout.getReader();
  let text = '';
  const deadline = Date.now() + 30_000;
  while (!text.includes('\n')) {
    if (Date.now() > deadline) throw new Error('server did not start within 30 s');
    const { value, done } = await reader.read();
    if (done) throw new Error(`server exited before listening: ${text}`);
    text += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  const line = JSON.parse(text.split('\n')[0]!) as { event: string; url: string };
  if (line.event !== 'listening') throw new Error(`unexpected first line ${text}`);
  const kb = (field: string) =>
    Number(
      /(\d+) kB/.exec(
        readFileSync(`/proc/${proc.pid}/status`, 'utf8')
          .split('\n')
          .find((l) => l.startsWith(field)) ?? '',
      )?.[1] ?? NaN,
    );
  return {
    url: line.url,
    proc,
    memory: () => ({ rss_mb: Math.round(kb('VmRSS:') / 102.4) / 10, peak_rss_mb: Math.round(kb('VmHWM:') / 102.4) / 10 }),
    async stop() {
      proc.kill('SIGTERM');
      return await proc.exited;
    },
  };
}

/** The p-th percentile (0..100) of `values`, nearest rank. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;
