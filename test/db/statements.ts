// Counts the statements a piece of work runs, with the rows each answered: every statement
// prepared after this module is loaded, whichever store built it. (bun:sqlite gives each statement
// its own get/all/run methods, so they are wrapped as statements are made.) The tests that a
// request's cost does not grow with the board compare these logs between a small and a large board.
import { Database } from 'bun:sqlite';

export interface StatementRun {
  sql: string;
  rows: number;
  /** The parameters it ran with (positional), so a test can replay it (test/db/vm-steps.ts). */
  params: unknown[];
}

const METHODS = ['get', 'all', 'run', 'values', 'iterate'] as const;
let active: StatementRun[] | null = null;
const wrapped = new WeakSet<object>();

function wrap<S extends object>(st: S, sql: string): S {
  if (wrapped.has(st)) return st;
  wrapped.add(st);
  const methods = st as unknown as Record<string, (...a: unknown[]) => unknown>;
  for (const m of METHODS) {
    const orig = methods[m]!;
    methods[m] = (...a: unknown[]) => {
      const r = orig.apply(st, a);
      const log = active;
      if (!log) return r;
      const entry = { sql, rows: Array.isArray(r) ? r.length : m === 'run' || r == null ? 0 : 1, params: a };
      log.push(entry);
      if (m !== 'iterate') return r;
      entry.rows = 0;
      return (function* () {
        for (const row of r as Iterable<unknown>) {
          entry.rows++;
          yield row;
        }
      })();
    };
  }
  return st;
}

const proto = Database.prototype as unknown as Record<string, (...a: unknown[]) => object>;
for (const name of ['query', 'prepare']) {
  const orig = proto[name]!;
  proto[name] = function (this: Database, ...a: unknown[]) {
    return wrap(orig.apply(this, a), String(a[0]));
  };
}

/** Runs `fn` (awaited) and answers the statements it ran, in order. */
export async function statementsOf(fn: () => unknown): Promise<StatementRun[]> {
  const log: StatementRun[] = [];
  active = log;
  try {
    await fn();
  } finally {
    active = null;
  }
  return log;
}
