// The bench harness's judgement (bench/harness.ts): when a round may be judged, the spread, the
// rotation of peers, the verdicts and the parsing of what wrk and /proc print.
import { describe, expect, test } from 'bun:test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  busiestOthers,
  coreWaitDuring,
  cpuSnapshot,
  failedAnswers,
  judgeRound,
  list,
  MIN_PROBES,
  pairedDifference,
  parseBodyBytes,
  parseProcessStat,
  parseProcStat,
  parseSchedstat,
  parseStatuses,
  probeRefusal,
  reclaimOf,
  rotation,
  spread,
  verdict,
} from '../../bench/harness.ts';
import { parseWrk } from '../../bench/wrk.ts';
import { tempDir } from '../temp.ts';

const quiet = { window_s: 5, completed: 50_000, server_cpu_us: 5_000_000, generator_cpu_pct: 40, generator_threads: 1, helpers_cpu_us: 0, failed: 0 };

describe('judgeRound', () => {
  test('a quiet round is judged, with the server CPU per request', () => {
    // machine busy = server 5 s + generator 2 s over 5 s: nobody else.
    const j = judgeRound({ ...quiet, machine_busy_us: 7_000_000 });
    expect(j.refused).toBeNull();
    expect(j.server_cpu_us_per_req).toBe(100);
    expect(j.server_cpu_pct).toBe(100);
    expect(j.other_cpu_pct).toBe(0);
  });

  test('a generator at 90 % of its cores refuses the verdict', () => {
    const j = judgeRound({ ...quiet, generator_cpu_pct: 92, machine_busy_us: 5_000_000 + 4_600_000 });
    expect(j.refused).toContain('generator at 92 % of 100 %');
  });

  test("another process on the CPU refuses the verdict; the bench's own helpers do not", () => {
    const busy = 7_000_000 + 2_500_000; // half a core more than server + generator
    expect(judgeRound({ ...quiet, machine_busy_us: busy }).refused).toContain('other processes used 50 % of a core');
    expect(judgeRound({ ...quiet, machine_busy_us: busy, helpers_cpu_us: 2_500_000 }).refused).toBeNull();
  });
});

