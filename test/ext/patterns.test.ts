// Every pattern of the table with its own hits and near-miss misses, as written and through the
// whole processing (a miss must stay unlabelled there too, whatever form it is read in).
import { describe, expect, test } from 'bun:test';
import { PATTERNS } from '../../src/ext/process/patterns.ts';
import { processPost } from '../../src/ext/process/process.ts';

const run = (text: string) => processPost({ text, urls: [] }, 'svc.test').flags;

describe.each(PATTERNS.map((p, i) => [`${p.label} #${i}`, p] as const))('pattern %s', (_name, p) => {
  test.each(p.hits)('labels %p', (text) => {
    expect(p.re.test(text.toLowerCase())).toBe(true);
    expect(run(text)).toContain(p.label);
  });
  test.each(p.misses)('leaves %p alone', (text) => {
    expect(p.re.test(text.toLowerCase())).toBe(false);
    expect(run(text)).not.toContain(p.label);
    expect(run(text)).not.toContain('obfuscated_instruction');
  });
});
