// Issue 13 §4: accounts is a base domain. /v1/me is composed in src/me from the account, the
// voting state, the pin and the promotion, so src/accounts imports none of those domains.
import { describe, expect, test } from 'bun:test';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const SRC = join(import.meta.dir, '../../src');

/** The domains (top-level folders of src) that the files of `folder` import from. */
function importedDomains(folder: string): Set<string> {
  const out = new Set<string>();
  for (const file of readdirSync(join(SRC, folder)).filter((f) => f.endsWith('.ts'))) {
    const text = readFileSync(join(SRC, folder, file), 'utf8');
    for (const m of text.matchAll(/\bfrom\s+['"]\.\.\/([\w-]+)\//g)) out.add(m[1]!);
    for (const m of text.matchAll(/\bimport\(\s*['"]\.\.\/([\w-]+)\//g)) out.add(m[1]!);
  }
  return out;
}

const COMPOSED = ['votes', 'pins', 'leaderboard'];

describe('accounts depends on none of the domains /v1/me composes', () => {
  test.each([...COMPOSED, 'me'])('src/accounts imports nothing from src/%s', (domain) => {
    expect(importedDomains('accounts').has(domain)).toBe(false);
  });

  // The same reading finds the arrows where they are meant to be: the check can see an import.
  test.each(COMPOSED)('src/me imports src/%s (it composes /v1/me)', (domain) => {
    expect(importedDomains('me').has(domain)).toBe(true);
  });

  test('src/accounts still imports what it uses (the reading is not blind)', () => {
    expect(importedDomains('accounts')).toContain('http');
  });
});
