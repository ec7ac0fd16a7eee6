// The bench harness's judgement (bench/harness.ts): when a round may be judged, the spread, the
// rotation of peers, the verdicts and the parsing of what wrk and /proc print.
import { describe, expect, test } from 'bun:test';
import { judgeRound, list, parseProcStat, parseStatuses, rotation, spread, verdict } from '../../bench/harness.ts';
import { parseWrk } from '../../bench/wrk.ts';

const quiet = { window_s: 5, completed: 50_000, server_cpu_us: 5_000_000, generator_cpu_pct: 40, generator_threads: 1, helpers_cpu_us: 0 };

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
    expect(parseStatuses('no line')).toBeNull();
  });

  test('BENCH_SIZES and BENCH_ONLY lists', () => {
    expect(list(' 10K, 1m ,,', '10k')).toEqual(['10k', '1m']);
    expect(list(undefined, '10k')).toEqual(['10k']);
  });
});
