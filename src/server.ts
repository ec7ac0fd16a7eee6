// `svc serve`: migrate, listen, print one JSON "listening" line, and on SIGTERM/SIGINT stop
// accepting, let in-flight requests finish, close the database cleanly and exit 0.
import { createApp } from './app.ts';
import { systemClock } from './clock.ts';
import type { Config } from './config.ts';
import { createContext } from './context.ts';
import { migrate } from './db/migrate.ts';
import { openDatabase } from './db/open.ts';
import { startOutreachInbound } from './outreach/inbound.ts';
import { Scheduler } from './scheduler/scheduler.ts';

// Bun answers a body over this bound itself, with an empty 413. The routes' own budgets (64 KB,
// 4 MB for a lab publish) refuse by Content-Length before reading and count chunked bodies while
// reading, with the envelope; this bound only keeps Bun from ever answering first.
const MAX_BODY_BYTES = 2 ** 40;

export async function serve(config: Config): Promise<void> {
  const db = openDatabase(config.dataDir);
  migrate(db);
  const ctx = createContext(config, db, systemClock);
  const app = createApp(ctx);
  app.listen({ hostname: config.host, port: config.port, maxRequestBodySize: MAX_BODY_BYTES, idleTimeout: 120 });
  const server = app.server!;
  // The jobs of src/compose.ts; a missed slot is caught up once here.
  const scheduler = new Scheduler(ctx, ctx.parts.jobs);
  void scheduler.start();
  // The outreach reply listener (SVC_SMTP_IN_PORT; nothing when unset).
  const inbound = await startOutreachInbound(ctx);
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
    await inbound.stop();
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
