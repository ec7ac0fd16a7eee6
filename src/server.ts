// `svc serve`: migrate, listen, print one JSON "listening" line, and on SIGTERM/SIGINT stop
// accepting, let in-flight requests finish, close the database cleanly and exit 0.
import { createApp } from './app.ts';
import { systemClock } from './clock.ts';
import { type Config, ConfigError, defaultBaseUrl } from './config.ts';
import type { AppContext } from './context.ts';
import { serviceContext } from './compose.ts';
import { migrate } from './db/migrate.ts';
import { groupCommitIdle } from './db/group-commit.ts';
import { join } from 'node:path';
import { DB_FILE, openDatabase, shrinkMemory, WAL_AUTOCHECKPOINT_PAGES } from './db/open.ts';
import { closeDatabase } from './db/optimize.ts';
import { type Replication, startReplication } from './ops/replica.ts';
import { startReplicatedLog, startWalLog, type WalLog } from './ops/wal-log.ts';
import { startOutreachInbound } from './outreach/inbound.ts';
import { Scheduler } from './scheduler/scheduler.ts';
import { startPostsIndexMerges } from './search/merges.ts';

// Bun answers a body over this bound itself, with an empty 413. The routes' own budgets (64 KB,
// 4 MB for a lab publish) refuse by Content-Length before reading and count chunked bodies while
// reading, with the envelope; this bound only keeps Bun from ever answering first.
const MAX_BODY_BYTES = 2 ** 40;

/** How long after the listening line the cold documents are built (Parts.warmups). */
const WARMUP_DELAY_MS = 250;

declare module './context.ts' {
  interface Parts {
    /** Cold documents built in the background once the server listens (a domain's own cache entry), so no first reader waits for one. */
    warmups?: readonly ((ctx: AppContext) => Promise<void>)[];
  }
}

/**
 * Port 0 asks for any free port; the default base URL (http://HOST:PORT) then names the port
 * actually chosen, so the links the service builds (skill.md, OAuth metadata, previews) work.
 */
function withChosenPort(config: Config): Config {
  if (config.port !== 0 || config.baseUrl !== defaultBaseUrl(config.host, 0)) return config;
  const probe = Bun.listen({ hostname: config.host, port: 0, socket: { data() {} } });
  const port = probe.port;
  probe.stop(true);
  return Object.freeze({ ...config, port, baseUrl: defaultBaseUrl(config.host, port) });
}

export async function serve(given: Config): Promise<void> {
  const config = withChosenPort(given);
  const db = openDatabase(config.dataDir, { unsafeSyncNormal: config.unsafeSyncNormal });
  migrate(db);
  // SVC_REPLICA_URL: Litestream replicates the database from here on and is its only checkpointer
  // (its guidance: the application's autocheckpoint could race it and cost a new generation).
  let replication: Replication | null = null;
  // Whether Litestream runs now: while it does not, svc checkpoints in its commits again, and those
  // commits sync inside the commit (src/ops/wal-log.ts, startReplicatedLog).
  let litestreamUp = false;
  if (config.replica?.url) {
    const autocheckpoint = (pages: number) => db.exec(`PRAGMA wal_autocheckpoint = ${pages}`);
    const onUp = () => {
      autocheckpoint(0);
      litestreamUp = true;
    };
    const onDown = () => {
      litestreamUp = false;
      autocheckpoint(WAL_AUTOCHECKPOINT_PAGES);
    };
    replication = await startReplication(config.dataDir, DB_FILE, config.replica, { onUp, onDown }).catch((e) => {
      db.close();
      throw e;
    });
  }
  // Commits sync the log off the request thread (src/ops/wal-log.ts): without a replica svc's
  // worker checkpoints it too; with one Litestream does, and a commit in which the log may start
  // over syncs inside the commit. With SVC_UNSAFE_SYNC_NORMAL commits do not sync at all and SQLite
  // checkpoints in the commit as before.
  const walLog: WalLog | null = config.unsafeSyncNormal
    ? null
    : replication
      ? await startReplicatedLog(db, join(config.dataDir, DB_FILE), { litestreamUp: () => litestreamUp })
      : await startWalLog(db, join(config.dataDir, DB_FILE));
  const ctx = serviceContext(config, db, systemClock);
  const app = createApp(ctx);
  // reusePort off: a second server on a port already taken fails instead of sharing it (and the data).
  try {
    app.listen({ hostname: config.host, port: config.port, maxRequestBodySize: MAX_BODY_BYTES, idleTimeout: 120, reusePort: false });
  } catch (e) {
    await walLog?.stop();
    db.close();
    await replication?.stop();
    throw new ConfigError(
      `cannot listen on ${config.host}:${config.port} (${String((e as Error)?.message ?? e).split('\n')[0]}): stop the server using it, or pick another port with --port or SVC_PORT`,
    );
  }
  const server = app.server!;
  // The jobs of src/compose.ts; a missed slot is caught up once here. The catch-up is start-up
  // work: the pages it read (a scorecard's, over the whole board) are given back once it has run,
  // so the request connection's page cache fills with the requests' use only (7.4 MB of idle
  // memory at 10k when a scorecard was due; docs/performance.md, "Idle memory").
  let stopping = false;
  const scheduler = new Scheduler(ctx, ctx.parts.jobs);
  void scheduler.start().then((caught) => {
    if (!stopping && caught.some((run) => run.ran)) shrinkMemory(db);
  });
  // The full-text index's merges, on a worker's connection instead of in the group commit's
  // commits (src/search/merges.ts).
  const merges = startPostsIndexMerges(db, join(config.dataDir, DB_FILE), { afterMerge: () => walLog?.afterOutsideWrite() ?? null });
  // The outreach reply listener (SVC_SMTP_IN_PORT; nothing when unset).
  const inbound = await startOutreachInbound(ctx);
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    // No scheduled run starts now; the runs under way end first (their writes are in the group commit).
    const jobsEnded = scheduler.stop();
    // Waiting long-polls are answered now, so in-flight requests can finish promptly.
    await inbound.stop();
    ctx.events.close();
    // stop(false): no new connections; requests already in flight run to their end.
    await server.stop(false);
    await jobsEnded;
    // A merge step under way ends, and the merge worker's connection is closed before the last checkpoint.
    await merges.stop();
    // Writes nobody waits for (a session's last-seen time) are still queued: their batch commits before the close.
    await groupCommitIdle(db);
    // A checkpoint under way ends first; the last commits' syncs are answered by then (no request is left in flight).
    await walLog?.stop();
    // Replicated, the WAL is Litestream's: a TRUNCATE here would wait out busy_timeout on its read
    // lock, or reset the WAL behind its back. It stops after the close and ships what is left.
    if (!replication) db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    closeDatabase(db); // after a last PRAGMA optimize (src/db/optimize.ts)
    await replication?.stop();
    console.log(JSON.stringify({ event: 'stopped', signal }));
    process.exit(0);
  };
  // The handlers are in place before the listening line: a supervisor that stops the server as
  // soon as it has printed it gets a clean stop, not the default signal action (exit 143).
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  console.log(
    JSON.stringify({
      event: 'listening',
      url: `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${server.port}`,
      base_url: config.baseUrl,
      data_dir: config.dataDir,
    }),
  );
  // A moment after the listening line, not at it: a warm-up starts the board-reads worker, and
  // doing that while the first requests of a start arrive slowed the start's first /healthz. Each
  // logs its own failure.
  setTimeout(() => {
    for (const warm of ctx.parts.warmups ?? []) void warm(ctx);
  }, WARMUP_DELAY_MS);
}
