// GET /readyz: whether this server can do its work, as opposed to /healthz (it answers at all).
// Three checks: every migration of this build is applied; the database takes a write (a row
// written and rolled back); a worker starts and answers (once per process: after the first
// success the check is not repeated, a failure is retried on the next call).
import type { AppContext } from '../context.ts';
import { MIGRATIONS } from '../db/migrations.ts';
import { workerAnswers } from '../workers/pool.ts';
import { appliedMigrations, probeWrite } from './store.ts';

export interface Readiness {
  ready: boolean;
  checks: {
    migrations: 'ok' | 'pending';
    database: 'ok' | 'not_writable' | 'unknown';
    workers: 'ok' | 'failed';
  };
}

const workersOk = new Map<string, Promise<void>>();

/** The worker check, shared by concurrent callers and kept once it passed. */
function workersCheck(location: string | URL | undefined): Promise<void> {
  const key = String(location ?? 'ping');
  let running = workersOk.get(key);
  if (!running) {
    running = workerAnswers(location);
    workersOk.set(key, running);
    running.catch(() => workersOk.delete(key));
  }
  return running;
}

// The last failure logged per context, so that a probe polling every few seconds logs a change once.
const lastLogged = new WeakMap<AppContext, string>();

function logFailure(ctx: AppContext, check: string, error: unknown): void {
  const line = JSON.stringify({ event: 'not_ready', check, error: String((error as Error)?.message ?? error) });
  if (lastLogged.get(ctx) === line) return;
  lastLogged.set(ctx, line);
  console.error(line);
}

/** Runs the three checks; `workerLocation` replaces the probe worker (tests). */
export async function readiness(ctx: AppContext, opts: { workerLocation?: string | URL } = {}): Promise<Readiness> {
  const applied = appliedMigrations(ctx.db);
  const migrations = applied !== null && MIGRATIONS.every((m) => applied.has(m.version)) ? 'ok' : 'pending';
  if (migrations === 'pending') logFailure(ctx, 'migrations', `pending: ${MIGRATIONS.filter((m) => !applied?.has(m.version)).length} of ${MIGRATIONS.length}`);
  let database: Readiness['checks']['database'] = 'unknown';
  if (applied !== null) {
    try {
      probeWrite(ctx.db);
      database = 'ok';
    } catch (e) {
      database = 'not_writable';
      logFailure(ctx, 'database', e);
    }
  }
  let workers: Readiness['checks']['workers'] = 'ok';
  try {
    await workersCheck(opts.workerLocation);
  } catch (e) {
    workers = 'failed';
    logFailure(ctx, 'workers', e);
  }
  const ready = migrations === 'ok' && database === 'ok' && workers === 'ok';
  if (ready) lastLogged.delete(ctx);
  return { ready, checks: { migrations, database, workers } };
}
