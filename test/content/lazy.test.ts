// The content rules load and compile what they need on first use, not when the server starts:
// twitter-text (with core-js, ~45 ms) on the first text that needs a link found, and the trading
// patterns (~35 ms to compile) on the first text scanned. The answers are the same either way.
import { describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { TRADING_PATTERNS } from '../../src/content/price-talk-calls.ts';
import { findPriceTalk } from '../../src/content/price-talk.ts';

const ROOT = join(import.meta.dir, '..', '..');

describe('content rules load lazily', () => {
  test('twitter-text is loaded by the first linksIn, not by importing the rules', async () => {
    const probe = `
      const { linksIn } = await import(${JSON.stringify(join(ROOT, 'src/content/links.ts'))});
      await import(${JSON.stringify(join(ROOT, 'src/content/index.ts'))});
      const has = () => Object.keys(require.cache).some((p) => p.includes('/node_modules/twitter-text/'));
      const before = has();
      const links = linksIn('see github.com/x and https://a.example/b, or main.rs');
      console.log(JSON.stringify({ before, after: has(), links }));`;
    const proc = Bun.spawn([process.execPath, '-e', probe], { cwd: ROOT, stdout: 'pipe', stderr: 'pipe' });
    const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
    expect(await proc.exited, err).toBe(0);
    expect(JSON.parse(out.trim().split('\n').at(-1)!)).toEqual({
      before: false,
      after: true,
      links: ['github.com/x', 'https://a.example/b', 'main.rs'],
    });
  });

  test('a trading pattern is compiled on first use, once, and still matches', () => {
    for (const p of TRADING_PATTERNS) {
      const d = Object.getOwnPropertyDescriptor(p, 'regex');
      expect(typeof d?.get).toBe('function');
      expect(p.regex).toBe(p.regex);
      expect(p.regex.flags).toBe('iu');
    }
    expect(findPriceTalk('ETH to 10k by spring')).not.toBeNull();
    expect(findPriceTalk('the queue went from 10k to 2k messages')).toBeNull();
  });
});
