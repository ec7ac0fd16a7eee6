// The layering rules of src/, checked on the source text (issue 13 §3): SQL runs only in stores
// and the database layer, "live" is written only in src/db/live.ts, and a store imports nothing
// but the database layer, types and other stores.
import { Glob } from 'bun';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const SRC = join(import.meta.dir, '../../src');

// Folders another team is building right now, left out until they land (none now: all of src/ is checked).
export const NOT_YET_CHECKED: string[] = [];

// Process entry points that act on the database file as a whole (the backup's VACUUM INTO, the
// WAL checkpoint at shutdown): database-layer work that lives beside the process it belongs to.
export const WHOLE_DATABASE = ['main.ts', 'server.ts'];

/** A store: `store.ts` or `<name>-store.ts`. */
export const isStore = (path: string): boolean => /(^|\/)([\w-]+-)?store\.ts$/.test(path);
/** The database layer: src/db/, which may run SQL of its own (migrations, pragmas, transactions). */
export const isDbLayer = (path: string): boolean => path.startsWith('db/');

export interface Finding {
  line: number;
  text: string;
}

function findLines(source: string, re: RegExp): Finding[] {
  return source.split('\n').flatMap((text, i) => (re.test(text) ? [{ line: i + 1, text: text.trim() }] : []));
}

// Database methods that run SQL (a Statement's own run/get/all are fine: the store prepared it).
const RUNS_SQL = /\.(query|prepare)\s*[<(]|\bdb\s*\.\s*(run|exec)\s*\(/;
// SQL statement text: what a module builds to hand to a database.
const SQL_TEXT = /\b(SELECT|INSERT (OR \w+ )?INTO|UPDATE \w+ SET|DELETE FROM)\b/;
// A condition on deletion, in any case or spacing: it belongs to src/db/live.ts.
const LIVENESS = /deleted_at\s+is\s+(not\s+)?null/i;

/** Lines that run SQL on a database. */
export const sqlRuns = (source: string): Finding[] => findLines(source, RUNS_SQL);
/** Lines holding SQL statement text. */
export const sqlText = (source: string): Finding[] => findLines(source, SQL_TEXT);
/** Lines that open a database connection themselves (src/db/open.ts opens every one). */
export const connectionOpens = (source: string): Finding[] => findLines(source, /\bnew Database\s*\(/);
/** Lines that restate whether a row is deleted. */
export const livenessConditions = (source: string): Finding[] => findLines(source, LIVENESS);

/** The module specifiers a file imports values from (`import type` and all-type lists left out). */
export function valueImports(source: string): string[] {
  const found: string[] = [];
  for (const m of source.matchAll(/^(?:import|export)\s+(type\s+)?([\s\S]*?)\s*from\s+['"]([^'"]+)['"]/gm)) {
    const [, typeOnly, names = '', spec = ''] = m;
    if (typeOnly) continue;
    const list = /^\{([\s\S]*)\}$/.exec(names.trim());
    const allTypes = list?.[1]?.split(',').every((n) => n.trim() === '' || /^type\s/.test(n.trim()));
    if (!allTypes) found.push(spec);
  }
  for (const m of source.matchAll(/^import\s+['"]([^'"]+)['"]/gm)) found.push(m[1]!);
  return found;
}

/** What a store may import values from: bun:sqlite, the database layer, other stores. */
export function storeMayImport(storePath: string, spec: string): boolean {
  if (spec === 'bun:sqlite') return true;
  if (!spec.startsWith('.')) return false;
  const target = join(SRC, storePath, '..', spec).slice(SRC.length + 1);
  return isDbLayer(target) || isStore(target);
}

/** The checked source files of src/, relative to it, with their text. */
export function sources(): { path: string; source: string }[] {
  return [...new Glob('**/*.ts').scanSync(SRC)]
    .filter((p) => !NOT_YET_CHECKED.some((d) => p.startsWith(d)))
    .sort()
    .map((path) => ({ path, source: readFileSync(join(SRC, path), 'utf8') }));
}
