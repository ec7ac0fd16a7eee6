// The direction of the arrows in src/ (issue 25): no import cycle anywhere, the floors (clock,
// config, context, db/, http/, content/, events/, lib/) import no domain, and no file imports
// another domain's store (issue 38 §2). Checked on the real tree, and on small made-up trees so
// that each rule is seen to fail when it should.
import { describe, expect, test } from 'bun:test';
import { cycles, domainOf, floorBreaches, foreignStoreImports, importGraph, isFloor, specifiers, srcFiles } from './structure.ts';

const tree = (files: Record<string, string>) => importGraph(new Map(Object.entries(files)));

describe('the real tree', () => {
  const files = srcFiles();
  const graph = importGraph(files);

  test('reads the whole of src/, the composition root and the floors included', () => {
    expect(files.size).toBeGreaterThan(200);
    for (const path of ['compose.ts', 'context.ts', 'config.ts', 'http/errors.ts', 'pubs/domain.ts']) expect(files.has(path)).toBe(true);
    // The root reaches every domain; the context reaches none.
    expect([...graph.get('compose.ts')!].filter((p) => p.endsWith('/domain.ts')).length).toBeGreaterThan(20);
    expect([...graph.get('context.ts')!].every(isFloor)).toBe(true);
  });

  test('has no import cycle', () => {
    expect(cycles(graph)).toEqual([]);
  });

  test('no floor imports a domain (context, config, clock, db/, http/, content/, events/, lib/)', () => {
    expect(floorBreaches(graph)).toEqual([]);
  });

  test("no file imports another domain's store: it reads that domain's rows through the domain's functions", () => {
    // The stores are there to be imported: within their domains.
    expect([...graph.entries()].filter(([from, to]) => from.startsWith('mcp/') && to.has('mcp/store.ts')).length).toBeGreaterThan(3);
    expect(foreignStoreImports(graph)).toEqual([]);
  });
});

describe('the rules on made-up trees', () => {
  test('a cycle is found and printed as its chain, however it is made (value, type, augmentation, dynamic import)', () => {
    const found = cycles(
      tree({
        'context.ts': "import { serviceParts } from './compose.ts';",
        'compose.ts': "import { PUBS } from './pubs/domain.ts';",
        'pubs/domain.ts': "import type { Domain } from '../context.ts';",
        'a/x.ts': "declare module '../b/y.ts' {}",
        'b/y.ts': "const z = await import('../a/x.ts');",
        'c/ok.ts': "import { z } from '../b/y.ts';",
      }),
    );
    expect(found.sort()).toEqual([
      'a/x.ts → b/y.ts → a/x.ts (2 files in the cycle)',
      'compose.ts → pubs/domain.ts → context.ts → compose.ts (3 files in the cycle)',
    ]);
  });

  test('a tree whose arrows point one way has none', () => {
    expect(
      cycles(tree({ 'compose.ts': "import '../pubs/domain.ts';", 'pubs/domain.ts': "import type { Domain } from '../context.ts';", 'context.ts': '' })),
    ).toEqual([]);
  });

  test('a floor that imports a domain, even only a type, is a breach; a domain importing a floor is not', () => {
    const graph = tree({
      'http/errors.ts': "import { PUBS_CODES } from '../pubs/codes.ts';",
      'config.ts': "import type { PubsSettings } from './pubs/settings.ts';",
      'pubs/codes.ts': "import type { CodeInfo } from '../http/errors.ts';",
      'pubs/settings.ts': "import { int } from '../config.ts';",
      'http/plugin.ts': "import { ApiError } from './errors.ts';",
    });
    expect(floorBreaches(graph)).toEqual(['config.ts → pubs/settings.ts', 'http/errors.ts → pubs/codes.ts']);
  });

  test("another domain's store, imported in any form (a value, a type, a re-export, dynamically, from a store), is printed as the import", () => {
    const graph = tree({
      'accounts/store.ts': '',
      'accounts/accounts.ts': "import { accountStore } from './store.ts';\nexport type { AccountRow } from './store.ts';",
      'board/removal-store.ts': '',
      'board/find.ts': "import { removalStore } from './removal-store.ts';",
      'lab/pages/pages.ts': "import { accountStore } from '../../accounts/store.ts';",
      'office/office.ts': "import type { AccountRow } from '../accounts/store.ts';\nimport { crewShiftCounts } from '../accounts/accounts.ts';",
      'mcp/oauth.ts': "const { accountStore } = await import('../accounts/store.ts');",
      'mcp/store.ts': "import type { AccountRow } from '../accounts/store.ts';",
      'admin/console/pages.ts': "export { removalStore } from '../../board/removal-store.ts';",
      'admin/console/passkey-store.ts': '',
      'admin/console/passkeys.ts': "import { passkeyStore } from './passkey-store.ts';",
      'compose.ts': "import { accountStore } from './accounts/store.ts';",
    });
    expect(foreignStoreImports(graph)).toEqual([
      'admin/console/pages.ts → board/removal-store.ts',
      'compose.ts → accounts/store.ts',
      'lab/pages/pages.ts → accounts/store.ts',
      'mcp/oauth.ts → accounts/store.ts',
      'mcp/store.ts → accounts/store.ts',
      'office/office.ts → accounts/store.ts',
    ]);
    expect([domainOf('admin/console/passkey-store.ts'), domainOf('compose.ts')]).toEqual(['admin', null]);
  });

  test('specifiers are read from every import form, multi-line ones included; packages are not files', () => {
    const source = [
      "import {\n  a,\n  b,\n} from './one.ts';",
      "import type { T } from '../two.ts';",
      "export { c } from './three.ts';",
      "import './four.ts';",
      "const m = await import('./five.ts');",
      "declare module '../six.ts' {\n  interface X {}\n}",
      "import { Elysia } from 'elysia';",
    ].join('\n');
    expect(specifiers(source).sort()).toEqual(['../six.ts', '../two.ts', './five.ts', './four.ts', './one.ts', './three.ts']);
  });
});
