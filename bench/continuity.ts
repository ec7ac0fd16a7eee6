// Continuity wait benchmark: `node_modules/.bin/bun bench/continuity.ts`.
//
// For each size in BENCH_WAITERS (default "5000,10000"): seeds a fresh data dir with that many
// agents, each with a thread of its own, starts `svc serve` on it, opens one raw HTTP connection
// per agent holding GET /v1/continuity/wait?timeout=90, and once the server holds them all (its
// /healthz `waiting` count) reads the server's memory. Then a driver agent replies to every thread
// at a steady pace, and each waiter's latency is measured from the moment its reply was sent to
// the moment its wait answered "inbox" (an upper bound of "answered after the event": it includes
// the reply's own request). Prints memory, latency percentiles and PASS/FAIL against the targets
// (server memory < 300 MB, every answer ≤ 200 ms), and saves bench/out/continuity.json.
//
// Env: BENCH_WAITERS (comma-separated sizes), BENCH_REPLY_RATE (replies per second, default 1000),
// BENCH_REPLY_CONCURRENCY (default 16).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Socket } from 'bun';
import { registerAgent } from '../src/accounts/accounts.ts';
import { systemClock } from '../src/clock.ts';
import { loadConfig } from '../src/compose.ts';
import { serviceContext } from '../src/compose.ts';
import { newId } from '../src/clock.ts';
import { migrate } from '../src/db/migrate.ts';
import { openDatabase } from '../src/db/open.ts';
import { percentile, ROOT, round, startServer } from './lib.ts';

const SIZES = (process.env.BENCH_WAITERS ?? '5000,10000').split(',').map(Number);
const RATE = Number(process.env.BENCH_REPLY_RATE ?? 1000);
const CONCURRENCY = Number(process.env.BENCH_REPLY_CONCURRENCY ?? 16);
const TARGET_MB = 300;
const TARGET_MS = 200;
const SERVER_ENV = { SVC_REGISTER_PER_HOUR: '0', SVC_PUBLIC_READS_PER_MINUTE: '0', SVC_POSTING_PER_DAY: '1000000' };
const HEADERS = { 'x-agent-protocol': 'svc/1', accept: 'application/json', 'content-type': 'application/json' };

interface Seeded {
  keys: string[];
  threads: string[];
  driverKey: string;
}

/** N agents with a thread each, and a driver agent, written straight through the domain code and SQL. */
function seed(dataDir: string, n: number): Seeded {
  const config = loadConfig({ SVC_DATA_DIR: dataDir });
  const db = openDatabase(config.dataDir);
  migrate(db);
  const ctx = serviceContext(config, db, systemClock);
  const keys: string[] = [];
  const threads: string[] = [];
  const insert = db.query(
    "INSERT INTO posts (id, kind, thread_id, author_id, topic, title, body, created_at) VALUES (?1, 'post', ?1, ?2, 'general', ?3, ?4, ?5)",
  );
  db.transaction(() => {
    for (let i = 0; i < n; i++) {
      const r = registerAgent(ctx, { name: `waiter${i}` });
      keys.push(r.api_key);
      const id = newId(ctx);
      insert.run(id, r.agent.id, `Thread of waiter ${i}`, 'Waiting for an answer here.', Date.now());
      threads.push(id);
    }
  })();
  const driverKey = registerAgent(ctx, { name: 'driver' }).api_key;
  db.close();
  return { keys, threads, driverKey };
}

interface Waiter {
  socket: Socket<undefined> | null;
  buffer: string;
  sentAt: number; // when its reply was sent
  answeredAt: number;
  event: string | null;
}

/** Opens a raw keep-alive-free HTTP/1.1 connection holding one wait; resolves when written. */
function openWait(host: string, port: number, key: string, w: Waiter): Promise<void> {
  const request = `GET /v1/continuity/wait?timeout=90 HTTP/1.1\r\nHost: ${host}:${port}\r\nAuthorization: Bearer ${key}\r\nX-Agent-Protocol: svc/1\r\nAccept: application/json\r\nConnection: close\r\n\r\n`;
  return new Promise((resolveOpen, reject) => {
    Bun.connect({
      hostname: host,
      port,
      socket: {
        open(socket) {
          w.socket = socket;
          socket.write(request);
          resolveOpen();
        },
        data(_socket, chunk) {
          w.buffer += chunk.toString();
          const body = w.buffer.indexOf('\r\n\r\n');
          if (w.event === null && body >= 0) {
            const m = /"event":"(\w+)"/.exec(w.buffer.slice(body));
            if (m) {
              w.answeredAt = performance.now();
              w.event = m[1]!;
            }
          }
        },
        error(_socket, err) {
          reject(err);
        },
      },
    }).catch(reject);
  });
}

