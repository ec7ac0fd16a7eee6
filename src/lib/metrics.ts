// Counters, gauges and histograms for GET /metrics, written in the Prometheus text format (0.0.4).
// The floors record into the process's one registry (PROCESS_METRICS): the HTTP conventions count
// requests, group commit its batches, the worker pools their queues and jobs, the public cache its
// hits. What only a domain knows (held waits, the outreach queue, job runs, file sizes) is read
// when /metrics is asked (src/metrics/), into a registry made for that answer. No package: the
// format is a few lines of text, and prom-client's default collectors report V8 figures that mean
// little under Bun (docs/operations.md, "Metrics and health").

export type Labels = Readonly<Record<string, string>>;

type Kind = 'counter' | 'gauge' | 'histogram';

/** Prometheus metric and label names. */
const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

/** A label value inside its quotes: backslash, double quote and line feed escaped. */
const escapeLabel = (value: string): string => value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
/** HELP text: backslash and line feed escaped. */
const escapeHelp = (text: string): string => text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');

/** A sample value as the format writes it (+Inf, -Inf, NaN, or the shortest decimal). */
export function formatValue(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (n === Number.POSITIVE_INFINITY) return '+Inf';
  if (n === Number.NEGATIVE_INFINITY) return '-Inf';
  return String(n);
}

function labelText(names: readonly string[], values: readonly string[], extra?: [string, string]): string {
  const parts = names.map((n, i) => `${n}="${escapeLabel(values[i]!)}"`);
  if (extra) parts.push(`${extra[0]}="${escapeLabel(extra[1])}"`);
  return parts.length ? `{${parts.join(',')}}` : '';
}

abstract class Metric {
  constructor(
    readonly name: string,
    readonly help: string,
    readonly labelNames: readonly string[],
    readonly kind: Kind,
  ) {
    if (!NAME.test(name)) throw new Error(`metric name ${name} is not a Prometheus name`);
    for (const l of labelNames) if (!LABEL.test(l) || l.startsWith('__') || l === 'le') throw new Error(`label ${l} of ${name} is not allowed`);
  }

  /**
   * The series key of a label set (its values in declared order, joined), checked: a missing or
   * unknown label is a programming error. Recording is on every request's path: no allocation
   * beyond the key itself.
   */
  protected keyOf(labels: Labels | undefined): string {
    const names = this.labelNames;
    if (labels === undefined) {
      if (names.length === 0) return '';
      throw this.wrongLabels(labels);
    }
    let key = '';
    let given = 0;
    for (const k in labels) {
      given++;
      if (!names.includes(k)) throw this.wrongLabels(labels);
    }
    if (given !== names.length) throw this.wrongLabels(labels);
    for (let i = 0; i < names.length; i++) key += i === 0 ? String(labels[names[i]!]) : `\u0000${String(labels[names[i]!])}`;
    return key;
  }

  /** The label values of a series key, in declared order. */
  protected valuesOfKey(key: string): string[] {
    return this.labelNames.length === 0 ? [] : key.split('\u0000');
  }

  private wrongLabels(labels: Labels | undefined): Error {
    return new Error(`${this.name} takes the labels ${this.labelNames.join(', ') || '(none)'}, got ${Object.keys(labels ?? {}).join(', ') || '(none)'}`);
  }

  protected header(): string[] {
    return [`# HELP ${this.name} ${escapeHelp(this.help)}`, `# TYPE ${this.name} ${this.kind}`];
  }

  abstract lines(): string[];
}

/** One number per label set, optionally refreshed from `collect` each time the registry is written out. */
abstract class SingleValued extends Metric {
  private readonly values = new Map<string, { labels: string[]; value: number }>();

  constructor(
    name: string,
    help: string,
    labelNames: readonly string[],
    kind: Kind,
    private readonly collect?: () => Iterable<[Labels, number]>,
  ) {
    super(name, help, labelNames, kind);
  }

  /** The current value of one series (0 before it was first given one). */
  get(labels?: Labels): number {
    return this.values.get(this.keyOf(labels))?.value ?? 0;
  }

  protected put(labels: Labels | undefined, value: (have: number) => number): void {
    const series = this.seriesOf(labels);
    series.value = value(series.value);
  }

  /** One series' record, made on first use (it is then written out, 0 until it is given a value). */
  protected seriesOf(labels: Labels | undefined): { labels: string[]; value: number } {
    const key = this.keyOf(labels);
    let series = this.values.get(key);
    if (!series) {
      series = { labels: this.valuesOfKey(key), value: 0 };
      this.values.set(key, series);
    }
    return series;
  }

  lines(): string[] {
    if (this.collect) for (const [labels, value] of this.collect()) this.put(labels, () => value);
    return [...this.header(), ...[...this.values.values()].map((s) => `${this.name}${labelText(this.labelNames, s.labels)} ${formatValue(s.value)}`)];
  }
}

/** A value that only goes up (requests, jobs, failures); or a total read from `collect` when written out. */
export class Counter extends SingleValued {
  constructor(name: string, help: string, labelNames: readonly string[] = [], collect?: () => Iterable<[Labels, number]>) {
    super(name, help, labelNames, 'counter', collect);
  }

  inc(labels?: Labels, by = 1): void {
    if (!(by >= 0)) throw new Error(`${this.name} cannot go down (${by})`);
    this.put(labels, (have) => have + by);
  }

