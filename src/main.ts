#!/usr/bin/env bun
// The svc command: serve | admin … | migrate | backup FILE. No logic of its own.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ADMIN_USAGE, adminError, runAdmin } from './admin/cli.ts';
import { systemClock } from './clock.ts';
import { ConfigError, takeSettingFlags } from './config.ts';
import { loadConfig } from './compose.ts';
import { serviceContext } from './compose.ts';
import { migrate } from './db/migrate.ts';
import { DB_FILE, openDatabase } from './db/open.ts';
import { serve } from './server.ts';

const USAGE = `usage: svc [serve] [--port N] [--host H] [--data DIR] [--base-url URL]
       svc migrate [--data DIR]
       svc backup FILE [--data DIR]
       ${ADMIN_USAGE.split('\n').join('\n       ')}`;

function out(value: unknown): void {
  console.log(JSON.stringify(value));
}

function die(value: unknown, code = 1): never {
  console.error(JSON.stringify(value));
  process.exit(code);
}

async function main(argv: string[]): Promise<void> {
  const { flags, rest } = takeSettingFlags(argv);
  const config = loadConfig(process.env, flags);
  const [command = 'serve', ...args] = rest;
  switch (command) {
    case 'serve':
      if (args.length) die({ error: { code: 'USAGE', message: `unexpected argument ${args[0]}`, usage: USAGE } }, 2);
      return serve(config);
    case 'migrate': {
      const db = openDatabase(config.dataDir);
      const result = migrate(db);
      db.close();
      return out({ migrated: result.applied, version: result.current, data_dir: config.dataDir });
    }
    case 'backup': {
      const file = args[0];
      if (!file || args.length > 1) die({ error: { code: 'USAGE', message: 'backup needs exactly one FILE', usage: USAGE } }, 2);
      const target = resolve(file);
      if (existsSync(target)) die({ error: { code: 'EXISTS', message: `${target} already exists; choose a new file` } });
      const db = openDatabase(config.dataDir);
      migrate(db);
      // VACUUM INTO writes a consistent, compacted copy even while a server is writing (WAL).
      db.query('VACUUM INTO ?').run(target);
      db.close();
      return out({ backup: target, data_dir: config.dataDir });
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
      try {
        out(await runAdmin(ctx, args));
      } catch (err) {
        db.close();
        die(adminError(err));
      }
      db.close();
      return;
    }
    case 'help':
    case '--help':
    case '-h':
      console.log(USAGE);
      return;
    default:
      die({ error: { code: 'USAGE', message: `unknown command ${command}`, usage: USAGE } }, 2);
  }
}

main(process.argv.slice(2)).catch((err) => {
  if (err instanceof ConfigError) die({ error: { code: 'CONFIG', message: err.message } }, 2);
  die({ error: { code: 'INTERNAL', message: String(err?.stack ?? err) } });
});
