// Replication off the machine (issue 26): when SVC_REPLICA_URL is set, `svc serve` runs Litestream
// 0.3.13 beside itself as a child process. svc writes a litestream config naming its database and
// the replica, starts `litestream replicate`, forwards its log lines as JSON lines on stderr,
// restarts it if it dies, and stops it (Litestream then ships the rest of the WAL) after the
// database is closed. Litestream is the only checkpointer while it runs: src/server.ts turns the
// connection's autocheckpoint off through the hooks below and leaves out its own TRUNCATE checkpoint.
//
// The binary is not embedded in dist/svc (30 MB): SVC_LITESTREAM_BIN names it, or it is found next
// to the running executable, in the npm package @flydotio/litestream-linux-x64, or on PATH.
import type { Subprocess } from 'bun';
import { accessSync, constants, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ConfigError, type Source } from '../config.ts';
import type { Domain } from '../context.ts';
import { type LogLine, observeLine } from './replica-status.ts';

/** The replica URL schemes Litestream 0.3.13 takes. */
export const REPLICA_SCHEMES = ['s3', 'gcs', 'abs', 'sftp', 'file'] as const;
/** Options svc accepts in the query of an s3:// URL and writes into the config (0.3.13's URL alone has no endpoint). */
const S3_OPTIONS = ['endpoint', 'region', 'force-path-style', 'skip-verify'] as const;
/** The npm package that ships the binary, and the binary's path inside it. */
export const LITESTREAM_PACKAGE = '@flydotio/litestream-linux-x64';
const PACKAGE_BINARY = join('node_modules', LITESTREAM_PACKAGE, 'litestream');

export interface ReplicaSettings {
  /** SVC_REPLICA_URL as Litestream takes it (svc's own query options removed); null: no replication. */
  url: string | null;
  /** The s3 options given in the URL's query (endpoint, region, force-path-style, skip-verify). */
  s3: Readonly<Record<string, string | boolean>>;
  /** SVC_LITESTREAM_BIN; null: look next to svc, in the npm package, then on PATH. */
  bin: string | null;
}

/** A URL with its password hidden, for messages and logs. */
export function redactUrl(raw: string): string {
  try {
    const u = new URL(raw);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return raw.replace(/\/\/([^/@:]*):[^/@]*@/, '//$1:***@');
  }
}

/** The replica settings from `src`; a URL Litestream would refuse stops the start with a ConfigError. */
export function loadReplicaSettings(src: Source): ReplicaSettings {
  const raw = src.SVC_REPLICA_URL?.trim() || null;
  const bin = src.SVC_LITESTREAM_BIN?.trim() || null;
  if (!raw) return Object.freeze({ url: null, s3: Object.freeze({}), bin });
  const shown = JSON.stringify(redactUrl(raw));
  const usage = 's3://BUCKET/PATH, gcs://BUCKET/PATH, abs://ACCOUNT@CONTAINER/PATH, sftp://USER@HOST/PATH or file:///ABSOLUTE/PATH';
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new ConfigError(`SVC_REPLICA_URL must be a Litestream replica URL (${usage}), got ${shown}`);
  }
  const scheme = u.protocol.replace(/:$/, '');
  if (!(REPLICA_SCHEMES as readonly string[]).includes(scheme)) {
    throw new ConfigError(`SVC_REPLICA_URL must be a Litestream replica URL (${usage}); the scheme ${scheme}: is not one of them, got ${shown}`);
  }
  if (scheme === 'file') {
    if (u.host !== '' || u.pathname === '/' || u.search) {
      throw new ConfigError(`SVC_REPLICA_URL file:// needs an absolute folder path and nothing else (file:///srv/replica), got ${shown}`);
    }
    return Object.freeze({ url: `file://${decodeURIComponent(u.pathname).replace(/\/+$/, '')}`, s3: Object.freeze({}), bin });
  }
  if (!u.host) throw new ConfigError(`SVC_REPLICA_URL ${scheme}:// needs a ${scheme === 'sftp' ? 'host' : 'bucket'}, got ${shown}`);
  const s3: Record<string, string | boolean> = {};
  for (const [key, value] of u.searchParams) {
    if (scheme !== 's3' || !(S3_OPTIONS as readonly string[]).includes(key)) {
      const allowed = scheme === 's3' ? `: only ${S3_OPTIONS.join(', ')}` : ' (only s3:// takes options)';
      throw new ConfigError(`SVC_REPLICA_URL has an unknown option ${JSON.stringify(key)}${allowed}`);
    }
    if (key === 'force-path-style' || key === 'skip-verify') {
      if (value !== 'true' && value !== 'false') throw new ConfigError(`SVC_REPLICA_URL option ${key} must be true or false, got ${JSON.stringify(value)}`);
      s3[key] = value === 'true';
    } else if (key === 'endpoint' && !/^https?:\/\/[^/]+/.test(value)) {
      throw new ConfigError(`SVC_REPLICA_URL option endpoint must be an http(s) URL, got ${JSON.stringify(value)}`);
    } else s3[key] = value;
  }
  u.search = '';
  return Object.freeze({ url: u.toString(), s3: Object.freeze(s3), bin });
}

