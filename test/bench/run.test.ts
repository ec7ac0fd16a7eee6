// bench/run/'s own checks, through a real wrk against a loopback server of the test's: a round
// whose answers were not all 2xx is refused (reads included), the body bytes each answer carried
// are counted (so a row measures the document it is labelled with), the start scenario's port is
// free, and the disk neighbour's loop ends by itself and leaves no file behind.
import { Database } from 'bun:sqlite';
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { verdict } from '../../bench/harness.ts';
import { bodyRefusal } from '../../bench/run/cached.ts';
import { REBUILT_DRIFT } from '../../bench/run/compress.ts';
import { children, helperRound, luaAnonymousGet, round, scriptsDir } from '../../bench/run/context.ts';
import { neighbourScript } from '../../bench/run/disk.ts';
import { probedRound, sampleCoreWait } from '../../bench/run/probed.ts';
import { freePort } from '../../bench/run/start.ts';
import { voteRounds } from '../../bench/run/writes.ts';
import { findWrk } from '../../bench/wrk.ts';
import { atEnd } from '../temp.ts';

// The Lua scripts every block of this file (and any other of the process) wrote go when the run ends.
atEnd(() => rmSync(scriptsDir, { recursive: true, force: true }));

const DOC = 'x'.repeat(4895);

describe.skipIf(!findWrk())('a wrk round as bench/run.ts measures it', () => {
  let server: ReturnType<typeof Bun.serve>;
  let url = '';
  const encodings: (string | null)[] = [];
  beforeAll(() => {
    server = Bun.serve({
      hostname: '127.0.0.1',
      port: 0,
      fetch(req) {
        const path = new URL(req.url).pathname;
        if (encodings.length < 3) encodings.push(req.headers.get('accept-encoding'));
        if (path === '/doc') return new Response(DOC);
        if (path === '/flaky') return Math.random() < 0.5 ? new Response(DOC) : new Response('gone', { status: 404 });
        if (path === '/moved') return new Response(null, { status: 301, headers: { location: '/doc' } });
        return new Response('not found', { status: 404 });
      },
    });
    url = `http://127.0.0.1:${server.port}`;
  });
  afterAll(async () => {
    server.stop(true);
    await children.stopAll();
  });

  const measure = (path: string, acceptEncoding: string | null = null) =>
    round({ url, pid: process.pid, connections: 2, script: luaAnonymousGet(path, acceptEncoding) }, 1);

  test('a read round whose answers are all 404 is refused, and its verdict is NO VERDICT', async () => {
    const r = await measure('/missing');
    expect(r.completed).toBeGreaterThan(0);
    expect(r.refused).toContain(`${r.completed} answers were not 2xx`);
    const v = verdict({ metric: 'p99', op: '<', value: 1000, text: 'p99 < 1 s' }, { median: 1, min: 1, max: 1 }, [r.refused]);
    expect(v.verdict).toBe('NO VERDICT');
  });

  test('some 404s among 200s refuse it too; a 3xx is not a success either', async () => {
    const flaky = await measure('/flaky');
    expect(flaky.statuses?.['404']).toBeGreaterThan(0);
    expect(flaky.refused).toContain(`${flaky.statuses!['404']} answers were not 2xx`);
    const moved = await measure('/moved');
    expect(moved.refused).toContain('answers were not 2xx');
  });

  test("each answer's body is counted: the row measured the document it names, and another one is refused", async () => {
    const r = await measure('/doc');
    expect(r.refused ?? '').not.toContain('not 2xx');
    expect(r.body_bytes! / r.completed).toBe(DOC.length);
    expect(r.read_bytes / r.completed).toBeGreaterThan(DOC.length);
    expect(bodyRefusal(r, DOC.length)).toBeNull();
    expect(bodyRefusal(r, 46_000)).toBe(`answers were ${DOC.length} bytes, not the 46000 measured`);
    // Under writes the document moves a little as they land; another variant is still refused.
    expect(bodyRefusal(r, DOC.length + 7)).toBe(`answers were ${DOC.length} bytes, not the ${DOC.length + 7} measured`);
    expect(bodyRefusal(r, DOC.length + 7, 0.05)).toBeNull();
    expect(bodyRefusal(r, 46_000, 0.05)).toBe(`answers were ${DOC.length} bytes, not the 46000 measured`);
    // The compress group's allowance for a document rebuilt during the rounds: a few bytes of a
    // compressed answer, never another form of the bytes.
    expect(bodyRefusal({ ...r, body_bytes: 1471 * r.completed }, 1476, REBUILT_DRIFT)).toBeNull();
    expect(bodyRefusal({ ...r, body_bytes: 16_500 * r.completed }, 1476, REBUILT_DRIFT)).toBe('answers were 16500 bytes, not the 1476 measured');
  });

  test('a paced round offers at most connections × 1000 ÷ pace requests a second (the compress group compares builds at one load)', async () => {
    // 2 connections pacing 50 ms: at most 40 a second whatever the machine (a slow one sends fewer).
    const paced = await round({ url, pid: process.pid, connections: 2, script: luaAnonymousGet('/doc', null, 50) }, 1);
    expect(paced.completed).toBeGreaterThan(0);
    expect(paced.completed / paced.window_s).toBeLessThanOrEqual(40 * 1.1);
    expect(paced.refused ?? '').not.toContain('not 2xx');
  });

  test('an anonymous reader sends no agent headers, and the Accept-Encoding asked for', async () => {
    encodings.length = 0;
    await measure('/doc', 'br');
    expect(encodings[0]).toBe('br');
    encodings.length = 0;
    await measure('/doc');
    expect(encodings[0]).toBeNull();
  });
});

