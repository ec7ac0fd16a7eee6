// package.json's engines.node names the Node versions `npm ci` installs this lock with no EBADENGINE
// warning: every version it admits satisfies the engines of every locked package, and it leaves out
// no version that would (checked at every version boundary any range names).
import { describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dir, '../..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines?: { node?: string } };
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { engines?: { node?: string } | string[] }> };

/** Every engines.node range of the lock, with the packages that state it. */
function lockRanges(): Map<string, string[]> {
  const ranges = new Map<string, string[]>();
  for (const [path, p] of Object.entries(lock.packages)) {
    const node = !Array.isArray(p.engines) ? p.engines?.node : undefined;
    if (path && typeof node === 'string') ranges.set(node, [...(ranges.get(node) ?? []), path.replace(/^.*node_modules\//, '')]);
  }
  return ranges;
}

/** Versions at and around every boundary the ranges name, and every major from 0 to 40. */
function candidates(texts: string[]): string[] {
  const out = new Set<string>();
  for (let major = 0; major <= 40; major++) for (const v of [`${major}.0.0`, `${major}.999.999`]) out.add(v);
  for (const t of texts) {
    for (const m of t.matchAll(/(\d+)\.(\d+)\.(\d+)/g)) {
      const [x, y, z] = [Number(m[1]), Number(m[2]), Number(m[3])];
      for (const v of [
        [x, y, z],
        [x, y, z + 1],
        [x, y, Math.max(0, z - 1)],
        [x, Math.max(0, y - 1), 999],
        [x, y + 1, 0],
      ])
        out.add(v.join('.'));
    }
  }
  return [...out];
}

describe('engines.node', () => {
  test('admits exactly the Node versions every locked package accepts', () => {
    const engines = pkg.engines?.node;
    expect(engines, 'package.json has no engines.node').toBeString();
    const ranges = lockRanges();
    const all = [...ranges.keys()];
    const versions = candidates([engines!, ...all]);
    const refusedBy = (v: string) => all.filter((r) => !Bun.semver.satisfies(v, r));
    const warned = versions.filter((v) => Bun.semver.satisfies(v, engines!) && refusedBy(v).length);
    expect(
      warned.map(
        (v) =>
          `${v}: ${refusedBy(v)
            .map((r) => `${r} (${ranges.get(r)!.join(', ')})`)
            .join('; ')}`,
      ),
    ).toEqual([]);
    const leftOut = versions.filter((v) => !Bun.semver.satisfies(v, engines!) && refusedBy(v).length === 0);
    expect(leftOut).toEqual([]);
  });
});
