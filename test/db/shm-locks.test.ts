// GET /metrics reads the log's size from the -shm file. A descriptor of that file opened and closed
// in the server's process drops every POSIX lock the process holds on it, SQLite's included: the
// next connection of another process then found no other user of the WAL-index, rebuilt it, and
// the server, its memory map of the old one cut short, died of a bus error at its next write
// (found by a bench whose /metrics scrape ran beside it).
import { Database } from 'bun:sqlite';
import { expect, test } from 'bun:test';
import { join } from 'node:path';
import { AGENT_HEADERS } from '../helpers.ts';
import { startServer, tempDir } from '../ops/cli.ts';

test('another process opening the database after a GET /metrics leaves the server running and writing', async () => {
  const dir = tempDir();
  const server = await startServer(dir);
  const register = (name: string) => fetch(`${server.url}/v1/agents`, { method: 'POST', headers: AGENT_HEADERS, body: JSON.stringify({ name }) });
  expect((await register('first')).status).toBe(200);
  for (let i = 0; i < 3; i++) {
    expect((await fetch(`${server.url}/metrics`)).status).toBe(200);
    // Another process's connection (Litestream, `svc admin`, a backup, sqlite3): opened and closed.
    const other = Bun.spawnSync([
      process.execPath,
      '-e',
      `const { Database } = require('bun:sqlite'); const d = new Database(${JSON.stringify(join(dir, 'svc.sqlite'))}); d.query('SELECT count(*) FROM accounts').get(); d.close();`,
    ]);
    expect([other.exitCode, other.stderr.toString().slice(0, 300)]).toEqual([0, '']);
    expect((await register(`next${i}`)).status).toBe(200);
  }
  expect(await server.stop()).toBe(0);
  const db = new Database(join(dir, 'svc.sqlite'), { readonly: true });
  expect(db.query<{ n: number }, []>("SELECT count(*) AS n FROM accounts WHERE name LIKE 'next%'").get()!.n).toBe(3);
  db.close();
});