declare module '../config.ts' {
  interface DomainSettings {
    replica: ReplicaSettings;
  }
}

/** What the composition root takes: the replica's settings section (no routes, no codes). */
export const REPLICA: Domain = { name: 'replica', settings: { key: 'replica', load: loadReplicaSettings } };

const executable = (path: string): boolean => {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
};

/**
 * The litestream binary: SVC_LITESTREAM_BIN, else the first found of `litestream` next to the
 * running executable (dist/svc), the npm package (beside the source tree, or beside dist/), PATH.
 */
export function findLitestream(settings: Pick<ReplicaSettings, 'bin'>, execPath = process.execPath, sourceDir = import.meta.dir): string {
  if (settings.bin) {
    if (executable(settings.bin)) return settings.bin;
    throw new ConfigError(`SVC_LITESTREAM_BIN names ${settings.bin}, which is not an executable file`);
  }
  // Inside dist/svc the source folder is Bun's embedded file system (/$bunfs/…): only the executable's own folder counts there.
  const fromSource = sourceDir.includes('$bunfs') || sourceDir.includes('~BUN') ? [] : [join(sourceDir, '..', '..', PACKAGE_BINARY)];
  const candidates = [...new Set([join(dirname(execPath), 'litestream'), ...fromSource, join(dirname(execPath), '..', PACKAGE_BINARY)])];
  const found = candidates.find(executable) ?? Bun.which('litestream');
  if (found) return found;
  throw new ConfigError(
    `SVC_REPLICA_URL is set but no litestream binary was found (looked at ${candidates.join(', ')} and PATH): ` +
      `install Litestream 0.3.13 (npm install ${LITESTREAM_PACKAGE}@1.0.1, or a release from https://github.com/benbjohnson/litestream/releases), ` +
      'put it next to svc or on PATH, or name it with SVC_LITESTREAM_BIN',
  );
}

/** `litestream version` (v0.3.13); a binary that cannot say stops the start. */
export function litestreamVersion(bin: string): string {
  const run = () => {
    try {
      return Bun.spawnSync([bin, 'version'], { stdin: 'ignore', stdout: 'pipe', stderr: 'pipe' });
    } catch (e) {
      throw new ConfigError(`cannot run ${bin} (${String((e as Error)?.message ?? e)}): SVC_LITESTREAM_BIN must name a litestream binary`);
    }
  };
  const out = run();
  const version = out.stdout.toString().trim();
  if (out.exitCode !== 0 || !/^v?\d+\.\d+/.test(version)) {
    throw new ConfigError(
      `${bin} is not a working litestream (\`litestream version\` exited ${out.exitCode}: ${JSON.stringify(version || out.stderr.toString().trim())})`,
    );
  }
  return version;
}

// The recovery point when the machine is lost (issue 36, docs/operations.md "Measured recovery
// point"): what Litestream has not shipped yet. 0.3.13 ships in two steps, each on its own tick:
// the database monitor copies new WAL frames into the shadow WAL (monitor-interval), and the
// replica ships the shadow WAL's new frames as one segment at most once per sync-interval. With
// both at their default 1 s, a crash lost up to ~1 s even at 100 writes/s (bench/replica-drill.ts);
// at 100 ms each it loses ~0.1 s. The ticks cost nothing while nothing is written (a replica ships
// only after the database changed); under a steady write load an S3 replica gets up to ten PUTs a
// second.
/** How often Litestream copies new WAL frames into its shadow WAL (0.3.13's default: 1 s). */
export const LITESTREAM_MONITOR_INTERVAL = '100ms';
/** The least time between two shipments to the replica (0.3.13's default: 1 s). */
export const LITESTREAM_SYNC_INTERVAL = '100ms';
/**
 * How long a stopping svc sees litestream quiet (no upload started, its last database sync done)
 * before SIGTERM: three sync intervals, so a replica loop waiting on its tick has started the
 * upload of the last frames by then (src/ops/replica.ts caughtUp).
 */
