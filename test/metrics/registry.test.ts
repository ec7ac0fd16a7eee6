// The registry the floors record into (src/lib/metrics.ts) and the text it writes: read back by a
// strict reader of the format (./exposition.ts) and, where it is installed, by promtool.
import { describe, expect, test } from 'bun:test';
import { formatValue, Registry } from '../../src/lib/metrics.ts';
import { parseExposition, promtool, sampleOf } from './exposition.ts';

describe('the text format', () => {
  test('counters, gauges and histograms read back as written, labels escaped', () => {
    const r = new Registry();
    const c = r.counter('t_requests_total', 'Requests.\nSecond line \\ backslash.', ['family', 'status']);
    c.inc({ family: 'agent', status: '200' });
    c.inc({ family: 'agent', status: '200' }, 2);
    c.inc({ family: 'we"ird\\\nname', status: '404' });
    r.gauge('t_depth', 'Depth.', ['pool'], () => [[{ pool: 'scan' }, 3]]);
    const h = r.histogram('t_seconds', 'Seconds.', ['family'], [0.1, 1, 0.5]);
    for (const v of [0.05, 0.1, 0.3, 0.7, 5]) h.observe({ family: 'agent' }, v);
    const text = r.render();
    const f = parseExposition(text);
    expect(f.get('t_requests_total')).toMatchObject({ type: 'counter', help: 'Requests.\\nSecond line \\\\ backslash.' });
    expect(sampleOf(f, 't_requests_total', { family: 'agent', status: '200' })).toBe(3);
    expect(sampleOf(f, 't_requests_total', { family: 'we"ird\\\nname' })).toBe(1);
    expect(sampleOf(f, 't_depth', { pool: 'scan' })).toBe(3);
    // Buckets are cumulative, in ascending order whatever order they were given in, and end with +Inf.
    expect(
      f
        .get('t_seconds')!
        .samples.filter((s) => s.name === 't_seconds_bucket')
        .map((s) => [s.labels.le, s.value]),
    ).toEqual([
      ['0.1', 2],
      ['0.5', 3],
      ['1', 4],
      ['+Inf', 5],
    ]);
    expect(sampleOf(f, 't_seconds_count', { family: 'agent' })).toBe(5);
    expect(sampleOf(f, 't_seconds_sum', { family: 'agent' })).toBeCloseTo(6.15, 10);
    const checked = promtool(text);
    if (!checked.ran) console.log(`promtool check skipped: ${checked.why}`);
    else expect(checked.problems).toBeNull();
  });

  test('values as the format spells them', () => {
    expect([1, 0.25, 1e21, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, Number.NaN].map(formatValue)).toEqual([
      '1',
      '0.25',
      '1e+21',
      '+Inf',
      '-Inf',
      'NaN',
    ]);
  });

  test('mistakes are refused where they are made', () => {
    const r = new Registry();
    r.counter('t_total', 'x', ['a']);
    expect(() => r.counter('t_total', 'again')).toThrow('registered twice');
    expect(() => r.counter('t-bad', 'x')).toThrow('not a Prometheus name');
    expect(() => r.counter('t_le', 'x', ['le'])).toThrow('not allowed');
    const c = r.counter('t2_total', 'x', ['a']);
    expect(() => c.inc({ b: '1' })).toThrow('takes the labels a');
    expect(() => c.inc({ a: '1' }, -1)).toThrow('cannot go down');
    expect(() => r.histogram('t_h', 'x', [], [1, 1])).toThrow('distinct');
  });

  test('the reader refuses what a scraper would refuse', () => {
    const cases: [string, string][] = [
      ['x 1\n', 'no TYPE'],
      ['# TYPE x counter\nx 1\nx 2\n', 'given twice'],
      ['# TYPE x counter\nx{a="1} 1\n', 'unterminated'],
      ['# TYPE x counter\nx one\n', 'not a number'],
      ['# TYPE x counter\nx 1', 'line feed'],
      ['# TYPE h histogram\nh_bucket{le="1"} 2\nh_bucket{le="+Inf"} 1\nh_sum 1\nh_count 1\n', 'not cumulative'],
      ['# TYPE h histogram\nh_bucket{le="1"} 1\nh_sum 1\nh_count 1\n', '+Inf'],
      ['# TYPE x gauge\nx 1\n# TYPE y gauge\ny 1\nx{a="b"} 2\n', 'split'],
    ];
    for (const [text, problem] of cases) expect(() => parseExposition(text), text).toThrow(problem);
  });
});
