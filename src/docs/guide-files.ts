// A Bun macro (imported `with { type: 'macro' }` by ./guides.ts): every docs/*.md, read when the
// code is transpiled or bundled, so the guides travel inside the executable and a new file in
// docs/ is a new page of /docs with no list to keep (docs/decisions.md).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface GuideFile {
  /** The file name without .md: the page's address, /docs/{name}. */
  name: string;
  markdown: string;
}

export function guideFiles(): GuideFile[] {
  const dir = join(import.meta.dir, '..', '..', 'docs');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => ({ name: f.slice(0, -3), markdown: readFileSync(join(dir, f), 'utf8') }));
}
