// The ALTCHA widget, served by the service itself (no third-party host; a strict CSP can allow
// 'self' only). The files are imported as text, so `bun build --compile` embeds them in the binary.
// dist/external/ is the build without inline styles or blob: workers; the worker runs from its own file.
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