describe('who else used the CPU', () => {
  const stat = (pid: number, name: string, ppid: number, utime: number, stime: number) =>
    `${pid} (${name}) S ${ppid} ${pid} ${pid} 0 -1 4194560 100 0 0 0 ${utime} ${stime} 0 0 20 0 1 0 100 1000 10 18446744073709551615`;

  test("a process's stat line: its name (spaces and parentheses in it too), parent and CPU ticks", () => {
    expect(parseProcessStat(stat(7, 'kworker/u8:2', 2, 30, 12))).toEqual({ name: 'kworker/u8:2', ppid: 2, ticks: 42 });
    expect(parseProcessStat(stat(9, 'a (b) c', 1, 5, 0))).toEqual({ name: 'a (b) c', ppid: 1, ticks: 5 });
    expect(parseProcessStat('garbage')).toBeNull();
  });

  test('the bench and every process under it are not others; kernel threads count by name; steal and interrupts are named', () => {
    const bench = 100;
    const snap = (t: number) => ({
      procs: new Map([
        [1, { name: 'init', ppid: 0, ticks: 10 }],
        [bench, { name: 'bun', ppid: 1, ticks: 1000 * t }],
        [101, { name: 'svc', ppid: bench, ticks: 5000 * t }], // the server
        [102, { name: 'bash', ppid: bench, ticks: 10 }],
        [103, { name: 'dd', ppid: 102, ticks: 900 * t }], // under the bench, two levels down
        [200, { name: 'kdamond.0', ppid: 2, ticks: 155 * t }],
        [201, { name: 'kworker/0:1', ppid: 2, ticks: 40 * t }],
        [202, { name: 'kworker/u8:3', ppid: 2, ticks: 20 * t }],
        [203, { name: 'sshd', ppid: 1, ticks: 2 * t }], // 0.4 % of a core
      ]),
      steal: 30 * t,
      irq: 15 * t,
    });
    const others = busiestOthers(snap(0), snap(1), 5, bench);
    expect(others).toEqual([
      { name: 'kdamond.0', pct: 31 },
      { name: 'kworker', pct: 12 },
      { name: 'steal (the hypervisor)', pct: 6 },
      { name: 'interrupts', pct: 3 },
      { name: 'sshd', pct: 0.4 },
    ]);
    // A process that started in the window counts from nothing; the bench's own never.
    const later = snap(1);
    later.procs.set(300, { name: 'backup', ppid: 1, ticks: 50 });
    later.procs.set(301, { name: 'bun', ppid: bench, ticks: 5000 });
    expect(busiestOthers(snap(0), later, 5, bench)).toContainEqual({ name: 'backup', pct: 10 });
    expect(busiestOthers(snap(0), later, 5, bench).map((o) => o.name)).not.toContain('bun');
  });

  test('a snapshot reads every numbered entry of a /proc tree, skipping what is not a process', () => {
    const root = tempDir('svc-bench-proc-');
    const put = (path: string, text: string) => {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    };
    put('stat', 'cpu  100 0 50 1000 5 3 4 7 0 0\ncpu0 50 0 25 500 2 1 2 3 0 0\n');
    put('1/stat', stat(1, 'init', 0, 3, 4));
    put('42/stat', stat(42, 'svc', 1, 100, 20));
    put('self/stat', stat(42, 'svc', 1, 100, 20));
    mkdirSync(join(root, '77')); // ended between the listing and the read: no stat file
    const s = cpuSnapshot(root);
    expect([...s.procs.keys()].sort((a, b) => a - b)).toEqual([1, 42]);
    expect(s.procs.get(42)).toEqual({ name: 'svc', ppid: 1, ticks: 120 });
    expect(s.irq).toBe(7);
    expect(s.steal).toBe(7);
    // This machine's own /proc holds this process, under its parent.
    const here = cpuSnapshot();
    expect(here.procs.get(process.pid)?.ppid).toBe(process.ppid);
  });

  test('a round refused for other processes names them, and the row names the busiest round’s', () => {
    const busy = 7_000_000 + 2_500_000;
    const others = [
      { name: 'kdamond.0', pct: 31.2 },
      { name: 'kworker', pct: 12 },
      { name: 'steal (the hypervisor)', pct: 4 },
      { name: 'sshd', pct: 2 },
      { name: 'cron', pct: 0.8 },
    ];
    const j = judgeRound({ ...quiet, machine_busy_us: busy, others });
    expect(j.refused).toBe('other processes used 50 % of a core (kdamond.0 31 %, kworker 12 %, steal (the hypervisor) 4 %, 3 % by others)');
    // Named only when refused for it.
    expect(judgeRound({ ...quiet, machine_busy_us: 7_000_000, others }).refused).toBeNull();
    // What no process still there was charged with is said as such: a process that ended meanwhile is gone from /proc.
    expect(judgeRound({ ...quiet, machine_busy_us: busy, others: [{ name: 'cron', pct: 10 }] }).refused).toBe(
      'other processes used 50 % of a core (cron 10 %, 40 % by processes that ended meanwhile)',
    );
    expect(judgeRound({ ...quiet, machine_busy_us: busy, others: [] }).refused).toBe(
      'other processes used 50 % of a core (50 % by processes that ended meanwhile)',
    );
    expect(judgeRound({ ...quiet, machine_busy_us: busy }).refused).toBe('other processes used 50 % of a core'); // not looked at: nothing said
    const t = { metric: 'max', op: '<' as const, value: 50, text: 'max < 50 ms' };
    const v = verdict(t, { median: 9, min: 8, max: 10 }, ['other processes used 20 % of a core (cron 20 %)', j.refused, null]);
    expect(v.why).toBe(
      '2 of 3 rounds refused: other processes used up to 50 % of a core (kdamond.0 31 %, kworker 12 %, steal (the hypervisor) 4 %, 3 % by others)',
    );
  });
});

describe('a round with answers that were not 2xx is refused', () => {
  const wrk = { completed: 1000, non2xx: 0, errors: 0, timeouts: 0 };

  test('counted from the statuses the script saw (3xx and tool errors too), else from wrk; socket errors and timeouts always', () => {
    expect(failedAnswers({ ...wrk, statuses: { '200': 990, '404': 7, '304': 2, tool_error: 1 } })).toBe(10);
    expect(failedAnswers({ ...wrk, statuses: { '200': 999, '201': 1 } })).toBe(0);
    // wrk alone counts only 4xx and 5xx; with no script counts its figure is what there is.
    expect(failedAnswers({ ...wrk, non2xx: 5, statuses: null })).toBe(5);
    expect(failedAnswers({ ...wrk, errors: 2, timeouts: 1, statuses: { '200': 997 } })).toBe(3);
  });

  test('a read round on a quiet machine with a single 404 has no verdict, whatever its figures', () => {
    const failed = failedAnswers({ ...wrk, statuses: { '200': 999, '404': 1 } });
    const j = judgeRound({ ...quiet, machine_busy_us: 7_000_000, failed });
    expect(j.refused).toBe('1 answers were not 2xx');
    const p99 = { metric: 'p99', op: '<' as const, value: 10, text: 'p99 < 10 ms' };
    const v = verdict(p99, { median: 1, min: 1, max: 1 }, [null, j.refused, null]);
    expect(v.verdict).toBe('NO VERDICT');
    expect(v.why).toBe('1 of 3 rounds refused: 1 answers were not 2xx in 1');
    // The same rounds with every answer 2xx are judged.
    expect(verdict(p99, { median: 1, min: 1, max: 1 }, [null, judgeRound({ ...quiet, machine_busy_us: 7_000_000, failed: 0 }).refused, null]).verdict).toBe(
      'PASS',
    );
  });

  test('a round whose answers were not counted is refused too', () => {
    expect(judgeRound({ ...quiet, machine_busy_us: 7_000_000, failed: Number.NaN }).refused).toBe('uncounted answers were not 2xx');
  });

  test('several reasons in several rounds: each counted once, none lost behind another', () => {
    const busy = judgeRound({ ...quiet, generator_cpu_pct: 95, machine_busy_us: 5_000_000 + 4_750_000 + 2_000_000, failed: 3 }).refused!;
    expect(busy).toContain('3 answers were not 2xx');
    expect(busy).toContain('generator at 95 %');
    const t = { metric: 'pct', op: '>=' as const, value: 0.85, text: '≥ 85 % of raw' };
    const v = verdict(t, { median: 0.9, min: 0.9, max: 0.9 }, [busy, '2 answers were not 2xx', null, 'answers were 4000 bytes, not the 60097 measured']);
    expect(v.why).toBe(
      '3 of 4 rounds refused: 5 answers were not 2xx in 2; the generator was the bottleneck in 1; other processes used up to 40 % of a core; answers were 4000 bytes, not the 60097 measured',
    );
  });
});

