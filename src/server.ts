// `svc serve`: migrate, listen, print one JSON "listening" line, and on SIGTERM/SIGINT stop
// accepting, let in-flight requests finish, close the database cleanly and exit 0.
import { createApp } from './app.ts';
import { systemClock } from './clock.ts';
import type { Config } from './config.ts';
import { createContext } from './context.ts';
import { migrate } from './db/migrate.ts';
import { openDatabase } from './db/open.ts';
import { LAB_PUBLISH_BYTES } from './http/plugin.ts';
import { registeredJobs } from './scheduler/registry.ts';
import { Scheduler } from './scheduler/scheduler.ts';

// Large enough for a lab publish; ordinary agent routes refuse past 64 KB with the 413 envelope.
const MAX_BODY_BYTES = LAB_PUBLISH_BYTES;

export async function serve(config: Config): Promise<void> {
  const db = openDatabase(config.dataDir);
  migrate(db);
  const ctx = createContext(config, db, systemClock);
  const app = createApp(ctx);
  app.listen({ hostname: config.host, port: config.port, maxRequestBodySize: MAX_BODY_BYTES, idleTimeout: 120 });
  const server = app.server!;
  // Jobs registered by the plugins createApp mounted; a missed slot is caught up once here.
  const scheduler = new Scheduler(ctx, registeredJobs());
  void scheduler.start();
  console.log(
    JSON.stringify({
      event: 'listening',
      url: `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${server.port}`,
      base_url: config.baseUrl,
      data_dir: config.dataDir,
    }),
  );

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    // Waiting long-polls are answered now, so in-flight requests can finish promptly.
    scheduler.stop();
    ctx.events.close();
    // stop(false): no new connections; requests already in flight run to their end.
    await server.stop(false);
    db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    db.close();
    console.log(JSON.stringify({ event: 'stopped', signal }));
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}
