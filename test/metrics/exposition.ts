// A strict reader of the Prometheus text format (0.0.4) for the metrics tests: it refuses what a
// scraper would refuse or misread (a sample before its TYPE, a family split in two, a series given
// twice, a bad label or value, histogram buckets that are not cumulative or miss +Inf), and returns
// the samples by family. `promtool check metrics` (Debian's prometheus package) checks the same text
// where it is installed.

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Family {
  name: string;
  type: 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';
  help: string;
  samples: Sample[];
}

const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const SAMPLE = new RegExp(`^(${NAME})(\\{(.*)\\})? (\\S+)$`);

function parseValue(raw: string, where: string): number {
  if (raw === '+Inf') return Number.POSITIVE_INFINITY;
  if (raw === '-Inf') return Number.NEGATIVE_INFINITY;
  if (raw === 'NaN') return Number.NaN;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(raw)) throw new Error(`${where}: value ${raw} is not a number`);
  return Number(raw);
}

function parseLabels(raw: string, where: string): Record<string, string> {
  const labels: Record<string, string> = {};
  let i = 0;
  while (i < raw.length) {
    const m = /^([a-zA-Z_][a-zA-Z0-9_]*)="/.exec(raw.slice(i));
    if (!m) throw new Error(`${where}: bad label at ${raw.slice(i)}`);
    const name = m[1]!;
    i += m[0].length;
    let value = '';
    for (;;) {
      const c = raw[i];
      if (c === undefined) throw new Error(`${where}: unterminated label ${name}`);
      if (c === '"') break;
      if (c === '\n') throw new Error(`${where}: raw line feed in label ${name}`);
      if (c === '\\') {
        const n = raw[i + 1];
        if (n === 'n') value += '\n';
        else if (n === '\\' || n === '"') value += n;
        else throw new Error(`${where}: bad escape \\${n} in label ${name}`);
        i += 2;
        continue;
      }
      value += c;
      i++;
    }
    i++; // the closing quote
    if (name in labels) throw new Error(`${where}: label ${name} given twice`);
    labels[name] = value;
    if (raw[i] === ',') i++;
    else if (i !== raw.length) throw new Error(`${where}: expected , after label ${name}`);
  }
  return labels;
}

/** The family a sample name belongs to. */
function familyOf(name: string, families: Map<string, Family>): Family | undefined {
  for (const suffix of ['_bucket', '_sum', '_count', '']) {
    if (!name.endsWith(suffix)) continue;
    const f = families.get(name.slice(0, name.length - suffix.length));
    if (f && (suffix === '' ? f.type !== 'histogram' : f.type === 'histogram' || (f.type === 'summary' && suffix !== '_bucket'))) return f;
  }
  return undefined;
}

function checkHistogram(f: Family): void {
  const series = new Map<string, Sample[]>();
  const key = (s: Sample) =>
    JSON.stringify(
      Object.entries(s.labels)
        .filter(([k]) => k !== 'le')
        .sort(),
    );
  for (const s of f.samples) series.set(key(s), [...(series.get(key(s)) ?? []), s]);
  for (const [labels, samples] of series) {
    const buckets = samples.filter((s) => s.name === `${f.name}_bucket`);
    const count = samples.find((s) => s.name === `${f.name}_count`);
    const sum = samples.find((s) => s.name === `${f.name}_sum`);
    if (!count || !sum) throw new Error(`${f.name}${labels}: _sum or _count missing`);
    const les = buckets.map((b) => parseValue(b.labels.le ?? '', `${f.name} le`));
    if (les.at(-1) !== Number.POSITIVE_INFINITY) throw new Error(`${f.name}${labels}: no +Inf bucket last`);
    for (let i = 1; i < buckets.length; i++) {
      if (!(les[i]! > les[i - 1]!)) throw new Error(`${f.name}${labels}: le not ascending`);
      if (buckets[i]!.value < buckets[i - 1]!.value) throw new Error(`${f.name}${labels}: buckets not cumulative`);
    }
    if (buckets.at(-1)!.value !== count.value) throw new Error(`${f.name}${labels}: +Inf bucket ${buckets.at(-1)!.value} ≠ count ${count.value}`);
  }
}

/** Parses `text`, or throws naming the first line that breaks the format. */
export function parseExposition(text: string): Map<string, Family> {
  if (!text.endsWith('\n')) throw new Error('the text does not end with a line feed');
  const families = new Map<string, Family>();
  const seen = new Set<string>();
  let current: Family | undefined;
  const closed = new Set<string>();
  text
    .slice(0, -1)
    .split('\n')
    .forEach((line, n) => {
      const where = `line ${n + 1}`;
      const help = new RegExp(`^# HELP (${NAME}) (.*)$`).exec(line);
      const type = new RegExp(`^# TYPE (${NAME}) (counter|gauge|histogram|summary|untyped)$`).exec(line);
      if (help || type) {
        const name = (help ?? type)![1]!;
        let f = families.get(name);
        if (!f) {
          if (current) closed.add(current.name);
          f = { name, type: 'untyped', help: '', samples: [] };
          families.set(name, f);
          current = f;
        } else if (f !== current || f.samples.length) throw new Error(`${where}: ${name} described again`);
        if (help) f.help = help[2]!;
        else f.type = type![2] as Family['type'];
        return;
      }
      if (line.startsWith('#')) return; // a comment
      const m = SAMPLE.exec(line);
      if (!m) throw new Error(`${where}: not a sample: ${line}`);
      const f = familyOf(m[1]!, families);
      if (!f) throw new Error(`${where}: ${m[1]} has no TYPE before it`);
      if (f !== current || closed.has(f.name)) throw new Error(`${where}: ${f.name} is split`);
      const sample = { name: m[1]!, labels: parseLabels(m[3] ?? '', where), value: parseValue(m[4]!, where) };
      const id = `${sample.name}${JSON.stringify(Object.entries(sample.labels).sort())}`;
      if (seen.has(id)) throw new Error(`${where}: series ${id} given twice`);
      seen.add(id);
      f.samples.push(sample);
    });
  for (const f of families.values()) if (f.type === 'histogram') checkHistogram(f);
  return families;
}

/** The value of the one sample of `name` whose labels include `labels`; throws when there is none or several. */
export function sampleOf(families: Map<string, Family>, name: string, labels: Record<string, string> = {}): number {
  const all = [...families.values()].flatMap((f) => f.samples);
  const found = all.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  if (found.length !== 1) throw new Error(`${found.length} samples of ${name} ${JSON.stringify(labels)}`);
  return found[0]!.value;
}

/** `promtool check metrics` on `text`: null when it passes, its complaint when not, or a reason it did not run. */
export function promtool(text: string): { ran: false; why: string } | { ran: true; problems: string | null } {
  const which = Bun.which('promtool');
  if (!which) return { ran: false, why: 'promtool is not installed (apt-get install prometheus)' };
  const p = Bun.spawnSync([which, 'check', 'metrics'], { stdin: new TextEncoder().encode(text), stdout: 'pipe', stderr: 'pipe' });
  const out = `${p.stdout.toString()}${p.stderr.toString()}`.trim();
  return { ran: true, problems: p.exitCode === 0 ? null : out || `exit ${p.exitCode}` };
}