async function waitingOnServer(url: string): Promise<number> {
  return ((await (await fetch(`${url}/healthz`)).json()) as { waiting: number }).waiting;
}

async function run(n: number) {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-wait-'));
  try {
    const t0 = performance.now();
    const seeded = seed(dataDir, n);
    console.log(`  seeded ${n} agents and threads in ${round((performance.now() - t0) / 1000)} s`);
    const server = await startServer(dataDir, SERVER_ENV);
    const { hostname, port } = new URL(server.url);
    const idle = server.memory();

    const waiters: Waiter[] = seeded.keys.map(() => ({ socket: null, buffer: '', sentAt: 0, answeredAt: 0, event: null }));
    const t1 = performance.now();
    for (let i = 0; i < n; i += 500) await Promise.all(waiters.slice(i, i + 500).map((w, j) => openWait(hostname, Number(port), seeded.keys[i + j]!, w)));
    let held = await waitingOnServer(server.url);
    for (let tries = 0; tries < 600 && held < n; tries++) {
      await Bun.sleep(50);
      held = await waitingOnServer(server.url);
    }
    const openSeconds = (performance.now() - t1) / 1000;
    if (held < n) throw new Error(`the server holds ${held} waits of ${n}`);
    await Bun.sleep(500);
    const holding = server.memory();
    console.log(`  ${held} waits held after ${round(openSeconds)} s; server RSS ${idle.rss_mb} MB idle → ${holding.rss_mb} MB holding them`);

    // The driver replies to every thread at RATE per second with CONCURRENCY requests in flight.
    let next = 0;
    const start = performance.now();
    const intervalMs = 1000 / RATE;
    let failures = 0;
    const worker = async () => {
      while (next < n) {
        const i = next++;
        const due = start + i * intervalMs;
        const now = performance.now();
        if (due > now) await Bun.sleep(due - now);
        waiters[i]!.sentAt = performance.now();
        const res = await fetch(`${server.url}/v1/posts/${seeded.threads[i]}/replies`, {
          method: 'POST',
          headers: { ...HEADERS, authorization: `Bearer ${seeded.driverKey}`, 'idempotency-key': crypto.randomUUID() },
          body: JSON.stringify({ body: `Reply ${i}: here is the answer you waited for.` }),
        });
        if (res.status !== 200) failures++;
        await res.arrayBuffer();
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const driveSeconds = (performance.now() - start) / 1000;
    for (let tries = 0; tries < 100 && waiters.some((w) => w.event === null); tries++) await Bun.sleep(20);
    const peak = server.memory();
    const answered = waiters.filter((w) => w.event === 'inbox');
    const latencies = answered.map((w) => w.answeredAt - w.sentAt);
    for (const w of waiters) w.socket?.end();
    const exit = await server.stop();
    const result = {
      waiters: n,
      server_rss_idle_mb: idle.rss_mb,
      server_rss_holding_mb: holding.rss_mb,
      server_peak_rss_mb: peak.peak_rss_mb,
      kb_per_wait: round(((holding.rss_mb - idle.rss_mb) * 1024) / n),
      replies_per_s: round(n / driveSeconds),
      reply_failures: failures,
      answered_inbox: answered.length,
      latency_ms: { p50: round(percentile(latencies, 50)), p99: round(percentile(latencies, 99)), max: round(Math.max(...latencies)) },
      server_exit: exit,
    };
    const memoryOk = result.server_peak_rss_mb < TARGET_MB;
    const latencyOk = answered.length === n && result.latency_ms.max <= TARGET_MS;
    console.log(`  replies at ${result.replies_per_s}/s (${failures} failed); ${answered.length}/${n} waits answered "inbox"`);
    console.log(
      `  latency reply sent → wait answered: p50 ${result.latency_ms.p50} ms, p99 ${result.latency_ms.p99} ms, max ${result.latency_ms.max} ms  ${latencyOk ? 'PASS' : 'FAIL'} (every one ≤ ${TARGET_MS} ms)`,
    );
    console.log(
      `  server peak RSS ${result.server_peak_rss_mb} MB  ${memoryOk ? 'PASS' : 'FAIL'} (< ${TARGET_MB} MB); ${result.kb_per_wait} kB per held wait; clean exit ${exit === 0 ? 'PASS' : 'FAIL'}`,
    );
    return result;
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

console.log(`continuity wait bench: sizes ${SIZES.join(', ')}, replies at ${RATE}/s`);
const results = [];
for (const n of SIZES) {
  console.log(`\n${n} concurrent waits`);
  results.push(await run(n));
}
mkdirSync(join(ROOT, 'bench/out'), { recursive: true });
writeFileSync(join(ROOT, 'bench/out/continuity.json'), JSON.stringify({ at: new Date().toISOString(), results }, null, 2));
process.exit(0);
