// The bench harness's judgement (bench/harness.ts): when a round may be judged, the spread, the
// rotation of peers, the verdicts and the parsing of what wrk and /proc print.
import { describe, expect, test } from 'bun:test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  coreWaitDuring,
  failedAnswers,
  judgeRound,
  list,
  MIN_PROBES,
  pairedDifference,
  parseBodyBytes,
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
