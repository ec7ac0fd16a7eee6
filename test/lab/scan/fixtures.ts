// Small sites for the scanner tables: an index page, optionally a script or stylesheet it loads.
import { expect, test } from 'bun:test';
import { scanLabSite, type SiteFile } from '../../../src/lab/scan/site.ts';

const enc = new TextEncoder();
export const file = (path: string, content: string | Uint8Array): SiteFile => ({ path, bytes: typeof content === 'string' ? enc.encode(content) : content });
export const page = (body: string, head = '') => `<!doctype html><html><head><title>Demo</title>${head}</head><body>${body}</body></html>`;
export const site = (extra: SiteFile[] = [], index = page('<h1>Tide tables</h1><p>A small calculator for tides.</p>')) => [file('index.html', index), ...extra];
export const js = (src: string) => site([file('app.js', src)], page('<p>hi</p><script src="app.js"></script>'));
export const css = (src: string) => site([file('style.css', src)], page('<p>hi</p>', '<link rel="stylesheet" href="style.css">'));
export const html = (body: string) => site([], page(body));
export const bytes = (...parts: (number[] | string)[]) => new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? [...enc.encode(p)] : p)));

export type Refusal = [name: string, files: SiteFile[], code: string, details?: Record<string, unknown>];
export type Pass = [name: string, files: SiteFile[]];

/** One test per row: each refusal must answer its code (and details), each pass must answer null. */
export function table(refused: Refusal[], passes: Pass[]): void {
  // Rest parameters: a fixed arity above the row's length would make bun wait for a done callback.
  test.each(refused)('refuses %s', (...[, files, code, details]) => {
    const got = scanLabSite(files);
    expect(got?.code).toBe(code as never);
    if (details) expect(got?.details).toMatchObject(details);
  });
  test.each(passes)('passes %s', (...[, files]) => {
    expect(scanLabSite(files)).toBeNull();
  });
}