describe.skipIf(!findWrk())('vote rounds: each casts new votes, and a round of repeated ones is refused', () => {
  // A stand-in for POST /votes: a vote per (key, target) stored once in svc.sqlite's votes table,
  // the same vote again answered 200 without a row, as svc answers a duplicate. Each answer waits
  // a millisecond: at most connections × 1,000 votes a second, whatever the machine's speed.
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-votes-'));
  let server: ReturnType<typeof Bun.serve>;
  let url = '';
  beforeAll(() => {
    const db = new Database(join(dataDir, 'svc.sqlite'));
    db.exec('PRAGMA journal_mode = WAL');
    db.exec('CREATE TABLE votes (seq INTEGER PRIMARY KEY, voter TEXT NOT NULL, target TEXT NOT NULL, UNIQUE (voter, target))');
    const cast = db.query<void, [string, string]>('INSERT OR IGNORE INTO votes (voter, target) VALUES (?, ?)');
    server = Bun.serve({
      hostname: '127.0.0.1',
      port: 0,
      async fetch(req) {
        const { target_id } = (await req.json()) as { target_id: string };
        cast.run(req.headers.get('authorization') ?? '', target_id);
        await Bun.sleep(1);
        return Response.json({ ok: true });
      },
    });
    url = `http://127.0.0.1:${server.port}`;
  });
  afterAll(() => {
    server.stop(true);
    rmSync(dataDir, { recursive: true, force: true });
  });
  const keys = ['k0', 'k1', 'k2', 'k3'];

  test('the warm-up and each round continue where the one before stopped: no vote repeats, no round refused', async () => {
    // 4 keys × 10,000 targets: more pairs than 4 connections can cast in 3 s at ≤ 4,000 a second.
    const targets = Array.from({ length: 10_000 }, (_, i) => `t${i}`);
    const rs = await voteRounds({ url, pid: process.pid, dataDir }, { targets, keys, warmup: 1, rounds: 2, seconds: 1 });
    expect(rs).toHaveLength(2);
    for (const r of rs) {
      expect(r.completed).toBeGreaterThan(0);
      expect(r.refused ?? '').not.toContain('cast before');
    }
  });

  test('a round whose 2xx answers outnumber the votes it stored is refused, and says how many were repeats', async () => {
    // 4 keys × 5 targets: the first 20 answers store a vote each, every answer after them is a repeat.
    const targets = Array.from({ length: 5 }, (_, i) => `few${i}`);
    const [r] = await voteRounds({ url, pid: process.pid, dataDir }, { targets, keys, warmup: 0, rounds: 1, seconds: 1 });
    expect(r!.completed).toBeGreaterThan(20);
    expect(r!.refused).toContain(`${r!.completed - 20} answers were votes cast before (200 duplicate, nothing written)`);
    const v = verdict({ metric: 'ok/s', op: '>=', value: 1, text: 'votes ≥ 1/s' }, { median: 1e9, min: 1e9, max: 1e9 }, [r!.refused]);
    expect(v.verdict).toBe('NO VERDICT');
  });
});

