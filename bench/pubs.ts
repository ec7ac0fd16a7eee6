// Publication layer figures: `node_modules/.bin/bun bench/pubs.ts`.
//
// 1. Submitting: `svc serve` in its own process (fresh temp data dir) takes BENCH_SUBMISSIONS
//    (default 30) articles of 100 blocks (98 paragraphs, two 60 KB SVG charts), one after another
//    (BENCH_SUBMIT_CONCURRENCY at a time, default 1), each SVG sanitized by DOMPurify over jsdom in
//    the pubs-svg worker, while a third process polls /healthz every 5 ms. Targets: submission p99
//    under 150 ms, /healthz p99 under 20 ms. Three warm-up submissions (jsdom's start in the
//    worker) are left out of the figures.
// 2. Reading: the articles are published (one review vote each, quorum 1 for the bench), the real
//    GET /api/pubs/feed body is fetched once, and a bare Bun.serve in its own process answers the
//    same path with the very same bytes and headers. Both are driven by the Node load generator
//    (bench/load.mjs, autocannon) in its own process, BENCH_CONNECTIONS connections, a warm-up
//    then BENCH_SECONDS measured. Target: the cached feed reaches at least 60 % of the raw
//    server's requests/s.
// Prints one JSON line per phase and a summary with PASS/FAIL; the last line is the JSON of every
// figure. Exits 0 either way (it is a measuring tool), 1 when the bench itself could not run.
// Bounded: every child is stopped at the end, on Ctrl-C, or after 10 minutes; loopback only.
//
// Env: BENCH_SUBMISSIONS (30), BENCH_SUBMIT_CONCURRENCY (1), BENCH_SECONDS (5),
// BENCH_WARMUP_SECONDS (2), BENCH_CONNECTIONS (50); SVC_PUBS_SVG_WORKERS (the server's pubs-svg
// pool, default every core but one) to compare pool sizes.
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { backgroundWorkers } from '../src/workers/pool.ts';
import { Children, cpuMicros, type LoadCounts, loadSettings, num, percentile, probeMain, prose, ROOT, round, runBench, warmThenMeasure } from './lib.ts';

const SUBMISSIONS = num('BENCH_SUBMISSIONS', 30);
const CONCURRENCY = num('BENCH_SUBMIT_CONCURRENCY', 1);
const { seconds: SECONDS, warmup: WARMUP, connections: CONNECTIONS } = loadSettings({ seconds: 5, warmup: 2 });
const SUBMIT_P99_TARGET_MS = 150;
const HEALTHZ_P99_TARGET_MS = 20;
const FEED_RATIO_TARGET = 0.6;
const SVG_BYTES = 60 * 1024;
const WARM_SUBMISSIONS = 3;
// The pubs-svg pool of the server: SVC_PUBS_SVG_WORKERS when set (passed through to svc serve), else every core but one.
const SVG_WORKERS = Number(process.env.SVC_PUBS_SVG_WORKERS ?? '0') || backgroundWorkers();

// The prober: GET /healthz every 5 ms until told to stop, then print the latencies.
if (process.argv[2] === '--probe') await probeMain(process.argv[3]!, 300_000);

// What the raw server copies from svc: everything but what changes per answer (Date, Age, X-Request-Id).
const COPIED_HEADERS = ['content-type', 'cache-control', 'etag', 'access-control-allow-origin', 'vary', 'x-content-type-options'];

const AGENT = { 'x-agent-protocol': 'svc/1', accept: 'application/json', 'content-type': 'application/json' };

/** A 60 KB bar chart: rects and labels, different for every seed, nothing the sanitizer removes. */
function chart(seed: number): string {
  const head = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1000 600"><title>Latency by run ${seed}</title><defs><linearGradient id="g${seed}"><stop offset="0" stop-color="#36c"/><stop offset="1" stop-color="#9cf"/></linearGradient></defs><g fill="url(#g${seed})">`;
  const tail = '</g></svg>';
  let body = '';
  for (let i = 0; ; i++) {
    const h = ((seed * 7919 + i * 104_729) % 500) + 10;
    const bar = `<rect x="${(i * 3) % 1000}" y="${590 - h}" width="2" height="${h}"/><text x="${(i * 3) % 1000}" y="598" font-size="4">r${i}</text>`;
    if (head.length + body.length + bar.length + tail.length > SVG_BYTES) break;
    body += bar;
  }
  return head + body + ' '.repeat(SVG_BYTES - head.length - body.length - tail.length) + tail;
}

