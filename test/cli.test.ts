// The svc command as a self-hoster runs it: real processes on a temporary data directory.
import { afterAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { until } from './until.ts';

// A test here starts up to 16 processes, each a cold start of the whole app: seconds apiece on a
// loaded 2-core machine. The runner's timeout only guards against a hang; it is no speed target.
setDefaultTimeout(180_000);

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'svc-test-'));
  dirs.push(d);
  return d;
};

const MAIN = join(import.meta.dir, '../src/main.ts');
function svc(args: string[], env: Record<string, string> = {}) {
  const p = Bun.spawnSync([process.execPath, MAIN, ...args], { env: { ...process.env, ...env } });
  const stdout = p.stdout.toString();
  const stderr = p.stderr.toString();
  return {
    code: p.exitCode,
    stdout,
    stderr,
    json: stdout.trim() ? JSON.parse(stdout.trim().split('\n').at(-1)!) : stderr.trim() ? JSON.parse(stderr.trim()) : null,
  };
}

describe('svc help and svc --version', () => {
  /** What `git rev-parse HEAD` says in this checkout, or "unknown" where there is none. */
  const head = () => {
    try {
      const git = Bun.spawnSync(['git', 'rev-parse', 'HEAD'], { cwd: import.meta.dir, stdout: 'pipe', stderr: 'ignore' });
      return git.exitCode === 0 ? git.stdout.toString().trim() : 'unknown';
    } catch {
      return 'unknown';
    }
  };
  // Settings that would stop a start, and a data folder that does not exist: neither matters here.
  const unset = { SVC_PORT: 'eighty' };
  /** The command's exit code and its output as printed (help is text, not JSON). */
  const raw = (args: string[], env: Record<string, string> = {}) => {
    const p = Bun.spawnSync([process.execPath, MAIN, ...args], { env: { ...process.env, ...env } });
    return { code: p.exitCode, stdout: p.stdout.toString(), stderr: p.stderr.toString() };
  };

  test('--version and version print the version and the commit as one JSON line, with no settings and no database', () => {
    const data = join(tempDir(), 'nowhere');
    for (const args of [['--version'], ['version'], ['--data', data, 'version']]) {
      const r = raw(args, unset);
      expect(r.code, args.join(' ')).toBe(0);
      expect(r.stdout).toBe(`${JSON.stringify({ version: '1.0.0', commit: head() })}\n`);
    }
    expect(existsSync(data)).toBe(false);
  });

  test('help, --help and -h print readable text and exit 0; svc admin help and svc help admin list the operator commands', () => {
    const data = join(tempDir(), 'nowhere');
    for (const args of [['help'], ['--help'], ['-h']]) {
      const r = raw([...args, '--data', data], unset);
      expect(r.code, args.join(' ')).toBe(0);
      expect(r.stdout.startsWith('svc 1.0.0: ')).toBe(true);
      expect(r.stdout).toContain('\n       svc migrate [--data DIR]\n');
      expect(r.stdout).toContain('svc admin help');
      expect(r.stdout).not.toContain('\\n');
      expect(r.stderr).toBe('');
    }
    for (const args of [
      ['admin', 'help'],
      ['admin', '--help'],
      ['help', 'admin'],
    ]) {
      const r = raw([...args, '--data', data], unset);
      expect(r.code, args.join(' ')).toBe(0);
      expect(r.stdout.startsWith('svc admin: ')).toBe(true);
      expect(r.stdout).toContain('\nsvc admin agent create NAME');
      expect(r.stdout).toContain('\nsvc admin outreach queue');
    }
    expect(existsSync(data)).toBe(false);
  });

  test('an unknown command, or more after version or help, exits 2 with a JSON error', () => {
    for (const args of [['frobnicate'], ['version', 'now'], ['help', 'me']]) {
      const r = svc(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.json.error.code).toBe('USAGE');
      expect(r.json.error.usage).toContain('svc migrate');
    }
  });
});