const STOP_QUIET_MS = 300;
/** The WAL pages (of the current WAL) from which Litestream checkpoints (0.3.13's default: 1,000). */
export const LITESTREAM_MIN_CHECKPOINT_PAGES = 10_000;

// A JSON string is a valid YAML double-quoted scalar.
const q = (s: string) => JSON.stringify(s);

/** The litestream config (YAML) for one database and one replica, JSON logs on stdout. */
export function litestreamConfig(dbPath: string, settings: ReplicaSettings): string {
  if (!settings.url) throw new Error('litestreamConfig needs a replica URL');
  const lines = [
    '# Written by `svc serve` from SVC_REPLICA_URL at every start; edits here are overwritten.',
    '# To run Litestream yourself instead (a sidecar), unset SVC_REPLICA_URL: see docs/operations.md.',
    'logging:',
    '  type: json',
    // svc reads the debug lines (the first "sync: ok" says it replicates) and forwards info and up.
    '  level: debug',
    'dbs:',
    `  - path: ${q(dbPath)}`,
    // No RESTART checkpoints: 0.3.13's (from 10,000 WAL pages) blocks writers while it waits, and
    // under a sustained write load svc's writes then failed SQLITE_BUSY after busy_timeout (5 s).
    // PASSIVE ones remain (from 10,000 pages, below, or each minute), and the TRUNCATE past ~2 GB of WAL.
    '    max-checkpoint-page-count: 0',
    // PASSIVE checkpoints from 10,000 WAL pages (~40 MB), not 1,000: 0.3.13 checks on every
    // monitor tick, and a checkpoint after which the WAL starts over holds the write lock while
    // Litestream copies the old WAL's end. At 100 ms ticks and 1,000 pages that happened several
    // times a second under load; svc's writes stalled and 2 of 16 drills at 500 writes/s refused
    // a write (SQLITE_BUSY past busy_timeout). At 10,000 pages: none in 10, and a smaller lag.
    `    min-checkpoint-page-count: ${LITESTREAM_MIN_CHECKPOINT_PAGES}`,
    `    monitor-interval: ${LITESTREAM_MONITOR_INTERVAL}`,
    '    replicas:',
    `      - url: ${q(settings.url)}`,
    `        sync-interval: ${LITESTREAM_SYNC_INTERVAL}`,
  ];
  for (const [key, value] of Object.entries(settings.s3)) lines.push(`        ${key}: ${typeof value === 'boolean' ? String(value) : q(value)}`);
  return `${lines.join('\n')}\n`;
}

/** Where svc keeps the config it writes and the pid of the litestream it runs: DATA/litestream/. */
export const replicaFiles = (dataDir: string) => {
  const dir = join(dataDir, 'litestream');
  return { dir, config: join(dir, 'litestream.yml'), pid: join(dir, 'litestream.pid') };
};

export type { LogLine };

/** A litestream output line as one svc JSON log line: `{"event":"litestream","level":"info","msg":…,…}`. */
export function forwardedLine(line: string, stream: 'stdout' | 'stderr'): LogLine {
  try {
    const parsed = JSON.parse(line) as Record<string, unknown>;
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed) && typeof parsed.msg === 'string') {
      const { time: _time, level, msg, ...rest } = parsed;
      return { event: 'litestream', level: String(level ?? 'info').toLowerCase(), msg, ...rest };
    }
  } catch {}
  return { event: 'litestream', level: stream === 'stderr' ? 'error' : 'info', msg: line };
}

/**
 * What a stop needs to know of a running litestream, read from its log lines: its database syncs
 * (the debug line `sync: ok`, one a monitor tick: the shadow WAL holds the WAL as of that tick) and
 * its uploads (`write wal segment` / `write snapshot` when one starts; `wal segment written` /
 * `snapshot written`, or `monitor error`, when it ends).
 */
