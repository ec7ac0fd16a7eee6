// The import graph of src/ (tests excluded) and the three rules it must keep: no cycle anywhere,
// the floors (what every domain stands on) import no domain, and no file imports another
// domain's store (a domain reads another's rows through that domain's functions, issue 38 §2). Every import counts, `import type`
// and `declare module` included: a type-only arrow is still a dependency a reader must follow.
import { readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { Glob } from 'bun';
import { isStore } from './layers.ts';

const SRC = join(import.meta.dir, '../../src');

/** The floors: the clock, the settings, the context, the database layer, the shared conventions and the worker machinery. */
export const FLOORS = ['clock.ts', 'config.ts', 'context.ts', 'db/', 'http/', 'content/', 'events/', 'lib/', 'workers/'];

export const isFloor = (path: string): boolean => FLOORS.some((f) => (f.endsWith('/') ? path.startsWith(f) : path === f));

/** The relative specifiers a source names: static imports and re-exports, dynamic imports, module augmentations. */
export function specifiers(source: string): string[] {
  const found: string[] = [];
  const patterns = [
    /^\s*(?:import|export)\s[\s\S]*?\sfrom\s+['"](\.[^'"]+)['"]/gm,
    /^\s*import\s+['"](\.[^'"]+)['"]/gm,
    /\bimport\(\s*['"](\.[^'"]+)['"]\s*\)/g,
    /^\s*declare\s+module\s+['"](\.[^'"]+)['"]/gm,
  ];
  for (const re of patterns) for (const m of source.matchAll(re)) found.push(m[1]!);
  return found;
}

export type Graph = Map<string, Set<string>>;

/** Edges between .ts files of `files` (path → source), paths relative to src/. Other files (schema .sql, json) are leaves and left out. */
export function importGraph(files: ReadonlyMap<string, string>): Graph {
  const graph: Graph = new Map();
  for (const [path, source] of files) {
    const to = new Set<string>();
    for (const spec of specifiers(source)) {
      const target = normalize(join(dirname(path), spec));
      if (files.has(target) && target !== path) to.add(target);
    }
    graph.set(path, to);
  }
  return graph;
}

export function srcFiles(): Map<string, string> {
  const files = new Map<string, string>();
  for (const path of [...new Glob('**/*.ts').scanSync(SRC)].sort()) files.set(path, readFileSync(join(SRC, path), 'utf8'));
  return files;
}

/** Each cycle as one chain `a → b → … → a` (one per strongly connected component, Tarjan). */
export function cycles(graph: Graph): string[] {
  let index = 0;
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (v: string) => {
    order.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!order.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, order.get(w)!));
    }
    if (low.get(v) === order.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) components.push(component);
    }
  };
  for (const v of graph.keys()) if (!order.has(v)) visit(v);
  return components.map((c) => chainWithin(graph, new Set(c), [...c].sort()[0]!));
}

/** A shortest path from `start` back to itself inside `members` (breadth first), printed as a chain. */
function chainWithin(graph: Graph, members: Set<string>, start: string): string {
  const prev = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift()!;
    for (const w of graph.get(v) ?? []) {
      if (!members.has(w)) continue;
      if (w === start) {
        const path = [v];
        for (let at = v; at !== start; ) {
          at = prev.get(at)!;
          path.unshift(at);
        }
        return `${[...path, start].join(' → ')} (${members.size} files in the cycle)`;
      }
      if (!prev.has(w)) {
        prev.set(w, v);
        queue.push(w);
      }
    }
  }
  return start;
}

/** Every arrow from a floor to a file outside the floors, as `floor → domain file`. */
export function floorBreaches(graph: Graph): string[] {
  const out: string[] = [];
  for (const [from, to] of graph) if (isFloor(from)) for (const target of to) if (!isFloor(target)) out.push(`${from} → ${target}`);
  return out.sort();
}

/** The domain of a file: its folder under src/ (null for a file of src/ itself: the root, the clock, the settings). */
export const domainOf = (path: string): string | null => (path.includes('/') ? path.slice(0, path.indexOf('/')) : null);

/**
 * Every import of a domain's store (`store.ts`, `<name>-store.ts`: the only modules holding SQL)
 * from a file outside that domain, as `file → store`; a type-only import counts too (the domain's
 * functions file re-exports the row types another domain needs).
 */
export function foreignStoreImports(graph: Graph): string[] {
  const out: string[] = [];
  for (const [from, to] of graph) for (const target of to) if (isStore(target) && domainOf(target) !== domainOf(from)) out.push(`${from} → ${target}`);
  return out.sort();
}