  /** One series bound once, for a hot path: inc() without looking the labels up again. */
  bind(labels?: Labels): { inc(): void } {
    const series = this.seriesOf(labels);
    return {
      inc: () => {
        series.value++;
      },
    };
  }
}

/** A value that goes up and down: set directly, or read from `collect` when the registry is written out. */
export class Gauge extends SingleValued {
  constructor(name: string, help: string, labelNames: readonly string[] = [], collect?: () => Iterable<[Labels, number]>) {
    super(name, help, labelNames, 'gauge', collect);
  }

  set(labels: Labels | undefined, value: number): void {
    this.put(labels, () => value);
  }
}

interface HistogramSeries {
  labels: string[];
  counts: number[]; // per bucket, not cumulative; the last is +Inf
  sum: number;
  count: number;
}

/** Observations counted into upper-bounded buckets (latencies, batch sizes). */
export class Histogram extends Metric {
  private readonly series = new Map<string, HistogramSeries>();
  readonly buckets: readonly number[];

  constructor(name: string, help: string, labelNames: readonly string[], buckets: readonly number[]) {
    super(name, help, labelNames, 'histogram');
    const sorted = [...buckets].sort((a, b) => a - b);
    if (!sorted.length || sorted.some((b, i) => !Number.isFinite(b) || (i > 0 && b === sorted[i - 1])))
      throw new Error(`${name}: buckets must be distinct finite numbers`);
    this.buckets = sorted;
  }

  observe(labels: Labels | undefined, value: number): void {
    this.record(this.seriesOf(labels), value);
  }

  /** One series bound once, for a hot path: observe() without looking the labels up again. */
  bind(labels?: Labels): { observe(value: number): void } {
    const series = this.seriesOf(labels);
    return { observe: (value) => this.record(series, value) };
  }

  private seriesOf(labels: Labels | undefined): HistogramSeries {
    const key = this.keyOf(labels);
    let s = this.series.get(key);
    if (!s) {
      s = { labels: this.valuesOfKey(key), counts: new Array(this.buckets.length + 1).fill(0), sum: 0, count: 0 };
      this.series.set(key, s);
    }
    return s;
  }

  private record(s: HistogramSeries, value: number): void {
    if (Number.isNaN(value)) return;
    let i = 0;
    while (i < this.buckets.length && value > this.buckets[i]!) i++;
    s.counts[i]!++;
    s.sum += value;
    s.count++;
  }

  /** Observations of one series so far. */
  count(labels?: Labels): number {
    return this.series.get(this.keyOf(labels))?.count ?? 0;
  }

  lines(): string[] {
    const out = this.header();
    for (const s of this.series.values()) {
      let running = 0;
      this.buckets.forEach((b, i) => {
        running += s.counts[i]!;
        out.push(`${this.name}_bucket${labelText(this.labelNames, s.labels, ['le', formatValue(b)])} ${running}`);
      });
      out.push(`${this.name}_bucket${labelText(this.labelNames, s.labels, ['le', '+Inf'])} ${s.count}`);
      out.push(`${this.name}_sum${labelText(this.labelNames, s.labels)} ${formatValue(s.sum)}`);
      out.push(`${this.name}_count${labelText(this.labelNames, s.labels)} ${s.count}`);
    }
    return out;
  }
}

/** Seconds: from a millisecond to two minutes (a held wait answers within 90 s). */
export const SECONDS_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120] as const;

/** A set of metrics written out together, each name once. */
export class Registry {
  private readonly metrics = new Map<string, Metric>();

  private add<M extends Metric>(metric: M): M {
    if (this.metrics.has(metric.name)) throw new Error(`metric ${metric.name} is registered twice`);
    this.metrics.set(metric.name, metric);
    return metric;
  }

  counter(name: string, help: string, labelNames: readonly string[] = [], collect?: () => Iterable<[Labels, number]>): Counter {
    return this.add(new Counter(name, help, labelNames, collect));
  }

  gauge(name: string, help: string, labelNames: readonly string[] = [], collect?: () => Iterable<[Labels, number]>): Gauge {
    return this.add(new Gauge(name, help, labelNames, collect));
  }

  histogram(name: string, help: string, labelNames: readonly string[], buckets: readonly number[]): Histogram {
    return this.add(new Histogram(name, help, labelNames, buckets));
  }

  has(name: string): boolean {
    return this.metrics.has(name);
  }

  /** The registry in the text format, ending with a line feed. */
  render(): string {
    const lines = [...this.metrics.values()].flatMap((m) => m.lines());
    return lines.length ? `${lines.join('\n')}\n` : '';
  }
}

/** The process's registry: what the floors record into. */
export const PROCESS_METRICS = new Registry();

/** The media type of the text format. */
export const METRICS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

// The process itself, as Bun reports it (real figures, not V8's).
PROCESS_METRICS.gauge('process_start_time_seconds', 'When the process started, in seconds since the Unix epoch.', [], () => [
  [{}, Math.round(performance.timeOrigin / 1000)],
]);
PROCESS_METRICS.gauge('process_resident_memory_bytes', 'Resident memory of the process, in bytes.', [], () => [[{}, process.memoryUsage().rss]]);
PROCESS_METRICS.gauge('process_heap_bytes', 'JavaScript heap in use, in bytes.', [], () => [[{}, process.memoryUsage().heapUsed]]);
PROCESS_METRICS.counter('process_cpu_seconds_total', 'User and system CPU time of the process, in seconds.', [], () => {
  const { user, system } = process.cpuUsage();
  return [[{}, (user + system) / 1e6]];
});
