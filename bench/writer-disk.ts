// The request thread beside a neighbour that writes to the same disk with fsyncs (issue 39 §2):
//   bun bench/writer-disk.ts [--main PATH/src/main.ts | --svc PATH/dist/svc] [--seconds 8] [--writers 4]
// starts svc on a fresh data folder (this checkout's src/main.ts by default), and measures twice,
// without and then with the neighbour (`dd … conv=fsync` in a loop, in the data folder): `writers`
// agents posting as fast as they are answered, while a prober in a process of its own GETs /healthz
// and a cached /api/activity every 5 ms. One JSON line per phase: writes/s and their latency, each
// probe's p50/p99/max. To compare with the build before a change, run it once with --main or --svc
// of that build (e.g. `git archive <rev> | tar -x -C /tmp/before`, node_modules linked). The
// machine's load moves every figure: they are indicative, never a verdict.
import { mkdtempSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { BUN, type Child, lastJsonLine, latencyMs, listeningUrl, ROOT } from './lib.ts';

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const seconds = Number(arg('seconds') ?? 8);
const writerCount = Number(arg('writers') ?? 4);
const svcBin = arg('svc');
const main = resolve(arg('main') ?? join(ROOT, 'src/main.ts'));
// The data folder on the disk the neighbour writes to (not a tmpfs /tmp): beside the checkout.
const data = mkdtempSync(join(process.env.SVC_BENCH_DIR ?? ROOT, '.writer-disk-'));
const H = { 'x-agent-protocol': 'svc/1', accept: 'application/json', 'content-type': 'application/json' };

const cmd = svcBin ? [resolve(svcBin), 'serve'] : [BUN, main, 'serve'];
const server = Bun.spawn([...cmd, '--port', '0', '--data', data], {
  env: { ...process.env, SVC_LOG_REQUESTS: 'off', SVC_POSTING_PER_DAY: '1000000' },
  stdin: 'ignore',
  stdout: 'pipe',
  stderr: 'pipe',
}) as Child;
let neighbour: Bun.Subprocess | null = null;
const cleanup = () => {
  neighbour?.kill('SIGKILL');
  server.kill('SIGKILL');
  rmSync(data, { recursive: true, force: true });
};
process.on('SIGINT', () => {
  cleanup();
  process.exit(130);
});

async function probe(url: string): Promise<{ requests: number; p50_ms: number; p99_ms: number; max_ms: number }> {
  const p = Bun.spawn([BUN, join(ROOT, 'bench/writer.ts'), 'probe', url], { stdout: 'pipe', stderr: 'inherit' });
  await Bun.sleep(seconds * 1000);
  p.kill('SIGTERM');
  return lastJsonLine(await new Response(p.stdout).text());
}

/** Sums and counts of the group commit's and the log's histograms in GET /metrics (loopback): where a write's time goes. */
async function commitMetrics(url: string): Promise<Record<string, number>> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const out: Record<string, number> = {};
  for (const m of text.matchAll(
    /^(svc_(?:group_commit_batch_size|group_commit_wait_seconds|wal_sync_seconds|wal_checkpoint_seconds)_(?:sum|count))(?:\{[^}]*\})? (\S+)$/gm,
  ))
    out[m[1]!] = (out[m[1]!] ?? 0) + Number(m[2]);
  return out;
}

/** What changed in the histograms over a phase: the mean batch, the mean sync and checkpoint, and their counts. */
function commitSummary(before: Record<string, number>, after: Record<string, number>) {
  const d = (k: string) => (after[k] ?? 0) - (before[k] ?? 0);
  const mean = (k: string, scale = 1) => (d(`${k}_count`) > 0 ? Math.round((d(`${k}_sum`) / d(`${k}_count`)) * scale * 100) / 100 : null);
  return {
    batches: d('svc_group_commit_batch_size_count'),
    mean_batch: mean('svc_group_commit_batch_size'),
    mean_commit_wait_ms: mean('svc_group_commit_wait_seconds', 1000),
    syncs: d('svc_wal_sync_seconds_count'),
    mean_sync_ms: mean('svc_wal_sync_seconds', 1000),
    checkpoints: d('svc_wal_checkpoint_seconds_count'),
    mean_checkpoint_ms: mean('svc_wal_checkpoint_seconds', 1000),
  };
}

async function phase(url: string, keys: string[], label: string) {
  const metricsBefore = await commitMetrics(url);
  let stop = false;
  const times: number[] = [];
  const statuses: Record<string, number> = {};
  const writer = async (key: string) => {
    for (let i = 0; !stop; i++) {
      const t0 = performance.now();
      const r = await fetch(`${url}/v1/posts`, {
        method: 'POST',
        headers: { ...H, authorization: `Bearer ${key}`, 'idempotency-key': crypto.randomUUID() },
        body: JSON.stringify({ topic: 'general', title: `disk ${label} ${i}`, body: `A post written while ${label}, number ${i}.` }),
      });
      await r.arrayBuffer();
      times.push(performance.now() - t0);
      statuses[r.status] = (statuses[r.status] ?? 0) + 1;
    }
  };
  const writers = keys.map(writer);
  const [healthz, activity] = await Promise.all([probe(`${url}/healthz`), probe(`${url}/api/activity`)]);
  stop = true;
  await Promise.all(writers);
  const commits = commitSummary(metricsBefore, await commitMetrics(url));
  return { phase: label, seconds, writes_per_s: Math.round(times.length / seconds), statuses, write: latencyMs(times), healthz, activity, commits };
}

try {
  const url = await listeningUrl(server, 'svc');
  const keys: string[] = [];
  for (let i = 0; i < writerCount; i++) {
    const r = await fetch(`${url}/v1/agents`, { method: 'POST', headers: H, body: JSON.stringify({ name: `disk-writer-${i}` }) });
    keys.push(((await r.json()) as { api_key: string }).api_key);
  }
  await (await fetch(`${url}/api/activity`)).arrayBuffer(); // cached from here on (a write refreshes it)
  console.log(JSON.stringify(await phase(url, keys, 'quiet disk')));
  neighbour = Bun.spawn(['sh', '-c', `while :; do dd if=/dev/zero of='${join(data, 'neighbour')}' bs=1M count=64 conv=fsync status=none; done`], {
    stdout: 'ignore',
    stderr: 'ignore',
  });
  await Bun.sleep(1000);
  console.log(JSON.stringify(await phase(url, keys, 'fsync-heavy neighbour')));
} finally {
  cleanup();
}
