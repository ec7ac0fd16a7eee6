// The ALTCHA widget, served by the service itself (no third-party host; a strict CSP can allow
// 'self' only). The files are imported as text, so `bun build --compile` embeds them in the binary.
// dist/external/ is the build without inline styles or blob: workers; the worker runs from its own file.
import type { Context } from 'elysia';
import { fail } from '../http/errors.ts';
// @ts-expect-error: a text import of a plain file has no declaration (Bun gives its text)
import css from '../../node_modules/altcha/dist/external/altcha.css' with { type: 'text' };
// @ts-expect-error: as above
import script from '../../node_modules/altcha/dist/external/altcha.min.js' with { type: 'text' };
// @ts-expect-error: as above
import worker from '../../node_modules/altcha/dist/workers/pbkdf2.js' with { type: 'text' };

const JS = 'text/javascript; charset=utf-8';
export const WIDGET_FILES: Record<string, { body: string; type: string; etag: string }> = {};
for (const [name, body, type] of [
  ['altcha.min.js', script, JS],
  ['altcha.css', css, 'text/css; charset=utf-8'],
  ['pbkdf2.js', worker, JS],
] as const) {
  WIDGET_FILES[name] = {
    body: body as string,
    type,
    etag: `"${new Bun.CryptoHasher('sha256')
      .update(body as string)
      .digest('hex')
      .slice(0, 32)}"`,
  };
}

/** GET /assets/altcha/{file}: one of the widget's files, cached a day, 304 for its ETag. */
export function serveWidgetFile(name: string, http: Pick<Context, 'request' | 'set'>) {
  const file = WIDGET_FILES[name];
  if (!file) return fail('NOT_FOUND', { path: `/assets/altcha/${name}` });
  http.set.headers['cache-control'] = 'public, max-age=86400';
  http.set.headers.etag = file.etag;
  http.set.headers['x-content-type-options'] = 'nosniff';
  if (http.request.headers.get('if-none-match') === file.etag) {
    http.set.status = 304;
    return '';
  }
  http.set.headers['content-type'] = file.type;
  return file.body;
}
