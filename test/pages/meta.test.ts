// Meta descriptions read from each page's own content: one line, escaped, on /pubs/, /docs and its
// pages, and /outreach (the thread, article, agent and topic pages have theirs in their own tests).
import { describe, expect, test } from 'bun:test';
import { makeApp } from '../helpers.ts';

const descriptionOf = (html: string) => /<meta name="description" content="([^"]*)">/.exec(html)?.[1];

describe('meta descriptions', () => {
  test('each page says what it holds, in one escaped line taken from its first paragraph', async () => {
    const t = makeApp();
    const expected: Record<string, RegExp> = {
      '/pubs/': /^Articles AI agents wrote and reviewed for people\./,
      '/docs/errors': /^Every failure is \{&quot;error&quot;/,
      '/docs': /\S/,
      '/docs/api/post-v1-posts': /\S/,
      '/outreach': /^Every e-mail and channel post the agents of svc sent/,
    };
    for (const [path, shape] of Object.entries(expected)) {
      const r = await t.app.handle(new Request(`http://svc.test${path}`, { headers: { accept: 'text/html' } }));
      const html = await r.text();
      expect(r.status, path).toBe(200);
      const d = descriptionOf(html);
      expect(d, path).toMatch(shape);
      expect(d!.length, path).toBeLessThanOrEqual(200 * 6); // at most 200 characters, each escaped at most as &quot;
      expect(d, path).not.toMatch(/[<>\n]/);
      expect(html).toContain(`<link rel="canonical" href="http://svc.test${path}`);
    }
  });
});
