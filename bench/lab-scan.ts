// Lab scan figures: `node_modules/.bin/bun bench/lab-scan.ts`.
// 1. scanLabSite on a 2 MB, 60-file site in this thread (the worker's own cost), 5 runs.
// 2. A real server on loopback (fresh temp data dir) takes such publishes ten at a time, three
//    rounds, while a second process polls /healthz and reports its p50/p99: scans run in workers,
//    so health answers must stay fast. Bounded; the server stops and the prober is killed at the end.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../src/app.ts';
import { systemClock } from '../src/clock.ts';
import { loadConfig } from '../src/config.ts';
import { createContext } from '../src/context.ts';
import { migrate } from '../src/db/migrate.ts';
import { openDatabase } from '../src/db/open.ts';
import { labPagesRoutes } from '../src/lab/pages/routes.ts';
import { labScanPool } from '../src/lab/pages/scan.ts';
import { scanLabSite } from '../src/lab/scan/site.ts';

if (process.argv[2] === '--probe') {
  // The prober: GET /healthz every 5 ms until told to stop, then print the latencies.
  const url = process.argv[3]!;
  const times: number[] = [];
  let stop = false;
  process.on('SIGTERM', () => (stop = true));
  const deadline = Date.now() + 120_000;
  while (!stop && Date.now() < deadline) {
    const t0 = performance.now();
    await (await fetch(url)).text();
    times.push(performance.now() - t0);
    await Bun.sleep(5);
  }
  times.sort((a, b) => a - b);
  const q = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))]!.toFixed(2);
  console.log(JSON.stringify({ healthz_requests: times.length, p50_ms: q(0.5), p99_ms: q(0.99), max_ms: q(1) }));
  process.exit(0);
}

const KB = 1024;
const TOTAL = 2 * 1024 * KB;

/** 60 files, exactly 2 MB: 20 pages of ordinary markup, 20 stylesheets, 19 scripts, 1 image. */
function site(seed: number): { path: string; content: string; encoding?: 'base64' }[] {
  const para = (i: number) =>
    `<section class="card c${i}"><h2>Tide ${i} (${seed})</h2><p>The water rises and falls twice a day; this table shows when, and by how much, for the harbour.</p><ul><li><a href="p${i % 20}.html">next</a></li><li>Low water ${i}:00</li></ul></section>\n`;
  const rule = (i: number) =>
    `.c${i} { margin: ${i % 7}px; padding: 4px; color: #${((i * 2654435761) % 0xffffff).toString(16).padStart(6, '0')}; }\n.c${i} h2 { font-size: 1.${i % 9}rem }\n`;
  const fn = (i: number) =>
    `function tide${i}(h) {\n  const el = document.querySelector('.c${i}');\n  if (el) el.dataset.h = String(Math.sin(h / ${i + 1}) * ${i});\n  return [h, ${i}].join(':');\n}\n`;
  const fill = (gen: (i: number) => string, bytes: number, head = '', tail = '') => {
    let s = head;
    for (let i = 0; ; i++) {
      const next = gen(i);
      if (s.length + next.length + tail.length > bytes) break;
      s += next;
    }
    return s + ' '.repeat(bytes - s.length - tail.length) + tail;
  };
  const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(20 * KB - 8, 7)]);
  const files: { path: string; content: string; encoding?: 'base64' }[] = [];
  const pageBytes = 50 * KB;
  const cssBytes = 25 * KB;
  const jsBytes = Math.floor((TOTAL - 20 * pageBytes - 20 * cssBytes - png.length) / 19);
  for (let i = 0; i < 20; i++) {
    const head = `<!doctype html><html><head><meta charset="utf-8"><title>Tides ${i}</title><link rel="stylesheet" href="s${i}.css"><script src="j${i % 19}.js"></script></head><body><h1>Harbour tides, page ${i}</h1>\n`;
    files.push({ path: i === 0 ? 'index.html' : `p${i}.html`, content: fill(para, pageBytes, head, '\n</body></html>') });
  }
  for (let i = 0; i < 20; i++) files.push({ path: `s${i}.css`, content: fill(rule, cssBytes, '', '\n') });
  for (let i = 0; i < 19; i++) files.push({ path: `j${i}.js`, content: fill(fn, jsBytes, '', '\n') });
  files.push({ path: 'img/tide.png', content: png.toString('base64'), encoding: 'base64' });
  const used = files.reduce((n, f) => n + (f.encoding ? Buffer.from(f.content, 'base64').length : Buffer.byteLength(f.content)), 0);
  const last = files.find((f) => f.path === 'j18.js')!;
  last.content += ' '.repeat(TOTAL - used); // top up to exactly 2 MB
  return files;
}

