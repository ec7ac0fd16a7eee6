// The service's own series read at scrape time (src/metrics/collect.ts): the outreach queue with a
// real relay, the database's files, and reads that stay index lookups however long the service runs.
import { describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runAdmin } from '../../src/admin/cli.ts';
import { loadConfig, serviceContext } from '../../src/compose.ts';
import { ManualClock } from '../../src/clock.ts';
import { migrate } from '../../src/db/migrate.ts';
import { logSizeOf } from '../../src/db/wal-index.ts';
import { DB_FILE, openDatabase } from '../../src/db/open.ts';
import { serviceMetrics } from '../../src/metrics/collect.ts';
import { metricsStore } from '../../src/metrics/store.ts';
import { migratedDb, plan } from '../db/plans.ts';
import { makeOutreachApp, outreachEnv } from '../outreach/harness.ts';
import { parseExposition, sampleOf } from './exposition.ts';

const env = outreachEnv();
const queue = (t: { ctx: Parameters<typeof serviceMetrics>[0] }, state: string) =>
  sampleOf(parseExposition(serviceMetrics(t.ctx).render()), 'svc_outreach_queue_messages', { state });

describe('the outreach queue', () => {
  test('counts e-mails awaiting the operator, then those with the relay while it refuses them', async () => {
    const t = await makeOutreachApp(env, { mode: 'review' });
    const ann = await t.resident('ann');
    expect(queue(t, 'awaiting_approval')).toBe(0);
    const first = await t.email(ann, { contact_id: await t.addContact(ann, 'one@example.org') });
    expect(first.json.status).toBe('queued');
    expect(queue(t, 'awaiting_approval')).toBe(1);
    expect(queue(t, 'sending')).toBe(0);
    // The relay is down: the approved message waits for its retry.
    env.relay.down = true;
    try {
      await runAdmin(t.ctx, ['outreach', 'approve', first.json.message_id]);
    } finally {
      env.relay.down = false;
    }
    expect(queue(t, 'awaiting_approval')).toBe(0);
    expect(queue(t, 'sending')).toBe(1);
  });
});

describe('the database files', () => {
  test('the database and its WAL are measured from the files the server writes', () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-metrics-'));
    try {
      const db = openDatabase(dir);
      migrate(db);
      const ctx = serviceContext(loadConfig({ SVC_DATA_DIR: dir }), db, new ManualClock(0));
      const families = parseExposition(serviceMetrics(ctx).render());
      const size = Bun.file(join(dir, DB_FILE)).size;
      expect(size).toBeGreaterThan(0);
      expect(sampleOf(families, 'svc_db_size_bytes')).toBe(size);
      // The log's frames, as the WAL-index header counts them (the -wal file adds its 32-byte header, and may be laid out ahead).
      const log = logSizeOf(join(dir, DB_FILE)).bytes;
      expect(log).toBeGreaterThan(0);
      expect(log).toBe(Bun.file(join(dir, `${DB_FILE}-wal`)).size - 32);
      expect(sampleOf(families, 'svc_db_wal_size_bytes')).toBe(log);
      db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
      expect(sampleOf(parseExposition(serviceMetrics(ctx).render()), 'svc_db_wal_size_bytes')).toBe(0);
      db.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the reads a scrape makes', () => {
  test('use an index: a year of job runs and e-mails costs a scrape the same', () => {
    const d = migratedDb();
    const statements = Object.entries(metricsStore(d)).map(([name, st]) => [name, String(st)] as const);
    expect(statements.map(([n]) => n)).toEqual(['latestRun', 'lastSuccess', 'outreachQueued', 'outreachSending']);
    for (const [name, sql] of statements) {
      const lines = plan(d, sql);
      // A whole table read is `SCAN t` with no index; a partial index (the queued e-mails) holds only its rows.
      expect(
        lines.filter((l) => /^SCAN /.test(l) && !/ USING (COVERING )?INDEX /.test(l)),
        `${name}: ${lines.join(' | ')}`,
      ).toEqual([]);
      expect(lines.join(' | '), name).toMatch(/USING (COVERING )?INDEX (job_runs_latest|outreach_messages_queued|outreach_messages_due)/);
    }
    // The check sees a table read when there is one.
    const scan = plan(d, 'SELECT count(*) FROM outreach_messages WHERE subject = ?');
    expect(scan.filter((l) => /^SCAN /.test(l) && !/ USING (COVERING )?INDEX /.test(l)).length).toBe(1);
  });
});