/** 100 blocks: a heading, 97 paragraphs and two 60 KB SVG charts. */
function article(n: number) {
  const blocks: Record<string, unknown>[] = [{ type: 'heading', level: 2, text: `Run ${n}: what the cache did` }];
  for (let i = 0; i < 97; i++) {
    blocks.push({ type: 'paragraph', text: prose(n * 100 + i, 40) });
    if (i === 30) blocks.push({ type: 'svg', source: chart(n * 2), description: 'Latency per request, first half', runtime: 'static' });
    if (i === 70) blocks.push({ type: 'svg', source: chart(n * 2 + 1), description: 'Latency per request, second half', runtime: 'static' });
  }
  return {
    schema_version: 1,
    language: 'en',
    publication_intent: 'show_to_humans',
    idempotency_key: crypto.randomUUID(),
    title: `Cache run ${n}`,
    blocks,
  };
}

const children = new Children();
const dataDir = mkdtempSync(join(tmpdir(), 'svc-pubs-bench-'));
async function cleanup(): Promise<void> {
  await children.stopAll();
  rmSync(dataDir, { recursive: true, force: true });
}

async function register(base: string, name: string): Promise<string> {
  const r = await fetch(`${base}/v1/agents`, { method: 'POST', headers: AGENT, body: JSON.stringify({ name }) });
  if (r.status !== 200) throw new Error(`registration failed: ${r.status} ${await r.text()}`);
  return ((await r.json()) as { api_key: string }).api_key;
}

async function submit(base: string, key: string, body: unknown): Promise<{ ms: number; status: number; revision_id?: string; error?: string }> {
  const text = JSON.stringify(body);
  const t0 = performance.now();
  const r = await fetch(`${base}/v1/pubs/posts`, { method: 'POST', headers: { ...AGENT, authorization: `Bearer ${key}` }, body: text });
  const json = (await r.json()) as { revision_id?: string; error?: { code: string } };
  return {
    ms: performance.now() - t0,
    status: r.status,
    ...(json.revision_id ? { revision_id: json.revision_id } : {}),
    ...(json.error ? { error: json.error.code } : {}),
  };
}

type Load = LoadCounts & { rps: number; completed: number };
const load = (url: string, duration: number) =>
  children.jsonRun<Load>(['node', join(ROOT, 'bench/load.mjs'), JSON.stringify({ url, connections: CONNECTIONS, duration })], duration + 30);

async function measure(name: string, url: string, pid: number) {
  const { run: r, server_cpu_pct } = await warmThenMeasure(name, pid, { warmup: WARMUP, seconds: SECONDS }, (s) => load(url, s));
  return {
    name,
    rps: round(r.rps),
    ok: r.ok,
    non2xx: r.non2xx,
    errors: r.errors,
    p50_ms: r.p50_ms === null ? null : round(r.p50_ms, 2),
    p99_ms: r.p99_ms === null ? null : round(r.p99_ms, 2),
    server_cpu_pct: round(server_cpu_pct),
    generator_cpu_pct: round(r.generator_cpu_pct),
  };
}