describe('the probes and the paired figures', () => {
  test("a probe too short for its p99 to be more than its slowest request refuses the round's figure", () => {
    expect(probeRefusal(99)).toBe(`the prober made 99 requests: a p99 needs ≥ ${MIN_PROBES}`);
    expect(probeRefusal(MIN_PROBES)).toBeNull();
    // Why: at fewer than 100 the nearest-rank p99 is the maximum itself.
    const times = Array.from({ length: 99 }, (_, i) => i);
    const p99 = times[Math.ceil(0.99 * times.length) - 1];
    expect(p99).toBe(Math.max(...times));
  });

  test('differences round by round', () => {
    expect(pairedDifference([12, 15, 11], [10, 10, 10])).toEqual({ median: 2, min: 1, max: 5 });
    expect(() => pairedDifference([1], [1, 2])).toThrow('paired rounds');
  });
});

describe('spread and rotation', () => {
  test('median, min and max over the rounds, ignoring missing figures', () => {
    expect(spread([3, 1, 2])).toEqual({ median: 2, min: 1, max: 3 });
    expect(spread([4, null, 1, 2, 3])).toEqual({ median: 2.5, min: 1, max: 4 });
    expect(Number.isNaN(spread([]).median)).toBe(true);
  });

  test('each round starts one peer further along, so every peer runs first once', () => {
    const peers = ['svc', 'raw', 'express'];
    const orders = [0, 1, 2].map((r) => rotation(peers, r));
    expect(orders).toEqual([
      ['svc', 'raw', 'express'],
      ['raw', 'express', 'svc'],
      ['express', 'svc', 'raw'],
    ]);
    expect(new Set(orders.map((o) => o[0])).size).toBe(3);
  });
});

describe('verdict', () => {
  const t = { metric: 'pct', op: '>=' as const, value: 0.85, text: '≥ 85 % of raw' };
  test('judged on the median, and a worst round that misses fails it', () => {
    expect(verdict(t, { median: 0.9, min: 0.88, max: 0.95 }, [null, null, null]).verdict).toBe('PASS');
    expect(verdict(t, { median: 0.8, min: 0.7, max: 0.9 }, [null, null, null]).verdict).toBe('FAIL');
    const noisy = verdict(t, { median: 0.9, min: 0.6, max: 0.95 }, [null, null, null]);
    expect(noisy.verdict).toBe('FAIL');
    expect(noisy.why).toContain('worst round');
  });

  test('one refused round means no verdict, and says why', () => {
    const v = verdict(t, { median: 0.9, min: 0.88, max: 0.95 }, [null, 'other processes used 40 % of a core', null]);
    expect(v.verdict).toBe('NO VERDICT');
    expect(v.why).toBe('1 of 3 rounds refused: other processes used up to 40 % of a core');
  });

  test('an upper bound judges the worst round at the top', () => {
    const p99 = { metric: 'p99', op: '<' as const, value: 10, text: 'p99 < 10 ms' };
    expect(verdict(p99, { median: 8, min: 7, max: 12 }, [null, null, null]).verdict).toBe('FAIL');
    expect(verdict(p99, { median: 8, min: 7, max: 9 }, [null, null, null]).verdict).toBe('PASS');
  });
});