describe('svc admin', () => {
  test('agent create, roles, crew, shift, resident, residency, lab list, buyback and job runs print JSON', () => {
    const data = tempDir();
    const created = svc(['admin', 'agent', 'create', 'ops', '--role', 'operator', '--data', data]);
    expect(created.code).toBe(0);
    expect(created.json).toMatchObject({ name: 'ops', roles: ['operator'] });
    expect(created.json.api_key).toMatch(/^svc_/);
    const steps: [string[], object][] = [
      [['role', 'grant', 'ops', 'owner'], { roles: ['operator', 'owner'] }],
      // The last owner cannot lose the role (test/accounts/roles.test.ts): another owner first.
      [['agent', 'create', 'boss', '--role', 'owner'], { name: 'boss', roles: ['owner'] }],
      [['role', 'revoke', 'ops', 'owner'], { roles: ['operator'] }],
      [['crew', 'add', 'ops', '--desk', 'lab'], { crew: true, desk: 'lab' }],
      [['shift', 'set', 'ops', 'off', '--next-on', '2026-12-01T08:00:00Z'], { shift: 'off', shift_next_on_at: '2026-12-01T08:00:00.000Z' }],
      [['resident', 'add', 'ops'], { resident: true }],
      [['residency', 'stop', 'ops'], { residency: 'stopped' }],
      [['residency', 'resume', 'ops'], { residency: 'active', stopped_at: null }],
      [['lab', 'allow', 'ops'], { lab_allowed: true }],
      [['lab', 'deny', 'ops'], { lab_allowed: false }],
      [['crew', 'remove', 'ops'], { crew: false }],
      [
        ['buyback', 'add', '--usd', '1250.50', '--at', '2026-11-01T00:00:00Z', '--note', 'first buyback'],
        { usd: 1250.5, at: '2026-11-01T00:00:00.000Z', note: 'first buyback' },
      ],
      [
        ['run', 'snapshot'],
        { job: 'snapshot', trigger: 'manual', ran: true, status: 'done', result: { stored: true, stale: true, error: expect.any(String) } },
      ],
      [['run', 'promotion'], { job: 'promotion', ran: true, status: 'done', result: { recorded: true, promoted: null } }],
    ];
    for (const [args, expected] of steps) {
      const r = svc(['admin', ...args, '--data', data]);
      expect(r.code, args.join(' ')).toBe(0);
      expect(r.json).toMatchObject(expected);
    }
  });

  test('mistakes exit non-zero with a JSON error', () => {
    const data = tempDir();
    const cases: [string[], string][] = [
      [['agent', 'create', 'x y'], 'INVALID_NAME'],
      [['role', 'grant', 'nobody', 'owner'], 'NOT_FOUND'],
      [['frobnicate'], 'USAGE'],
      [['crew', 'add', 'nobody'], 'USAGE'],
    ];
    svc(['admin', 'agent', 'create', 'ops', '--data', data]);
    cases.push([['role', 'grant', 'ops', 'emperor'], 'INVALID_REQUEST']);
    cases.push([['agent', 'create', 'OPS'], 'NAME_TAKEN']);
    for (const [args, code] of cases) {
      const r = svc(['admin', ...args, '--data', data]);
      expect(r.code, args.join(' ')).not.toBe(0);
      expect(r.json.error.code).toBe(code);
    }
  });
});

describe('svc admin and the database it works on', () => {
  // Run from a folder, with no --data and no SVC_DATA_DIR: the default ./data is that folder's.
  function inFolder(cwd: string, args: string[]) {
    const env = { ...process.env };
    delete env.SVC_DATA_DIR;
    const p = Bun.spawnSync([process.execPath, MAIN, 'admin', ...args], { cwd, env });
    return { code: p.exitCode, stdout: p.stdout.toString(), stderr: p.stderr.toString() };
  }

  const refused: string[][] = [
    ['role', 'grant', 'ops', 'owner'],
    ['crew', 'add', 'ops', '--desk', 'lab'],
    ['lab', 'allow', 'ops'],
    ['residency', 'stop', 'ops'],
    ['run', 'scorecard'],
    ['buyback', 'add', '--usd', '5'],
  ];
  for (const args of refused) {
    test(`"svc admin ${args.join(' ')}" in a folder with no database refuses, names the database, and creates nothing`, () => {
      const cwd = tempDir();
      const r = inFolder(cwd, args);
      expect(r.code).not.toBe(0);
      const err = JSON.parse(r.stderr.trim().split('\n').at(-1)!);
      expect(err.error.code).toBe('NO_DATABASE');
      expect(err.error.database).toBe(join(cwd, 'data', 'svc.sqlite'));
      expect(existsSync(join(cwd, 'data', 'svc.sqlite'))).toBe(false);
    });
  }

  test('creating an agent may start a database, and says which one it opened', () => {
    const cwd = tempDir();
    const r = inFolder(cwd, ['agent', 'create', 'ops']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stderr.trim())).toEqual({ event: 'database', path: join(cwd, 'data', 'svc.sqlite'), created: true });
    const again = inFolder(cwd, ['role', 'grant', 'ops', 'owner']);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stderr.trim())).toEqual({ event: 'database', path: join(cwd, 'data', 'svc.sqlite'), created: false });
  });
});

describe('svc migrate and backup', () => {
  test('migrate creates the database; backup writes a consistent copy, refuses to overwrite (EXISTS) and names a missing folder (BACKUP_DIR_MISSING)', () => {
    const data = tempDir();
    const m = svc(['migrate', '--data', data]);
    expect(m.code).toBe(0);
    expect(m.json.version).toBeGreaterThan(0);
    svc(['admin', 'agent', 'create', 'keeper', '--data', data]);
    const file = join(tempDir(), 'backup.sqlite');
    const b = svc(['backup', file, '--data', data]);
    expect(b.code).toBe(0);
    expect(existsSync(file)).toBe(true);
    const copy = new (require('bun:sqlite').Database)(file, { readonly: true });
    expect(copy.query("SELECT name FROM accounts WHERE name = 'keeper'").get()).toEqual({ name: 'keeper' });
    copy.close();
    const again = svc(['backup', file, '--data', data]);
    expect([again.code, again.json.error.code]).toEqual([1, 'EXISTS']);
    const nowhere = svc(['backup', join(tempDir(), 'missing', 'backup.sqlite'), '--data', data]);
    expect([nowhere.code, nowhere.json.error.code]).toEqual([1, 'BACKUP_DIR_MISSING']);
    expect(nowhere.stderr).not.toContain('    at ');
  });
});

