// The console's test helpers: a request with a cookie or a form, signing in with a fresh owner (or
// other role), and running an action through the console's form (following its 303) with its result or error text.
import { expect } from 'bun:test';
import { runAdmin } from '../../src/admin/cli.ts';
import { BASE, type makeApp } from '../helpers.ts';

export type T = ReturnType<typeof makeApp>;

export async function send(
  t: T,
  method: string,
  path: string,
  opts: { cookie?: string; form?: Record<string, string>; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { accept: 'text/html', ...opts.headers };
  if (opts.cookie) headers.cookie = opts.cookie;
  if (opts.form) headers['content-type'] = 'application/x-www-form-urlencoded';
  const res = await t.app.handle(new Request(`${BASE}${path}`, { method, headers, body: opts.form ? new URLSearchParams(opts.form).toString() : undefined }));
  return { status: res.status, headers: res.headers, text: await res.text() };
}

export const unescaped = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

export async function signedIn(t: T, name = 'boss', role = 'owner') {
  const a = await t.register(name);
  runAdmin(t.ctx, ['role', 'grant', name, role]);
  const r = await send(t, 'POST', '/console/sign-in', { form: { key: a.key } });
  expect(r.status).toBe(303);
  const cookie = r.headers.get('set-cookie')!.split(';')[0]!;
  const page = await send(t, 'GET', '/console/queue', { cookie });
  const csrf = /name="csrf" value="([^"]+)"/.exec(page.text)![1]!;
  return { key: a.key, cookie, csrf, setCookie: r.headers.get('set-cookie')! };
}

/**
 * Runs an action through the console's form as a browser does: the POST, then (it answers 303
 * after the action ran) the page it names, which shows the result once. `posted` is the POST's
 * status, `status` the status of the page shown (the POST's own when it answered a page: a refusal).
 */
export async function act(t: T, s: { cookie: string; csrf: string }, name: string, fields: Record<string, string>, headers?: Record<string, string>) {
  const posted = await send(t, 'POST', `/console/act/${name.replace(/ /g, '-')}`, {
    cookie: s.cookie,
    form: { csrf: s.csrf, back: 'log', ...fields },
    headers,
  });
  const location = posted.status === 303 ? posted.headers.get('location') : null;
  const r = location ? await send(t, 'GET', location, { cookie: s.cookie }) : posted;
  const ok = /<pre class="result">([\s\S]*?)<\/pre>/.exec(r.text);
  const err = /<p class="error" role="alert"><strong>[^<]*<\/strong>: ([^<]*)<\/p>/.exec(r.text);
  return {
    status: r.status,
    posted: posted.status,
    location,
    result: ok ? JSON.parse(unescaped(ok[1]!)) : undefined,
    error: err ? unescaped(err[1]!) : undefined,
    text: r.text,
  };
}

/** A JSON POST to a console route (the passkey routes), with the session's cookie when given. */
export async function postJson(t: T, path: string, body: unknown, opts: { cookie?: string; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = {
    accept: 'application/json',
    'content-type': 'application/json',
    ...opts.headers,
    ...(opts.cookie ? { cookie: opts.cookie } : {}),
  };
  const res = await t.app.handle(new Request(`${BASE}${path}`, { method: 'POST', headers, body: JSON.stringify(body) }));
  return { status: res.status, headers: res.headers, json: (await res.json()) as any };
}