describe('parsing', () => {
  test('/proc/stat: busy and total jiffies over every core', () => {
    expect(parseProcStat('cpu  100 5 50 1000 20 1 2 3 0 0\ncpu0 1 1 1 1 1 1 1 1 0 0\n')).toEqual({ busy: 161, total: 1181 });
  });

  test("wrk's report and the statuses a script printed", () => {
    const out = `Running 5s test @ http://127.0.0.1:1/x
  1 threads and 64 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     3.10ms    1.20ms  41.50ms   90.00%
  Latency Distribution
     50%    2.90ms
     75%    3.20ms
     90%    4.00ms
     99%    8.12ms
  51234 requests in 5.00s, 250.00MB read
  Non-2xx or 3xx responses: 34
Requests/sec:  10246.80
STATUSES {"201":51200,"422":34}
`;
    const r = parseWrk(out);
    expect(r).toMatchObject({ rps: 10246.8, completed: 51234, non2xx: 34, ok: 51200, p50_ms: 2.9, p99_ms: 8.12, max_ms: 41.5 });
    expect(parseStatuses(out)).toEqual({ '201': 51200, '422': 34 });
    expect(r.read_bytes).toBe(250 * 1024 * 1024);
    expect(parseBodyBytes('BODYBYTES 123456\n')).toBe(123456);
    expect(parseBodyBytes(out)).toBeNull();
    expect(parseStatuses('no line')).toBeNull();
  });

  test('BENCH_SIZES and BENCH_ONLY lists', () => {
    expect(list(' 10K, 1m ,,', '10k')).toEqual(['10k', '1m']);
    expect(list(undefined, '10k')).toEqual(['10k']);
  });
});

describe("the machine's proactive reclaim, as DAMON's sysfs says", () => {
  /** A DAMON admin tree with the files given (path → content). */
  const tree = (files: Record<string, string>) => {
    const root = tempDir('svc-damon-');
    for (const [p, v] of Object.entries(files)) {
      mkdirSync(dirname(join(root, p)), { recursive: true });
      writeFileSync(join(root, p), `${v}\n`);
    }
    return root;
  };
  const ctx = 'kdamonds/0/contexts/0';
  const pageout = {
    'kdamonds/nr_kdamonds': '1',
    'kdamonds/0/state': 'on',
    'kdamonds/0/contexts/nr_contexts': '1',
    [`${ctx}/operations`]: 'paddr',
    [`${ctx}/monitoring_attrs/intervals/aggr_us`]: '5000000',
    [`${ctx}/schemes/nr_schemes`]: '1',
    [`${ctx}/schemes/0/action`]: 'pageout',
    [`${ctx}/schemes/0/access_pattern/age/min`]: '12',
    [`${ctx}/schemes/0/quotas/bytes`]: String(128 * 2 ** 20),
    [`${ctx}/schemes/0/quotas/reset_interval_ms`]: '1000',
  };

  test('a running kdamond whose scheme pages out is named with its idle age and quota', () => {
    expect(reclaimOf(tree(pageout))).toBe('DAMON (paddr) pages out memory idle ≥ 60 s, up to 128 MB/s');
  });

  test('none when there is no DAMON, when it is off, or when its schemes do something else', () => {
    expect(reclaimOf(join(tempDir('svc-damon-'), 'absent'))).toBeNull();
    expect(reclaimOf(tree({ ...pageout, 'kdamonds/0/state': 'off' }))).toBeNull();
    expect(reclaimOf(tree({ ...pageout, [`${ctx}/schemes/0/action`]: 'stat' }))).toBeNull();
  });

  test('without a quota, the line says none', () => {
    expect(reclaimOf(tree({ ...pageout, [`${ctx}/schemes/0/quotas/bytes`]: '0' }))).toBe('DAMON (paddr) pages out memory idle ≥ 60 s');
  });
});

describe("a thread's wait for a core", () => {
  test('the schedstat line gives the wait so far (its second field, ns)', () => {
    expect(parseSchedstat('299773161573 207356151150 211701\n')).toBe(207356151150);
    expect(parseSchedstat('')).toBeNull();
    expect(parseSchedstat('12 x 3')).toBeNull();
  });

  test('the wait during an interval is the growth between the samples around it, at most', () => {
    const samples = [
      [1000, 0],
      [1001, 0],
      [1002, 3e6],
      [1050, 45e6],
      [1051, 45e6],
    ] as const;
    expect(coreWaitDuring(samples, 1001, 1050)).toBe(45);
    expect(coreWaitDuring(samples, 1001.5, 1049)).toBe(45); // the samples that bracket it
    expect(coreWaitDuring(samples, 1050, 1051)).toBe(0);
    expect(coreWaitDuring(samples, 999, 1050)).toBeNull(); // nothing before it
    expect(coreWaitDuring(samples, 1001, 1052)).toBeNull(); // nothing after it
  });
});
