// The transform hook: the query as sent, and a member the route does not take refused by name
// (members.ts). Elysia's parser for standard schemas splits a value at every comma and parses one
// that looks like JSON ("q=a, b" arrived as ["a", " b"]). Each parameter keeps its text; only a
// repeated one becomes a list, which a string schema then refuses by name.
import { familyOf } from '../families.ts';
import type { Shared } from './shared.ts';

function queryOf(url: string): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = Object.create(null);
  const at = url.indexOf('?');
  if (at < 0) return query;
  for (const [key, value] of new URLSearchParams(url.slice(at + 1))) {
    const prior = query[key];
    query[key] = prior === undefined ? value : Array.isArray(prior) ? [...prior, value] : [prior, value];
  }
  return query;
}

export function onTransform(shared: Shared) {
  return (c: { request: Request; route: string; body?: unknown; query?: unknown }) => {
    const query = queryOf(c.request.url);
    c.query = query;
    shared.refuseUnknownMembers({ request: c.request, route: c.route, body: c.body, query }, familyOf(c.request));
  };
}
