// The svc command as a real process, for the operations tests: one-shot commands (backup, restore,
// migrate) and a server (serve) that is always stopped.
import { afterAll } from 'bun:test';
import { join } from 'node:path';
import { atEnd, tempDir as madeTempDir } from '../temp.ts';

export const MAIN = join(import.meta.dir, '../../src/main.ts');

const servers: Server[] = [];
// The servers still running when the first file that imports this module ends are stopped then (a
// module is loaded once a run, so that hook is that file's); the ones later files leave, when the
// run ends, before their folders go (test/temp.ts).
const stopAll = () => Promise.all(servers.splice(0).map((s) => s.stop()));
afterAll(stopAll);
atEnd(stopAll);

/** A fresh temporary folder, removed when the run ends. */
export const tempDir = (): string => madeTempDir('svc-ops-');

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The last JSON line of stdout, or else of stderr. */
  json: any;
}

const lastJson = (text: string): unknown => {
  const line = text.trim().split('\n').at(-1);
  return line ? JSON.parse(line) : null;
};

/** Runs `svc ARGS…` to its end. */
export async function svc(args: string[], env: Record<string, string> = {}): Promise<Run> {
  const p = Bun.spawn([process.execPath, MAIN, ...args], { env: { ...process.env, ...env }, stdout: 'pipe', stderr: 'pipe' });
  const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { code, stdout, stderr, json: stdout.trim() ? lastJson(stdout) : lastJson(stderr) };
}

export interface Server {
  url: string;
  proc: Bun.Subprocess<'ignore', 'pipe', 'pipe'>;
  stderr: () => string;
  /** SIGTERM and wait for the exit code. */
  stop(): Promise<number | null>;
}

/** Starts `svc serve` on `data` (a free port) and waits for its listening line. */
export async function startServer(data: string, env: Record<string, string> = {}): Promise<Server> {
  const proc = Bun.spawn([process.execPath, MAIN, 'serve', '--port', '0', '--data', data], {
    env: { ...process.env, SVC_LOG_REQUESTS: 'off', ...env },
    stdin: 'ignore',
    stdout: 'pipe',
    stderr: 'pipe',
  });
  let err = '';
  void (async () => {
    const errors = proc.stderr.getReader();
    for (let r = await errors.read(); !r.done; r = await errors.read()) err += new TextDecoder().decode(r.value);
  })();
  const reader = proc.stdout.getReader();
  let buffered = '';
  let url: string | null = null;
  while (url === null) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`svc serve exited (${await proc.exited}) before listening: ${err}`);
    buffered += new TextDecoder().decode(value);
    for (const line of buffered.split('\n').slice(0, -1)) {
      const ev = JSON.parse(line) as { event?: string; url?: string };
      if (ev.event === 'listening' && ev.url) url = ev.url;
    }
  }
  // Keep draining stdout so the server never blocks on a full pipe.
  void (async () => {
    while (!(await reader.read()).done) {}
  })();
  let stopped: Promise<number | null> | null = null;
  const server: Server = {
    url,
    proc,
    stderr: () => err,
    stop: () => {
      if (!stopped) {
        if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGTERM');
        stopped = proc.exited;
      }
      return stopped;
    },
  };
  servers.push(server);
  return server;
}
