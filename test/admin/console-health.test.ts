// The console's Health page: replication as this server knows it (off; on with the URL's password
// hidden, and whether its Litestream runs, read from the pid file src/ops/replica.ts writes), the
// last backup (svc keeps no record of one, and says so), database and WAL size, queue depths.
import { describe, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { replicaFiles } from '../../src/ops/replica.ts';
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
    expect(f['Last backup']).toContain('not recorded by svc');
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
      expect(f['Replica lag']).toBe('not measured; Litestream ships the WAL every 100ms');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