export class LitestreamProgress {
  syncs = 0;
  uploadsStarted = 0;
  uploadsEnded = 0;
  /** performance.now() of the last upload's start. */
  lastUploadAt = 0;

  observe(line: LogLine, now = performance.now()): void {
    switch (line.msg) {
      case 'sync: ok':
        this.syncs++;
        break;
      case 'write wal segment':
      case 'write snapshot':
        this.uploadsStarted++;
        this.lastUploadAt = now;
        break;
      case 'wal segment written':
      case 'snapshot written':
      case 'monitor error':
        // An error ends the upload under way; one logged without an upload (no generation yet) ends none.
        if (this.uploadsEnded < this.uploadsStarted) this.uploadsEnded++;
        break;
    }
  }

  get uploading(): boolean {
    return this.uploadsEnded < this.uploadsStarted;
  }
}

/**
 * Waits until litestream has caught up with a database that was closed before the call: two of its
 * database syncs have ended since (the second began after the close, so its shadow WAL holds every
 * frame), no upload is under way, and none has started for `quietMs` (its replica loop, on its
 * sync-interval tick, ships what the last sync copied). Resolves false when `limitMs` ran out first.
 *
 * Why: a SIGTERM while 0.3.13's replica loop was writing a segment made its shutdown write the same
 * segment at once; the two raced on one `.tmp` file, one failed, and a restore of the replica
 * lacked the last acknowledged write (the replication drill beside busy cores, 2026-12-07).
 */
export async function caughtUp(progress: LitestreamProgress, quietMs: number, limitMs: number, exited: () => boolean): Promise<boolean> {
  const deadline = performance.now() + limitMs;
  const syncsAtClose = progress.syncs;
  let synced = 0; // when the second sync since the close was seen
  while (!exited()) {
    const now = performance.now();
    if (!synced && progress.syncs >= syncsAtClose + 2) synced = now;
    // Quiet since that sync and since the last upload began: an upload of its frames would have started.
    if (synced && now - synced >= quietMs && !progress.uploading && now - progress.lastUploadAt >= quietMs) return true;
    if (now > deadline) return false;
    await Bun.sleep(20);
  }
  return true;
}

export interface ReplicationHooks {
  /** Litestream replicates: it checkpoints from now on (src/server.ts turns autocheckpoint off). */
  onUp(): void;
  /** Litestream is not running: the application checkpoints again until it is back. */
  onDown(): void;
  /** One JSON log line (default: stderr). */
  log?(line: LogLine): void;
}

export interface ReplicationOptions {
  /** How long a starting litestream may take to say it replicates (default 60 s). */
  startMs?: number;
  /** How long a stopping litestream may take to ship the rest of the WAL before it is killed (default 60 s). */
  stopMs?: number;
  /**
   * How long a stop waits for litestream to catch up (the closed database's last frames in its
   * shadow WAL, no segment being written) before it sends SIGTERM anyway (default 20 s: the systemd unit gives a stop 60 s).
   */
  catchUpMs?: number;
  /** The first pause before a litestream that died is started again; doubles up to 60 s (default 1 s). */
  restartMs?: number;
  /** Where the binary is looked for (tests). */
  execPath?: string;
}

export interface Replication {
  /** The binary and the version it reported. */
  readonly bin: string;
  readonly version: string;
  /** The pid of the litestream running now (null between a crash and its restart). */
  pid(): number | null;
  /**
   * Stops litestream once it has caught up with the closed database (`caughtUp`), then SIGTERM: it
   * ships what is left of the WAL and exits; killed after `stopMs`.
   */
  stop(): Promise<void>;
}

/** Whether `pid` runs: a zombie (exited, not yet reaped by its new parent) does not. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    return (e as NodeJS.ErrnoException)?.code === 'EPERM';
  }
  try {
    // /proc/PID/stat: "PID (comm) STATE …"; the command may hold spaces and parentheses.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true; // no /proc here: kill(0) is all there is to go by
  }
}

/** Polls until `pid` is gone: at most `ms` (the process is not ours to await). */
async function gone(pid: number, ms: number): Promise<boolean> {
  const deadline = performance.now() + ms;
  while (alive(pid)) {
    if (performance.now() > deadline) return false;
    await Bun.sleep(50);
  }
  return true;
}