describe("rounds the bench's own helpers drove (submits, lab publishes, probes, starts)", () => {
  const base = { completed: 24, p50_ms: 300, p99_ms: 400, max_ms: 450, window_s: 2, concurrency: 4 };
  const quiet = { server_us: 1_500_000, helpers_us: 500_000, machine_us: 2_050_000 };

  test('one answer that was not 2xx among the submits refuses the round', () => {
    expect(helperRound({ ...base, statuses: { '202': 24 }, cpu: quiet }).refused).toBeNull();
    const r = helperRound({ ...base, statuses: { '202': 23, '422': 1 }, cpu: quiet });
    expect(r.refused).toBe('1 answers were not 2xx');
    expect(r.non2xx).toBe(1);
  });

  test('without CPU figures the statuses still judge it; with them, others on the CPU refuse it too', () => {
    expect(helperRound({ ...base, statuses: { '201': 23, '500': 1 } }).refused).toBe('1 answers were not 2xx');
    expect(helperRound({ ...base, statuses: { '201': 24 } }).refused).toBeNull();
    const busy = helperRound({ ...base, statuses: { '201': 24 }, cpu: { ...quiet, machine_us: 3_000_000 } });
    expect(busy.refused).toContain('other processes used 50 % of a core');
  });
});

describe('the start and disk scenarios', () => {
  test('the start port is one nothing listens on', async () => {
    const port = await freePort();
    await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
  });

  test("the neighbour's dd loop syncs a file for the time given, then ends and removes it", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-bench-neighbour-'));
    const file = join(dir, "it's.bin");
    try {
      const t0 = performance.now();
      const p = Bun.spawn(['bash', '-c', neighbourScript(file, 1, 1)], { stdout: 'ignore', stderr: 'pipe' });
      expect(await p.exited).toBe(0);
      expect(performance.now() - t0).toBeGreaterThanOrEqual(900);
      expect(existsSync(file)).toBe(false);
      // Stopped early (SIGTERM), it removes the file too.
      const q = Bun.spawn(['bash', '-c', neighbourScript(file, 1, 30)], { stdout: 'ignore', stderr: 'ignore' });
      await Bun.sleep(300);
      q.kill('SIGTERM');
      await q.exited;
      expect(existsSync(file)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("a probed round and the server's waits for a core", () => {
  test('the request thread is sampled while the round runs, its wait so far never falling', async () => {
    const sampler = sampleCoreWait(process.pid);
    await Bun.sleep(30);
    const samples = sampler.stop();
    expect(samples.length).toBeGreaterThan(2);
    for (let i = 1; i < samples.length; i++) {
      expect(samples[i]![0]).toBeGreaterThanOrEqual(samples[i - 1]![0]);
      expect(samples[i]![1]).toBeGreaterThanOrEqual(samples[i - 1]![1]);
    }
  });

  test('each probe says when its slowest request was sent and how long the thread waited for a core during it, at most its time', async () => {
    const server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response('ok') });
    try {
      const before = performance.timeOrigin + performance.now();
      const x = await probedRound(process.pid, [`http://127.0.0.1:${server.port}/`], () => children.spawn(['sleep', '0.3']));
      const after = performance.timeOrigin + performance.now();
      const p = x.probes[0]!;
      expect(p.failures).toBe(0);
      expect(p.max_at).toBeGreaterThanOrEqual(before - 5);
      expect(p.max_at! + p.max_ms).toBeLessThanOrEqual(after + 5);
      expect(p.max_core_wait_ms).toBeGreaterThanOrEqual(0);
      // Bracketed by samples a millisecond or so apart: the wait is within the probe and those gaps.
      expect(p.max_core_wait_ms!).toBeLessThanOrEqual(p.max_ms + 50);
      // Who else used the CPU meanwhile, busiest first.
      for (const [i, o] of x.others.entries()) {
        expect(o.pct).toBeGreaterThan(0);
        if (i > 0) expect(o.pct).toBeLessThanOrEqual(x.others[i - 1]!.pct);
      }
    } finally {
      server.stop(true);
    }
  });
});
