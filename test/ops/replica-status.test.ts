// The replica's lag as this server knows it (src/ops/replica-status.ts): read from the lines
// Litestream 0.3.13 prints (recorded from a real run below), then from a real Litestream shipping
// to a file:// replica.
import { afterAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrate } from '../../src/db/migrate.ts';
import { openDatabase } from '../../src/db/open.ts';
import { loadReplicaSettings, startReplication } from '../../src/ops/replica.ts';
import { emptyStatus, forgetStatus, observe, parsePosition, type ReplicaStatus, replicaStatus, showPosition } from '../../src/ops/replica-status.ts';
import { until } from '../until.ts';

// Starting Litestream on a shared machine: the timeout guards against a hang only.
setDefaultTimeout(120_000);

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Lines as src/ops/replica.ts forwards them (forwardedLine: time dropped, level lower-cased). */
const GEN = '03dd222ddd5b97b8';
const lines = {
  sync: (offset: number) => ({ event: 'litestream', level: 'debug', msg: 'replica sync', replica: 'file', position: `${GEN}/00000000:${offset}` }),
  written: (offset: number, sz: number) => ({
    event: 'litestream',
    level: 'info',
    msg: 'wal segment written',
    replica: 'file',
    position: `${GEN}/00000000:${offset}`,
    sz,
  }),
  snapshot: (offset: number) => ({
    event: 'litestream',
    level: 'info',
    msg: 'snapshot written',
    replica: 'file',
    position: `${GEN}/00000000:${offset}`,
    sz: 333,
  }),
};

const run = (steps: [number, Record<string, unknown>][]): ReplicaStatus => steps.reduce((s, [at, l]) => observe(s, l, at), emptyStatus());

describe('the lag read from Litestream’s lines', () => {
  test('positions: GENERATION/INDEX(hex):OFFSET, anything else is no position', () => {
    expect(parsePosition(`${GEN}/0000000a:4152`)).toEqual({ generation: GEN, index: 10, offset: 4152 });
    expect(showPosition(parsePosition(`${GEN}/0000000a:4152`)!)).toBe(`${GEN}/0000000a:4152`);
    for (const bad of [undefined, 7, '', `${GEN}:12`, `${GEN}/1:2`]) expect(parsePosition(bad)).toBeNull();
  });

  test('a first sync is caught up once its snapshot and segment are on the replica', () => {
    const s = run([
      [1000, lines.sync(16512)],
      [1010, lines.snapshot(16512)],
      [1020, lines.written(0, 16512)],
    ]);
    expect(s.waiting).toBeNull();
    expect(s.shipped).toEqual({ position: { generation: GEN, index: 0, offset: 16512 }, at: 1020 });
  });

  test('a sync not yet shipped is waiting since it was first seen, through later syncs, until a segment reaches it', () => {
    let s = run([
      [1000, lines.sync(16512)],
      [1020, lines.written(0, 16512)],
      [5000, lines.sync(20632)],
      [5100, lines.sync(24752)],
    ]);
    expect(s.waiting).toEqual({ position: { generation: GEN, index: 0, offset: 20632 }, since: 5000 });
    s = observe(s, lines.written(16512, 4120), 5200);
    expect(s.waiting).toBeNull();
    expect(s.shipped!.position.offset).toBe(20632);
    // A sync at the shipped position (Litestream's last sync when it stops) waits for nothing.
    expect(observe(s, lines.sync(20632), 6000).waiting).toBeNull();
  });

  test('an error line is kept until the next shipment; a new generation forgets the old positions', () => {
    let s = run([
      [1000, lines.sync(16512)],
      [1100, { event: 'litestream', level: 'error', msg: 'monitor error', error: 'dial tcp: connection refused' }],
    ]);
    expect(s.last_error).toEqual({ message: 'monitor error: dial tcp: connection refused', at: 1100 });
    s = observe(s, lines.written(0, 16512), 1200);
    expect(s.last_error).toBeNull();
    s = observe(s, { event: 'litestream', level: 'info', msg: 'sync: new generation', generation: 'ffff', reason: 'wal overwritten' }, 1300);
    expect([s.shipped, s.waiting]).toEqual([null, null]);
  });
});

describe('a real Litestream', () => {
  test('its lines reach the status: caught up after each write is shipped to a file:// replica', async () => {
    const data = mkdtempSync(join(tmpdir(), 'svc-lag-'));
    dirs.push(data);
    const db = openDatabase(data);
    migrate(db);
    const settings = loadReplicaSettings({ SVC_REPLICA_URL: `file://${join(data, 'replica')}` });
    const replication = await startReplication(data, 'svc.sqlite', settings, { onUp() {}, onDown() {}, log() {} });
    try {
      const caughtUp = () => {
        const s = replicaStatus(data);
        return s?.shipped != null && s.waiting === null;
      };
      await until('the first shipment', caughtUp);
      const first = replicaStatus(data)!.shipped!.position;
      db.query("INSERT INTO accounts (id, name, name_key, key_hash, created_at) VALUES (?, 'lagger', 'lagger', 'h', 0)").run(crypto.randomUUID());
      await until('the write shipped', () => caughtUp() && showPosition(replicaStatus(data)!.shipped!.position) !== showPosition(first));
      const after = replicaStatus(data)!.shipped!.position;
      expect(after.generation).toBe(first.generation);
      expect(after.index * 2 ** 32 + after.offset).toBeGreaterThan(first.index * 2 ** 32 + first.offset);
    } finally {
      await replication.stop();
      db.close();
      forgetStatus(data);
    }
  });
});
