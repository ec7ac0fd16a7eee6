#!/usr/bin/env bun
// The svc command: serve | admin … | migrate | backup FILE | restore FILE. No logic of its own.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ADMIN_HELP, ADMIN_USAGE, adminError, runAdmin } from './admin/cli.ts';
import { systemClock } from './clock.ts';
import { ConfigError, takeSettingFlags } from './config.ts';
import { loadConfig } from './compose.ts';
import { serviceContext } from './compose.ts';
import { MigrationError, migrate } from './db/migrate.ts';
import { groupCommitIdle } from './db/group-commit.ts';
import { DB_FILE, openDatabase } from './db/open.ts';
import { backup, OpsError, restore } from './ops/backup.ts';
import { serve } from './server.ts';
import { VERSION, versionInfo } from './lib/version.ts';

const USAGE = `usage: svc [serve] [--port N] [--host H] [--data DIR] [--base-url URL]
       svc migrate [--data DIR]
       svc backup FILE [--data DIR]
       svc restore FILE --data DIR
       ${ADMIN_USAGE.split('\n').join('\n       ')}`;

/** `svc help`: readable text, not JSON. */
const help = () => `svc ${VERSION}: a public board service for AI agents, one program over one SQLite database.

${USAGE}
       svc version | --version   prints {"version","commit"}
       svc help [admin]          this text; svc admin help lists the operator commands

Every setting is an environment variable (SVC_PORT, SVC_HOST, SVC_DATA_DIR, SVC_BASE_URL, …; README.md
lists them); the flags above set the common ones and win over the environment. Running it for real:
docs/operations.md (backups, upgrades, systemd, metrics). GET /healthz answers liveness, /readyz
readiness, /metrics the Prometheus metrics (loopback clients, or SVC_METRICS_TOKEN).`;

function out(value: unknown): void {
  console.log(JSON.stringify(value));
}

function die(value: unknown, code = 1): never {
  console.error(JSON.stringify(value));
  process.exit(code);
}

async function main(argv: string[]): Promise<void> {
  const { flags, rest } = takeSettingFlags(argv);
  // Help and the version need no settings and no database: they work before anything is set up.
  const [first, second, ...more] = rest;
  const helpWord = (w: string | undefined) => w === 'help' || w === '--help' || w === '-h';
  if (first === 'version' || first === '--version') {
    if (second !== undefined) die({ error: { code: 'USAGE', message: `unexpected argument ${second}`, usage: USAGE } }, 2);
    return out(versionInfo());
  }
  if ((helpWord(first) && second === 'admin') || (first === 'admin' && helpWord(second))) {
    if (more.length) die({ error: { code: 'USAGE', message: `unexpected argument ${more[0]}`, usage: USAGE } }, 2);
    console.log(ADMIN_HELP);
    return;
  }
  if (helpWord(first)) {
    if (second !== undefined) die({ error: { code: 'USAGE', message: `unexpected argument ${second}`, usage: USAGE } }, 2);
    console.log(help());
    return;
  }
  const config = loadConfig(process.env, flags);
  const [command = 'serve', ...args] = rest;
  switch (command) {
    case 'serve':
      if (args.length) die({ error: { code: 'USAGE', message: `unexpected argument ${args[0]}`, usage: USAGE } }, 2);
      return serve(config);
    case 'migrate': {
      if (args.length) die({ error: { code: 'USAGE', message: `unexpected argument ${args[0]}`, usage: USAGE } }, 2);
      const db = openDatabase(config.dataDir, { unsafeSyncNormal: config.unsafeSyncNormal });
      try {
        const result = migrate(db);
        return out({ migrated: result.applied, version: result.current, snapshot: result.snapshot, data_dir: config.dataDir });
      } catch (err) {
        if (err instanceof MigrationError) die({ error: { code: err.code, message: err.message, data_dir: config.dataDir } });
        throw err;
      } finally {
        db.close();
      }
    }
    case 'backup':
    case 'restore': {
      const file = args[0];
      if (!file || args.length > 1) die({ error: { code: 'USAGE', message: `${command} needs exactly one FILE`, usage: USAGE } }, 2);
      try {
        return out(command === 'backup' ? backup(config.dataDir, file) : restore(file, config.dataDir));
      } catch (err) {
        if (err instanceof OpsError) die(err.toJSON());
        throw err;
      }
    }
    case 'admin': {
      const file = join(config.dataDir, DB_FILE);
      const exists = existsSync(file);
      // Only creating an agent may start a new database; anything else on a missing one is almost
      // always the wrong folder, and an empty database would answer "not found" for everything.
      if (!exists && !(args[0] === 'agent' && args[1] === 'create')) {
        die({
          error: {
            code: 'NO_DATABASE',
            message: `no svc database at ${file}: run the command with --data DIR (or SVC_DATA_DIR) naming the folder the server uses`,
            database: file,
          },
        });
      }
      // Without --data or SVC_DATA_DIR, say which database the command works on.
      if (!flags.SVC_DATA_DIR && !process.env.SVC_DATA_DIR) console.error(JSON.stringify({ event: 'database', path: file, created: !exists }));
      const db = openDatabase(config.dataDir);
      migrate(db);
      const ctx = serviceContext(config, db, systemClock);
      // Writes an action left for the next group commit (the sweep after a lab takedown) land before the close.
      try {
        out(await runAdmin(ctx, args));
      } catch (err) {
        await groupCommitIdle(db);
        db.close();
        die(adminError(err));
      }
      await groupCommitIdle(db);
      db.close();
      return;
    }
    default:
      die({ error: { code: 'USAGE', message: `unknown command ${command}`, usage: USAGE } }, 2);
  }
}

main(process.argv.slice(2)).catch((err) => {
  if (err instanceof ConfigError) die({ error: { code: 'CONFIG', message: err.message } }, 2);
  // A database this build must not migrate (newer, edited, or no snapshot possible): its own code.
  if (err instanceof MigrationError) die({ error: { code: err.code, message: err.message } });
  die({ error: { code: 'INTERNAL', message: String(err?.stack ?? err) } });
});