/**
 * A litestream left running by an svc that was killed (SIGKILL, OOM): the child outlives its
 * parent (until its next log line meets the closed pipe: SIGPIPE ends it within about a second).
 * Two litestreams on one database and one replica corrupt the replica, so a leftover is stopped
 * (SIGTERM: it ships the rest of the WAL) before a new one starts. Only a process whose command
 * line names this data folder's config is touched; one whose svc still runs belongs to another
 * server on the same folder, and this start is refused.
 */
async function stopLeftover(pidFile: string, configPath: string, stopMs: number, log: (l: LogLine) => void): Promise<void> {
  if (!existsSync(pidFile)) return;
  let recorded: { litestream?: unknown; svc?: unknown } = {};
  try {
    recorded = JSON.parse(readFileSync(pidFile, 'utf8'));
  } catch {}
  const pid = Number(recorded.litestream);
  const owner = Number(recorded.svc);
  if (!Number.isInteger(pid) || pid <= 0 || !alive(pid)) return void rmSync(pidFile, { force: true });
  let cmdline = '';
  try {
    cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {}
  if (!cmdline.split('\0').includes(configPath)) {
    if (!cmdline)
      log({ event: 'replica', level: 'warn', state: 'leftover_unchecked', pid, msg: 'cannot read /proc to check a leftover litestream; left alone' });
    return void rmSync(pidFile, { force: true });
  }
  if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && alive(owner)) {
    throw new ConfigError(
      `another svc (pid ${owner}) runs litestream (pid ${pid}) on this data folder: stop it first (if that pid is not an svc, remove ${pidFile})`,
    );
  }
  log({
    event: 'replica',
    level: 'warn',
    state: 'stopping_leftover',
    pid,
    msg: 'a litestream from a previous run still replicates this database: stopping it first',
  });
  process.kill(pid, 'SIGTERM');
  if (!(await gone(pid, stopMs))) {
    process.kill(pid, 'SIGKILL');
    await gone(pid, stopMs);
  }
  rmSync(pidFile, { force: true });
}

/** Reads a stream line by line until it ends. */
async function eachLine(stream: ReadableStream<Uint8Array>, onLine: (line: string) => void): Promise<void> {
  const decoder = new TextDecoder();
  let buffered = '';
  const reader = stream.getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffered += decoder.decode(value, { stream: true });
    let nl = buffered.indexOf('\n');
    while (nl >= 0) {
      const line = buffered.slice(0, nl).trim();
      buffered = buffered.slice(nl + 1);
      if (line) onLine(line);
      nl = buffered.indexOf('\n');
    }
  }
  if (buffered.trim()) onLine(buffered.trim());
}

const defaultLog = (line: LogLine) => console.error(JSON.stringify(line));

/**
 * Starts replicating `dataDir/dbFile` to `settings.url`: finds the binary (ConfigError if none),
 * stops a leftover litestream, writes the config, starts `litestream replicate` and resolves once it
 * says it replicates. A litestream that exits before that stops the start with a ConfigError
 * carrying its last error; one that dies later is logged and started again.
 */