const enc = new TextEncoder();
const asSiteFiles = (files: ReturnType<typeof site>) =>
  files.map((f) => ({ path: f.path, bytes: f.encoding ? new Uint8Array(Buffer.from(f.content, 'base64')) : enc.encode(f.content) }));

// 1. The scan itself.
const direct: number[] = [];
for (let i = 0; i < 5; i++) {
  const files = asSiteFiles(site(i));
  const total = files.reduce((n, f) => n + f.bytes.byteLength, 0);
  const t0 = performance.now();
  const verdict = scanLabSite(files);
  direct.push(performance.now() - t0);
  if (verdict || total !== TOTAL || files.length !== 60) throw new Error(`bench site is not a clean 60-file 2 MB site: ${JSON.stringify(verdict)} ${total}`);
}
console.log(JSON.stringify({ scan_in_thread_ms: direct.map((t) => Math.round(t)), files: 60, bytes: TOTAL }));

// 2. Through the server.
const dataDir = mkdtempSync(join(tmpdir(), 'svc-lab-bench-'));
const config = Object.freeze({
  ...loadConfig({ SVC_DATA_DIR: dataDir, SVC_PORT: '0', SVC_PUBLIC_READS_PER_MINUTE: '0', SVC_REGISTER_PER_HOUR: '0' }),
  maxRequestBytes: 4 * 1024 * KB,
});
const db = openDatabase(dataDir);
migrate(db);
const ctx = createContext(config, db, systemClock);
const app = createApp(ctx);
if (!app.routes.some((r) => r.path === '/v1/lab/pages')) (app as unknown as { use(p: unknown): void }).use(labPagesRoutes(ctx));
app.listen({ hostname: '127.0.0.1', port: 0, maxRequestBodySize: 4 * 1024 * KB });
const base = `http://127.0.0.1:${app.server!.port}`;
const H = { 'x-agent-protocol': 'svc/1', accept: 'application/json', 'content-type': 'application/json' };

const agents: string[] = [];
for (let i = 0; i < 10; i++) {
  const r = (await (await fetch(`${base}/v1/agents`, { method: 'POST', headers: H, body: JSON.stringify({ name: `bench${i}` }) })).json()) as {
    agent: { id: string };
    api_key: string;
  };
  db.query('INSERT INTO lab_allowed (account_id, added_at) VALUES (?, ?)').run(r.agent.id, Date.now());
  agents.push(r.api_key);
}
const bodies = Array.from({ length: 10 }, (_, i) => JSON.stringify({ title: `Tides ${i}`, files: site(100 + i) }));
await (await fetch(`${base}/healthz`)).text(); // warm up

const probe = Bun.spawn([process.execPath, import.meta.path, '--probe', `${base}/healthz`], { stdout: 'pipe', stderr: 'inherit' });
await Bun.sleep(300);
const publishMs: number[] = [];
const statuses: number[] = [];
try {
  for (let round = 0; round < 3; round++) {
    await Promise.all(
      agents.map(async (key, i) => {
        const t0 = performance.now();
        const res = await fetch(`${base}/v1/lab/pages/tides`, {
          method: 'PUT',
          headers: { ...H, authorization: `Bearer ${key}`, 'idempotency-key': crypto.randomUUID() },
          body: bodies[i],
        });
        await res.text();
        statuses.push(res.status);
        publishMs.push(performance.now() - t0);
      }),
    );
  }
} finally {
  await Bun.sleep(200);
  probe.kill('SIGTERM');
  const out = await new Response(probe.stdout).text();
  await probe.exited;
  publishMs.sort((a, b) => a - b);
  console.log(
    JSON.stringify({
      publishes: publishMs.length,
      concurrent: 10,
      statuses: [...new Set(statuses)],
      publish_ms: { min: Math.round(publishMs[0]!), p50: Math.round(publishMs[Math.floor(publishMs.length / 2)]!), max: Math.round(publishMs.at(-1)!) },
      scan_workers: labScanPool(ctx).size,
    }),
  );
  console.log(out.trim());
  labScanPool(ctx).close();
  await app.stop(true);
  db.close();
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(0);
