// Elysia answers an unknown method on a known path as "not found"; the spec wants 405 with the
// methods the path does take, so the registered routes are matched here by their path patterns.

import { getOrSet } from '../lib/maps.ts';
interface RouteLike {
  method: string;
  path: string;
}

export class MethodIndex {
  private patterns: { re: RegExp; methods: Set<string> }[] | null = null;
  constructor(private readonly routes: () => readonly RouteLike[]) {}

  allowed(path: string): string[] {
    if (!this.patterns) this.patterns = this.build();
    const out = new Set<string>();
    for (const p of this.patterns) if (p.re.test(path)) for (const m of p.methods) out.add(m);
    return [...out].sort();
  }

  private build() {
    const byPath = new Map<string, Set<string>>();
    for (const r of this.routes()) {
      if (r.method === 'ALL') continue;
      const set = getOrSet(byPath, r.path, () => new Set<string>());
      set.add(r.method);
      if (r.method === 'GET') set.add('HEAD');
    }
    return [...byPath].map(([path, methods]) => ({
      re: new RegExp(
        `^${path
          .split('/')
          .map((seg) => (seg.startsWith(':') ? '[^/]+' : seg === '*' ? '.*' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
          .join('/')}/?$`,
      ),
      methods,
    }));
  }
}
