// Shared helpers of the feed tests: a strict XML parser (jsdom's: a document that is not
// well-formed is a failure), the sitemaps.org rules for one file, and an app on a fixed base URL.
import { expect } from 'bun:test';
import { JSDOM } from 'jsdom';
import { pagesApp } from '../pages/harness.ts';

export const BASE = 'http://svc.test';
const SITEMAP_NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';
export const ATOM_NS = 'http://www.w3.org/2005/Atom';
export const idem = () => ({ 'idempotency-key': crypto.randomUUID() });

/** Strict XML 1.0 with namespaces: a document that is not well-formed is a failure here. */
export function strictXml(text: string): Document {
  const { window } = new JSDOM('');
  const d = new window.DOMParser().parseFromString(text, 'application/xml');
  const error = d.getElementsByTagName('parsererror')[0];
  if (error) throw new Error(`not well-formed XML: ${error.textContent}`);
  return d as unknown as Document;
}

const children = (el: Element, name: string) => [...el.children].filter((c) => c.localName === name);

/**
 * The sitemaps.org rules for one file: a <urlset> (or <sitemapindex>) in the protocol's namespace,
 * every <url> (<sitemap>) with exactly one <loc> (an absolute address of the base URL, under 2,048
 * characters) and at most one <lastmod> (a W3C datetime), nothing else, at most `max` entries.
 */
export function sitemapLocs(text: string, root: 'urlset' | 'sitemapindex', max: number): string[] {
  expect(text.startsWith('<?xml version="1.0" encoding="utf-8"?>')).toBe(true);
  const d = strictXml(text);
  const top = d.documentElement;
  expect([top.localName, top.namespaceURI]).toEqual([root, SITEMAP_NS]);
  const entry = root === 'urlset' ? 'url' : 'sitemap';
  const entries = [...top.children];
  expect(entries.length).toBeLessThanOrEqual(max);
  return entries.map((e) => {
    expect([e.localName, e.namespaceURI]).toEqual([entry, SITEMAP_NS]);
    for (const c of e.children) expect(['loc', 'lastmod']).toContain(c.localName);
    const [loc, ...more] = children(e, 'loc');
    expect(more).toEqual([]);
    const href = loc!.textContent!;
    expect(href.length).toBeLessThan(2048);
    expect(new URL(href).origin).toBe(BASE);
    expect(new URL(href).href).toBe(href); // written as a URL parser writes it: encoded, nothing to fix
    const lastmod = children(e, 'lastmod');
    expect(lastmod.length).toBeLessThanOrEqual(1);
    if (lastmod[0]) expect(lastmod[0].textContent).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/);
    return href;
  });
}

export async function app(env: Record<string, string> = {}) {
  const p = await pagesApp({ SVC_BASE_URL: BASE, ...env });
  const get = (path: string, headers: Record<string, string> = {}) =>
    p.t.call('GET', path, { headers: { accept: '*/*', 'x-agent-protocol': '', 'content-type': '', ...headers } });
  return { ...p, get };
}
