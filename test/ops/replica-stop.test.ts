// How svc stops its litestream (src/ops/replica.ts): after the database is closed, SIGTERM only
// once litestream has caught up: two of its database syncs since the close, no segment being
// written, none begun for a quiet while. A SIGTERM during 0.3.13's segment upload raced its
// shutdown upload, and a restore lacked the last acknowledged write (docs/operations.md).
//
// A fake litestream (a shell script) prints 0.3.13's lines and records what it printed and when
// the SIGTERM came, in order; the test holds its upload open with a file. Every assertion is on
// the order of events, none on a duration.
import { afterAll, describe, expect, test } from 'bun:test';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { caughtUp, LitestreamProgress, type LogLine, type Replication, startReplication } from '../../src/ops/replica.ts';
import { until } from '../until.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A litestream that syncs every 50 ms and writes a segment while DIR/upload exists, until DIR/finish does. */
function fakeLitestream(): { dir: string; bin: string; record: () => string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'svc-replica-stop-'));
  dirs.push(dir);
  mkdirSync(join(dir, 'bin'));
  const bin = join(dir, 'bin', 'litestream');
  writeFileSync(
    bin,
    `#!/bin/sh
if [ "$1" = version ]; then echo v0.3.13; exit 0; fi
d='${dir}'
trap 'echo TERM >> "$d/rec"; exit 0' TERM
while :; do
  echo '{"level":"DEBUG","msg":"sync: ok"}'
  echo sync >> "$d/rec"
  if [ -e "$d/upload" ] && [ ! -e "$d/uploading" ]; then
    : > "$d/uploading"
    echo '{"level":"INFO","msg":"write wal segment","position":"0000000000000001/00000000:4152"}'
    echo start >> "$d/rec"
  elif [ -e "$d/uploading" ] && [ -e "$d/finish" ]; then
    rm -f "$d/uploading" "$d/upload"
    echo '{"level":"INFO","msg":"wal segment written","position":"0000000000000001/00000000:4152","sz":8272}'
    echo written >> "$d/rec"
  fi
  sleep 0.05
done
`,
  );
  chmodSync(bin, 0o755);
  const record = () => (existsSync(join(dir, 'rec')) ? readFileSync(join(dir, 'rec'), 'utf8').trim().split('\n') : []);
  return { dir, bin, record };
}

async function replicate(fake: { dir: string; bin: string }, lines: LogLine[], catchUpMs?: number): Promise<Replication> {
  return startReplication(
    fake.dir,
    'svc.sqlite',
    { url: `file://${join(fake.dir, 'replica')}`, s3: {}, bin: fake.bin },
    { onUp: () => {}, onDown: () => {}, log: (l) => lines.push(l) },
    { stopMs: 10_000, ...(catchUpMs === undefined ? {} : { catchUpMs }) },
  );
}

/** The record's lines after the test's own `stop` mark. */
const afterStop = (rec: string[]) => rec.slice(rec.indexOf('stop') + 1);

describe('stopping litestream', () => {
  test('a segment being written when the stop comes: SIGTERM only after it is written, never during', async () => {
    const fake = fakeLitestream();
    writeFileSync(join(fake.dir, 'upload'), '');
    const lines: LogLine[] = [];
    const replication = await replicate(fake, lines);
    await until('the upload to start', () => fake.record().includes('start'));
    appendFileSync(join(fake.dir, 'rec'), 'stop\n');
    const stopped = replication.stop();
    // Six of its syncs go by with the upload open: no SIGTERM meanwhile.
    await until('six syncs after the stop', () => afterStop(fake.record()).filter((l) => l === 'sync').length >= 6);
    expect(fake.record()).not.toContain('TERM');
    writeFileSync(join(fake.dir, 'finish'), '');
    await stopped;
    const rec = afterStop(fake.record());
    expect(rec.indexOf('TERM')).toBeGreaterThan(rec.indexOf('written'));
    expect(rec.indexOf('written')).toBeGreaterThanOrEqual(0);
    expect(rec.at(-1)).toBe('TERM');
    expect(lines.find((l) => l.state === 'stopped')).toMatchObject({ code: 0 });
    expect(lines.some((l) => l.state === 'stopping_behind')).toBe(false);
  });

  test('nothing being written: SIGTERM after two of its syncs since the stop', async () => {
    const fake = fakeLitestream();
    const lines: LogLine[] = [];
    const replication = await replicate(fake, lines);
    appendFileSync(join(fake.dir, 'rec'), 'stop\n');
    await replication.stop();
    const rec = afterStop(fake.record());
    expect(rec.at(-1)).toBe('TERM');
    expect(rec.filter((l) => l === 'sync').length).toBeGreaterThanOrEqual(2);
    expect(lines.find((l) => l.state === 'stopped')).toMatchObject({ code: 0 });
  });

  test('an upload that never ends: SIGTERM anyway once catchUpMs has run out, with a warning', async () => {
    const fake = fakeLitestream();
    writeFileSync(join(fake.dir, 'upload'), '');
    const lines: LogLine[] = [];
    const replication = await replicate(fake, lines, 200);
    await until('the upload to start', () => fake.record().includes('start'));
    await replication.stop();
    expect(fake.record().at(-1)).toBe('TERM');
    expect(fake.record()).not.toContain('written');
    expect(lines.find((l) => l.state === 'stopping_behind')).toMatchObject({ level: 'warn', waited_ms: 200 });
  });
});

describe('LitestreamProgress and caughtUp', () => {
  test('an upload is under way from its start line to its written line, or to the error that ends it', () => {
    const p = new LitestreamProgress();
    p.observe({ event: 'litestream', level: 'info', msg: 'monitor error' });
    expect(p.uploading).toBe(false); // an error with no upload under way ends none
    p.observe({ event: 'litestream', level: 'info', msg: 'write wal segment' });
    expect(p.uploading).toBe(true);
    p.observe({ event: 'litestream', level: 'error', msg: 'monitor error' });
    expect(p.uploading).toBe(false);
    p.observe({ event: 'litestream', level: 'info', msg: 'write snapshot' });
    p.observe({ event: 'litestream', level: 'info', msg: 'snapshot written' });
    p.observe({ event: 'litestream', level: 'info', msg: 'write wal segment' });
    expect(p.uploading).toBe(true);
    p.observe({ event: 'litestream', level: 'info', msg: 'wal segment written' });
    expect(p.uploading).toBe(false);
  });

  test('caughtUp waits for two syncs after the call, and resolves at once when the process is gone', async () => {
    const p = new LitestreamProgress();
    p.syncs = 5;
    let resolved = false;
    const waiting = caughtUp(p, 0, 60_000, () => false).then((v) => (resolved = v));
    p.syncs = 6;
    await Bun.sleep(60);
    expect(resolved).toBe(false);
    p.syncs = 7;
    expect(await waiting).toBe(true);
    expect(await caughtUp(new LitestreamProgress(), 300, 60_000, () => true)).toBe(true);
  });
});
