// The machine is lost under write load: `node_modules/.bin/bun bench/replica-drill.ts [RUNS] [file|s3]`.
//
// Each run starts `svc serve` (from the source tree) with SVC_REPLICA_URL on a fresh folder, four
// writers post through HTTP for about 10 s past the point the replica is seen to hold the first
// writes, and mid-load the server and its Litestream get SIGKILL at the same
// instant; the replica is then restored into a fresh folder with `litestream restore`. Prints one
// JSON line per run: the acknowledged writes, those the copy holds, those lost, the recovery point
// (the last acknowledged write the copy holds → the crash) and the age of the oldest acknowledged
// write lost, the write rate, the replica's generations, and any `.tmp` file Litestream left in a
// file:// replica (a segment or snapshot it was writing when killed). Then the spread over the runs.
// The drill's pieces are test/ops/replica-harness.ts, the same the test file asserts on.
// SVC_REPLICA_DRILL_ENV='{"K":"V"}' passes settings to the server (to compare).
import { join } from 'node:path';
import { findLitestream, LITESTREAM_MIN_CHECKPOINT_PAGES, LITESTREAM_MONITOR_INTERVAL, LITESTREAM_SYNC_INTERVAL } from '../src/ops/replica.ts';
import { cleanUp, drillFigures, runDrill, tempDir, track } from '../test/ops/replica-harness.ts';
import { until } from '../test/until.ts';

const RUNS = Number(process.argv[2] ?? 5);
// The load goes on this long past the mark, plus up to 1 s at random, so that the crash falls
// anywhere between two of Litestream's ticks (SVC_REPLICA_DRILL_LOAD_S, default 10).
const LOAD_S = Number(process.env.SVC_REPLICA_DRILL_LOAD_S ?? 10);
// Sequential writers posting flat out (SVC_REPLICA_DRILL_WRITERS, default 4).
const WRITERS = Number(process.env.SVC_REPLICA_DRILL_WRITERS ?? 4);
// At most this many writes per second in all (SVC_REPLICA_DRILL_RATE; default 0: flat out).
const RATE = Number(process.env.SVC_REPLICA_DRILL_RATE ?? 0);
const KIND = process.argv[3] ?? 'file';
const bin = findLitestream({ bin: null });
const extra = JSON.parse(process.env.SVC_REPLICA_DRILL_ENV ?? '{}') as Record<string, string>;

/** An S3 server on loopback (moto), and the replica URL and credentials that reach it. */
async function s3Replica(): Promise<{ url: string; env: Record<string, string>; stop: () => void }> {
  const probe = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } });
  const port = probe.port;
  probe.stop(true);
  const s3 = Bun.spawn(['python3', '-m', 'moto.server', '-H', '127.0.0.1', '-p', String(port)], { stdout: 'ignore', stderr: 'ignore' });
  track(s3);
  const answers = () =>
    fetch(`http://127.0.0.1:${port}/`).then(
      (r) => r.ok,
      () => false,
    );
  await until('the S3 server to answer', answers, { tries: 3000 });
  const bucket = `drill${crypto.randomUUID().slice(0, 8)}`;
  await fetch(`http://127.0.0.1:${port}/${bucket}`, { method: 'PUT' });
  return { url: `s3://${bucket}.localhost:${port}/svc`, env: { AWS_ACCESS_KEY_ID: 'drill', AWS_SECRET_ACCESS_KEY: 'drill' }, stop: () => s3.kill() };
}

const spread = (xs: number[]) =>
  xs.length ? { min: Math.min(...xs), median: xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!, max: Math.max(...xs) } : null;

console.log(
  JSON.stringify({
    litestream: bin,
    monitor_interval: LITESTREAM_MONITOR_INTERVAL,
    sync_interval: LITESTREAM_SYNC_INTERVAL,
    min_checkpoint_pages: LITESTREAM_MIN_CHECKPOINT_PAGES,
    runs: RUNS,
    load_s: LOAD_S,
    writers: WRITERS,
    rate: RATE || 'flat out',
    replica: KIND,
    env: extra,
  }),
);
const points: number[] = [];
const lostCounts: number[] = [];
try {
  for (let i = 0; i < RUNS; i++) {
    const target = KIND === 's3' ? await s3Replica() : { url: `file://${join(tempDir(), 'replica')}`, env: {}, stop: () => {} };
    try {
      const env = { ...target.env, ...extra };
      // A refused write ends the run (the error names it, with the server's error lines); the others go on.
      const drilled = await runDrill(`${KIND}${i}`, target.url, {
        bin,
        env,
        writers: WRITERS,
        rate: RATE,
        loadMs: Math.round((LOAD_S + Math.random()) * 1000),
      }).catch((e: Error) => e);
      if (drilled instanceof Error) {
        console.log(JSON.stringify({ drill: `${KIND}${i}`, error: drilled.message.slice(0, 2000) }));
        continue;
      }
      const r = drilled;
      const f = drillFigures(r, bin, env);
      const failed = r.restored.code !== 0 || r.refused.length > 0;
      console.log(
        JSON.stringify({ ...f, ...(failed ? { restore_code: r.restored.code, restore_err: r.restored.err.slice(-400), refused: r.refused.slice(0, 2) } : {}) }),
      );
      if (f.recovery_point_s !== null) points.push(f.recovery_point_s);
      lostCounts.push(f.lost);
    } finally {
      target.stop();
      cleanUp();
    }
  }
} finally {
  cleanUp();
}
console.log(JSON.stringify({ summary: true, runs: RUNS, recovery_point_s: spread(points), lost_writes: spread(lostCounts) }));