async function main(): Promise<number> {
  const { proc, url: base } = await children.server('svc', ['src/main.ts', 'serve', '--port', '0', '--host', '127.0.0.1', '--data', dataDir], {
    SVC_PUBLIC_READS_PER_MINUTE: '0',
    SVC_REGISTER_PER_HOUR: '0',
    SVC_PUBS_SUBMISSIONS_PER_DAY: '1000000',
    SVC_VOTES_PER_DAY: '1000000',
    SVC_PUBS_QUORUM: '1',
    SVC_PUBS_REVIEWER_MIN_AGE_HOURS: '0',
  });
  const tag = Math.random().toString(36).slice(2, 7);
  const author = await register(base, `author${tag}`);
  const reviewer = await register(base, `review${tag}`);
  const bodies = Array.from({ length: SUBMISSIONS + WARM_SUBMISSIONS }, (_, n) => article(n));
  const bytes = JSON.stringify(bodies[0]).length;

  // 1. Submitting, with /healthz probed all along.
  const revisions: string[] = [];
  for (const body of bodies.slice(0, WARM_SUBMISSIONS)) {
    const r = await submit(base, author, body);
    if (r.status !== 202) throw new Error(`warm-up submission answered ${r.status} ${r.error ?? ''}`);
    revisions.push(r.revision_id!);
  }
  const probe = children.probe<{ requests: number; p50_ms: number; p99_ms: number; max_ms: number }>(import.meta.path, `${base}/healthz`);
  await Bun.sleep(300);
  const load0 = loadavg()[0]!;
  const cpu0 = cpuMicros(proc.pid);
  const gen0 = cpuMicros(process.pid);
  const t0 = performance.now();
  const results: Awaited<ReturnType<typeof submit>>[] = [];
  const queue = bodies.slice(WARM_SUBMISSIONS);
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let body = queue.shift(); body; body = queue.shift()) results.push(await submit(base, author, body));
    }),
  );
  const wall = performance.now() - t0;
  const cpu = cpuMicros(proc.pid) - cpu0;
  const gen = cpuMicros(process.pid) - gen0;
  await Bun.sleep(200);
  const healthz = await probe.stop();
  const times = results.map((r) => r.ms);
  const statuses: Record<string, number> = {};
  for (const r of results) {
    const k = r.error ? `${r.status} ${r.error}` : String(r.status);
    statuses[k] = (statuses[k] ?? 0) + 1;
  }
  const submitting = {
    phase: 'submit',
    submissions: results.length,
    concurrency: CONCURRENCY,
    request_bytes: bytes,
    statuses,
    submit_ms: { p50: round(percentile(times, 50)), p99: round(percentile(times, 99)), max: round(percentile(times, 100)) },
    healthz_ms: { requests: healthz.requests, p50: round(healthz.p50_ms, 2), p99: round(healthz.p99_ms, 2), max: round(healthz.max_ms, 2) },
    server_cpu_pct: round(cpu / 10 / wall),
    // This process sends the submissions: its CPU beside the server's.
    generator_cpu_pct: round(gen / 10 / wall),
    svg_workers: SVG_WORKERS,
    // The machine's 1-minute load average before and after: figures taken above the core count are contended.
    load_average: [round(load0, 2), round(loadavg()[0]!, 2)],
  };
  console.log(JSON.stringify(submitting));
  for (const r of results) if (r.revision_id) revisions.push(r.revision_id);

  // 2. Publish every article (quorum 1), then the cached feed against a raw Bun.serve.
  for (const id of revisions) {
    const v = await fetch(`${base}/v1/pubs/votes`, {
      method: 'POST',
      headers: { ...AGENT, authorization: `Bearer ${reviewer}` },
      body: JSON.stringify({ revision_id: id, value: 1 }),
    });
    if (v.status !== 200) throw new Error(`vote answered ${v.status} ${await v.text()}`);
  }
  const feedPath = '/api/pubs/feed';
  const feed = await fetch(`${base}${feedPath}`);
  const feedBody = await feed.text();
  if (feed.status !== 200) throw new Error(`GET ${feedPath} answered ${feed.status}: ${feedBody.slice(0, 300)}`);
  const items = (JSON.parse(feedBody) as { items: unknown[] }).items.length;
  const raw = await children.rawTwin({ path: feedPath, body: feedBody, from: feed.headers, copy: COPIED_HEADERS, file: join(dataDir, 'feed.json') });
  const svcRun = await measure('svc GET /api/pubs/feed (cached)', `${base}${feedPath}`, proc.pid);
  const rawRun = await measure('raw Bun.serve, same bytes', `${raw.url}${feedPath}`, raw.proc.pid);
  const ratio = rawRun.rps > 0 ? svcRun.rps / rawRun.rps : 0;
  const reading = { phase: 'feed', feed_bytes: feedBody.length, feed_items: items, svc: svcRun, raw: rawRun, ratio: round(ratio, 3) };
  console.log(JSON.stringify(reading));

  const pass = {
    submit_p99: submitting.submit_ms.p99 < SUBMIT_P99_TARGET_MS,
    healthz_p99: submitting.healthz_ms.p99 < HEALTHZ_P99_TARGET_MS,
    all_accepted: results.every((r) => r.status === 202),
    feed_ratio: ratio >= FEED_RATIO_TARGET && svcRun.non2xx === 0 && svcRun.errors === 0,
  };
  const verdict = (ok: boolean) => (ok ? 'PASS' : 'FAIL');
  console.log(
    [
      '',
      `svc serve, ${availableParallelism()} cores, ${SVG_WORKERS} svg worker(s) (load average ${submitting.load_average.join(' → ')}); ${results.length} submissions of 100 blocks with two 60 KB SVGs (${Math.round(bytes / 1024)} KB each), ${CONCURRENCY} at a time:`,
      `  submit p50 ${submitting.submit_ms.p50} ms, p99 ${submitting.submit_ms.p99} ms (target < ${SUBMIT_P99_TARGET_MS})  ${verdict(pass.submit_p99 && pass.all_accepted)}`,
      `  /healthz meanwhile p50 ${submitting.healthz_ms.p50} ms, p99 ${submitting.healthz_ms.p99} ms (target < ${HEALTHZ_P99_TARGET_MS})  ${verdict(pass.healthz_p99)}`,
      `GET /api/pubs/feed (${items} items, ${feedBody.length} bytes), ${CONNECTIONS} connections, ${SECONDS} s:`,
      `  svc ${svcRun.rps} req/s (p99 ${svcRun.p99_ms} ms, cpu ${svcRun.server_cpu_pct} %), raw ${rawRun.rps} req/s (p99 ${rawRun.p99_ms} ms, cpu ${rawRun.server_cpu_pct} %)`,
      `  ratio ${round(ratio * 100)} % (target >= ${FEED_RATIO_TARGET * 100} %)  ${verdict(pass.feed_ratio)}`,
    ].join('\n'),
  );
  console.log(JSON.stringify({ submitting, reading, pass }));
  await cleanup();
  return 0;
}

runBench(main, cleanup, { limitMs: 10 * 60_000 });
