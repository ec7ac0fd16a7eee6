// The console's Health page: replication as this server knows it (off; on with the URL's password
// hidden, whether its Litestream runs, read from the pid file src/ops/replica.ts writes, and the lag
// read from Litestream's lines), the last backup `svc backup` recorded, database and WAL size,
// queue depths.
import { describe, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { replicaFiles } from '../../src/ops/replica.ts';
import { forgetStatus, observeLine } from '../../src/ops/replica-status.ts';
import { recordBackup } from '../../src/ops/store.ts';
import { makeApp } from '../helpers.ts';
import { send, signedIn, unescaped } from './console-harness.ts';

const facts = (html: string) => Object.fromEntries([...unescaped(html).matchAll(/<dt>([^<]*)<\/dt><dd>([^<]*)<\/dd>/g)].map((m) => [m[1]!, m[2]!]));

describe('the Health page', () => {
  test('without replication: off; the backup is not recorded; sizes and queue depths', async () => {
    const t = makeApp();
    const s = await signedIn(t);
    const f = facts((await send(t, 'GET', '/console/health', { cookie: s.cookie })).text);
    expect(f.Replication).toBe('off (SVC_REPLICA_URL is not set)');
    expect(f['Replica lag']).toBeUndefined();
    expect(f['Last backup']).toBe('none recorded: svc backup records each copy it completes here; copies made another way are not known');
    expect(f.Database).toMatch(/^\d+\.\d MB$/);
    expect(f['E-mails awaiting approval']).toBe('0');
  });

  test('with replication: the URL without its password, Litestream running or not by its pid file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-health-'));
    try {
      const t = makeApp({ SVC_DATA_DIR: dir, SVC_REPLICA_URL: 'sftp://svc:hunter2@backup.example/svc' });
      const s = await signedIn(t);
      const page = async () => {
        const r = await send(t, 'GET', '/console/health', { cookie: s.cookie });
        expect(r.text).not.toContain('hunter2');
        return facts(r.text);
      };
      let f = await page();
      expect(f.Replication).toBe('on, to sftp://svc:***@backup.example/svc; Litestream not running');
      expect(f['Replica lag']).toBe('unknown: Litestream is not running');
      const files = replicaFiles(dir);
      mkdirSync(files.dir, { recursive: true });
      // A live process stands in for Litestream: this test's own.
      writeFileSync(files.pid, `${JSON.stringify({ litestream: process.pid, svc: process.pid })}\n`);
      f = await page();
      expect(f.Replication).toBe(`on, to sftp://svc:***@backup.example/svc; Litestream running (pid ${process.pid})`);
      expect(f['Replica lag']).toBe('unknown yet: this server has seen no shipment to the replica since Litestream started');
      // Litestream's lines as src/ops/replica.ts forwards them (test/ops/replica-status.test.ts reads a real run's).
      const gen = '03dd222ddd5b97b8';
      const line = (msg: string, offset: number, sz?: number) => ({ event: 'litestream', level: 'info', msg, position: `${gen}/00000000:${offset}`, sz });
      const now = t.clock.now();
      observeLine(dir, line('replica sync', 16512), now);
      observeLine(dir, line('wal segment written', 0, 16512), now);
      t.clock.advance(90_000);
      f = await page();
      expect(f['Replica lag']).toBe(
        `caught up with the WAL Litestream has read (it reads new frames every 100ms); last shipment 2026-11-23T12:00:00.000Z (90 s ago), replica at ${gen}/00000000:16512`,
      );
      observeLine(dir, line('replica sync', 20632), t.clock.now());
      observeLine(dir, { event: 'litestream', level: 'error', msg: 'replica sync error', error: 'ssh: dial svc:hunter2@backup.example failed' }, t.clock.now());
      t.clock.advance(5 * 60_000);
      f = await page();
      expect(f['Replica lag']).toBe(
        `behind by 5 min: WAL up to ${gen}/00000000:20632 waits to be shipped; last shipment 2026-11-23T12:00:00.000Z (6 min ago), replica at ${gen}/00000000:16512`,
      );
      expect(f['Litestream error']).toBe('2026-11-23T12:01:30.000Z: replica sync error: ssh: dial svc:***@backup.example failed');
    } finally {
      forgetStatus(dir);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('the last backup svc backup recorded: when, how big, which schema and where (an operator’s page only)', async () => {
    const t = makeApp();
    const s = await signedIn(t);
    const at = Date.parse('2026-11-23T09:00:00Z');
    expect(recordBackup(t.db, { at: at - 86_400_000, file: '/srv/backups/old.sqlite', bytes: 1024, schema_version: 36 })).toBe(true);
    expect(recordBackup(t.db, { at, file: '/srv/backups/svc-2026-11-23.sqlite', bytes: 3 * 1048576, schema_version: 37 })).toBe(true);
    const f = facts((await send(t, 'GET', '/console/health', { cookie: s.cookie })).text);
    expect(f['Last backup']).toBe('2026-11-23T09:00:00.000Z (3 h ago): 3.0 MB, schema 37, to /srv/backups/svc-2026-11-23.sqlite');
    // Nowhere public: the path is the operator's.
    for (const path of ['/api/modlog', '/modlog', '/healthz', '/readyz']) expect((await t.call('GET', path)).text).not.toContain('/srv/backups');
  });
});