export async function startReplication(
  dataDir: string,
  dbFile: string,
  settings: ReplicaSettings,
  hooks: ReplicationHooks,
  options: ReplicationOptions = {},
): Promise<Replication> {
  if (!settings.url) throw new Error('startReplication needs a replica URL');
  const log = hooks.log ?? defaultLog;
  const { startMs = 60_000, stopMs = 60_000, restartMs = 1000, catchUpMs = 20_000 } = options;
  const bin = findLitestream(settings, options.execPath);
  const version = litestreamVersion(bin);
  if (!version.startsWith('v0.3.')) {
    log({ event: 'replica', level: 'warn', state: 'untested_version', version, msg: 'svc writes a Litestream 0.3 config; other versions are untested' });
  }
  const files = replicaFiles(dataDir);
  mkdirSync(files.dir, { recursive: true });
  await stopLeftover(files.pid, files.config, stopMs, log);
  writeFileSync(files.config, litestreamConfig(join(dataDir, dbFile), settings), { mode: 0o600 });

  let child: Subprocess<'ignore', 'pipe', 'pipe'> | null = null;
  let progress = new LitestreamProgress();
  let stopping = false;
  let restartTimer: ReturnType<typeof setTimeout> | null = null;
  let nextRestartMs = restartMs;

  const launch = (): Promise<void> =>
    new Promise((resolve, reject) => {
      let ready = false;
      let lastError = '';
      let proc: Subprocess<'ignore', 'pipe', 'pipe'>;
      try {
        // detached: a Ctrl-C in a terminal reaches svc alone; svc stops litestream after the database closes.
        proc = Bun.spawn([bin, 'replicate', '-config', files.config, '-no-expand-env'], { stdin: 'ignore', stdout: 'pipe', stderr: 'pipe', detached: true });
      } catch (e) {
        reject(new ConfigError(`cannot start ${bin}: ${String((e as Error)?.message ?? e)}`));
        return;
      }
      child = proc;
      const seen = new LitestreamProgress();
      progress = seen;
      writeFileSync(files.pid, `${JSON.stringify({ litestream: proc.pid, svc: process.pid })}\n`);
      const timer = setTimeout(() => {
        if (ready) return;
        proc.kill('SIGKILL');
        reject(new ConfigError(`litestream did not start replicating within ${Math.round(startMs / 1000)} s${lastError ? `: ${lastError}` : ''}`));
      }, startMs);
      const onLine = (stream: 'stdout' | 'stderr') => (text: string) => {
        const line = forwardedLine(text, stream);
        observeLine(dataDir, line);
        seen.observe(line);
        if (line.level === 'error') lastError = [line.msg, line.error].filter(Boolean).join(': ');
        if (line.level !== 'debug') log(line);
        // Its first sync: before it, a stop would ship nothing (0.3.13 opens the database on its first tick).
        if (!ready && line.msg === 'sync: ok') {
          ready = true;
          clearTimeout(timer);
          nextRestartMs = restartMs;
          log({ event: 'replica', level: 'info', state: 'replicating', pid: proc.pid, url: redactUrl(settings.url!), litestream: bin, version });
          hooks.onUp();
          resolve();
        }
      };
      const streams = Promise.all([eachLine(proc.stdout, onLine('stdout')), eachLine(proc.stderr, onLine('stderr'))]);
      void proc.exited.then(async (code) => {
        await streams.catch(() => {});
        clearTimeout(timer);
        if (child === proc) child = null;
        if (!ready) {
          reject(
            new ConfigError(
              `litestream exited with code ${code} before replicating${lastError ? `: ${lastError}` : ''} (SVC_REPLICA_URL ${redactUrl(settings.url!)})`,
            ),
          );
          return;
        }
        // A stop was asked for: the database is closed already, and nothing restarts.
        if (stopping) return;
        hooks.onDown();
        log({
          event: 'replica',
          level: 'error',
          state: 'exited',
          pid: proc.pid,
          code,
          restart_in_ms: nextRestartMs,
          msg: 'litestream exited; starting it again',
        });
        scheduleRestart();
      });
    });

  const scheduleRestart = () => {
    const wait = nextRestartMs;
    nextRestartMs = Math.min(nextRestartMs * 2, 60_000);
    restartTimer = setTimeout(() => {
      restartTimer = null;
      if (stopping) return;
      launch().catch((e) => {
        log({ event: 'replica', level: 'error', state: 'restart_failed', error: String((e as Error)?.message ?? e) });
        if (!stopping) scheduleRestart();
      });
    }, wait);
  };

  await launch();

  return {
    bin,
    version,
    pid: () => child?.pid ?? null,
    async stop() {
      stopping = true;
      if (restartTimer) clearTimeout(restartTimer);
      const proc = child;
      if (proc) {
        // The database is closed: its last frames are in the WAL. SIGTERM once litestream has them
        // shipped, never while it writes a segment (see caughtUp).
        let exited = false;
        void proc.exited.then(() => (exited = true));
        if (!(await caughtUp(progress, STOP_QUIET_MS, catchUpMs, () => exited))) {
          log({
            event: 'replica',
            level: 'warn',
            state: 'stopping_behind',
            pid: proc.pid,
            waited_ms: catchUpMs,
            msg: 'litestream had not caught up; stopping it anyway (it ships the rest on its way out)',
          });
        }
        proc.kill('SIGTERM');
        const killer = setTimeout(() => proc.kill('SIGKILL'), stopMs);
        const code = await proc.exited;
        clearTimeout(killer);
        log({ event: 'replica', level: code === 0 ? 'info' : 'error', state: 'stopped', pid: proc.pid, code });
      }
      rmSync(files.pid, { force: true });
    },
  };
}