describe('svc serve', () => {
  test('prints one listening line, serves, and stops cleanly on SIGTERM answering held waits and keeping every write', async () => {
    const data = tempDir();
    const proc = Bun.spawn([process.execPath, MAIN, 'serve', '--port', '0', '--data', data], { stdout: 'pipe', stderr: 'pipe' });
    const reader = proc.stdout.getReader();
    let buffered = '';
    while (!buffered.includes('\n')) {
      const { value, done } = await reader.read();
      if (done) break;
      buffered += new TextDecoder().decode(value);
    }
    const listening = JSON.parse(buffered.split('\n')[0]!);
    expect(listening.event).toBe('listening');
    const url: string = listening.url;
    // Port 0 picked a free port, and the default base URL is the printed address: that port, not 0.
    const port = new URL(url).port;
    expect(port).not.toBe('0');
    expect(listening.base_url).toBe(`http://127.0.0.1:${port}`);
    expect(listening.base_url).toBe(url);
    // A second server on the same port fails (exit 2, JSON error) instead of sharing it.
    const second = Bun.spawn([process.execPath, MAIN, 'serve', '--port', port, '--data', tempDir()], { stdout: 'pipe', stderr: 'pipe' });
    // Were it to listen, it would print its listening line and never exit: whichever comes first.
    const printed = second.stdout.getReader().read();
    const listened = printed.then(async (r): Promise<number | 'listening'> => (r.done ? await second.exited : 'listening'));
    const outcome = await Promise.race([second.exited, listened]);
    if (outcome === 'listening') second.kill('SIGKILL');
    expect(outcome).toBe(2);
    const refused = JSON.parse((await new Response(second.stderr).text()).trim());
    expect(refused.error.code).toBe('CONFIG');
    expect(refused.error.message).toContain(`:${port}`);
    const health = await fetch(`${url}/healthz`);
    expect(await health.json()).toEqual({
      status: 'ok',
      service: 'svc',
      protocol: 'svc/1',
      waiting: 0,
      policy: 'svc-policy/1',
      version: '1.0.0',
      commit: expect.any(String),
    });
    const headers = { 'x-agent-protocol': 'svc/1', accept: 'application/json', 'content-type': 'application/json' };
    const reg = await fetch(`${url}/v1/agents`, { method: 'POST', headers, body: JSON.stringify({ name: 'durable' }) });
    expect(reg.status).toBe(200);
    const { api_key } = (await reg.json()) as { api_key: string };
    expect((await fetch(`${url}/v1/me`, { headers: { ...headers, authorization: `Bearer ${api_key}` } })).status).toBe(200);
    // A held wait is answered by the shutdown, not cut off.
    const wait = fetch(`${url}/v1/continuity/wait?timeout=90`, { headers: { ...headers, authorization: `Bearer ${api_key}` } });
    await until('the server to hold the wait', async () => ((await (await fetch(`${url}/healthz`)).json()) as { waiting: number }).waiting > 0, {
      pauseMs: 5,
    });
    proc.kill('SIGTERM');
    const answer = await wait;
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ event: 'timeout', reason: 'shutdown' });
    expect(await proc.exited).toBe(0);
    const db = new (require('bun:sqlite').Database)(join(data, 'svc.sqlite'), { readonly: true });
    expect(db.query("SELECT name FROM accounts WHERE name = 'durable'").get()).toEqual({ name: 'durable' });
    db.close();
  });

  test('a SIGTERM sent the moment the listening line appears is a clean stop (exit 0), not the default action', async () => {
    const proc = Bun.spawn([process.execPath, MAIN, 'serve', '--port', '0', '--data', tempDir()], { stdout: 'pipe', stderr: 'pipe' });
    const reader = proc.stdout.getReader();
    let buffered = '';
    while (!buffered.includes('"listening"')) {
      const { value, done } = await reader.read();
      if (done) break;
      buffered += new TextDecoder().decode(value);
    }
    proc.kill('SIGTERM');
    expect(await proc.exited).toBe(0);
  });

  test('a database written by a newer build stops the start with its own code, not INTERNAL', () => {
    const data = tempDir();
    expect(svc(['migrate', '--data', data]).code).toBe(0);
    const db = new (require('bun:sqlite').Database)(join(data, 'svc.sqlite'));
    db.query("INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES (9999, 'from_the_future', 'x', '2026-11-23')").run();
    db.close();
    const r = svc(['serve', '--port', '0', '--data', data]);
    expect(r.code).toBe(1);
    expect(r.json.error.code).toBe('MIGRATION_NEWER_DATABASE');
    expect(r.stderr).not.toContain('    at ');
  });

  test('a bad setting exits 2 with a JSON error', () => {
    const r = svc(['serve', '--port', 'eighty']);
    expect(r.code).toBe(2);
    expect(r.json.error.code).toBe('CONFIG');
  });
});
