// Load generator for bench/platform.ts. Runs under Node in its own process, so it never shares
// an event loop (or a core's time slice inside one process) with the server it measures.
//
//   node bench/load.mjs '{"url":"http://127.0.0.1:PORT/healthz","connections":50,"duration":10}'
//
// Options (JSON): url, method, headers, connections, duration (s), pipelining, overallRate (req/s),
// stagger (with overallRate: see below), uniqueNames (a prefix: each request then gets the body
// {"name":"<prefix><n>"}). Prints one JSON line: requests/s, exact p50/p99 (ms), status counts,
// and this process's CPU use.
import autocannon from 'autocannon';

const opts = JSON.parse(process.argv[2] ?? '{}');
const connections = opts.connections ?? 50;

// autocannon's own histogram keeps whole milliseconds and, in rate mode, adds "coordinated
// omission" samples computed from a 1 ms interval that has nothing to do with the real pacing.
// A 5 ms target needs sub-millisecond truth, so keep every 2xx latency (hrtime, float ms) here.
const latencies = [];

let counter = 0;
const request = { method: opts.method ?? 'GET', headers: opts.headers ?? {} };
if (opts.uniqueNames) {
  // Names are unique case-insensitively; a prefix per run plus a counter never repeats.
  request.setupRequest = (req) => ({ ...req, body: JSON.stringify({ name: `${opts.uniqueNames}${counter++}` }) });
}

// autocannon's rate limit gives each connection a quota per second that it sends back to back as
// soon as its second starts, and all connections start together: 1,000 req/s then arrives as one
// burst at the top of each second. `stagger` runs one single-connection autocannon per connection,
// started 1/connections of a second apart, so the same rate arrives spread across the second, as
// from independent clients.
const runs =
  opts.overallRate && opts.stagger
    ? Array.from({ length: connections }, (_, i) => ({
        delay: (i * 1000) / connections,
        connections: 1,
        overallRate: Math.floor(opts.overallRate / connections) + (i < opts.overallRate % connections ? 1 : 0),
      }))
    : [{ delay: 0, connections, overallRate: opts.overallRate }];

const cpuStart = process.cpuUsage();
const t0 = performance.now();
const results = await Promise.all(
  runs.map(async (run) => {
    await new Promise((r) => setTimeout(r, run.delay));
    const instance = autocannon({
      url: opts.url,
      connections: run.connections,
      duration: opts.duration ?? 10,
      pipelining: opts.pipelining ?? 1,
      ...(run.overallRate ? { overallRate: run.overallRate, ignoreCoordinatedOmission: true } : {}),
      timeout: 10,
      requests: [request],
    });
    instance.on('response', (_client, statusCode, _bytes, ms) => {
      if (statusCode >= 200 && statusCode < 300) latencies.push(ms);
    });
    return instance;
  }),
);
const wall = (performance.now() - t0) / 1000;
const cpu = process.cpuUsage(cpuStart);

const sum = (key) => results.reduce((n, r) => n + r[key], 0);
const status = {};
for (const r of results) for (const [code, { count }] of Object.entries(r.statusCodeStats)) status[code] = (status[code] ?? 0) + count;
const completed = sum('1xx') + sum('2xx') + sum('3xx') + sum('4xx') + sum('5xx');
// Staggered runs have windows of their own (offset, and rounded to 10 ms by autocannon), so the
// rate is the sum of each run's rate rather than the total over one shared window.
const rps = results.reduce((n, r) => n + (r['1xx'] + r['2xx'] + r['3xx'] + r['4xx'] + r['5xx']) / r.duration, 0);
const duration = results.reduce((n, r) => n + r.duration, 0) / results.length;

const sorted = Float64Array.from(latencies).sort();
const pct = (p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : null);

console.log(
  JSON.stringify({
    duration_s: duration,
    window_s: wall, // first start to last end: longer than duration_s when staggered
    completed,
    ok: sum('2xx'),
    non2xx: sum('non2xx'),
    errors: sum('errors'),
    timeouts: sum('timeouts'),
    status_codes: status,
    rps,
    p50_ms: pct(50),
    p99_ms: pct(99),
    max_ms: sorted.length ? sorted[sorted.length - 1] : null,
    generator_cpu_pct: (cpu.user + cpu.system) / 1e4 / wall,
  }),
);
