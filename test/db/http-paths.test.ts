// http/ keeps the machinery and knows no domain (issue 38 §1): a route states its own needs (its
// body budget, its family, its auth) where it is declared, and the shared conventions read the
// declaration. So no file under src/http/ names a domain's path (a path under /v1/ or /api/, or a
// top-level address a domain serves: /threads/, /lab/, /token …) in its code, nor reads a domain's
// settings section (ctx.config.pubs). Comments and prose for the caller (a sentence in a code's
// fix) may name a route; a path is one token, so a string with a space in it is prose. Checked on
// the real tree, and on made-up files so that the rule is seen to fail when it should.
import { describe, expect, test } from 'bun:test';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { DOMAINS } from '../../src/compose.ts';
import { makeApp } from '../helpers.ts';

interface Literal {
  kind: 'string' | 'regex';
  text: string;
  line: number;
}

/** The code of a TypeScript file without its comments, and its string, template and regex literals. */
export function readCode(source: string): { code: string; literals: Literal[] } {
  let code = '';
  const literals: Literal[] = [];
  let line = 1;
  let i = 0;
  // The last significant character of code: a `/` after an operand is a division, else a regex.
  let last = '';
  const take = (end: number, kind: Literal['kind'] | null) => {
    const text = source.slice(i, end);
    if (kind) literals.push({ kind, text, line });
    code += text;
    for (const ch of text) if (ch === '\n') line++;
    i = end;
  };
  while (i < source.length) {
    const ch = source[i]!;
    const next = source[i + 1];
    if (ch === '/' && next === '/') {
      const end = source.indexOf('\n', i);
      i = end < 0 ? source.length : end;
    } else if (ch === '/' && next === '*') {
      const end = source.indexOf('*/', i + 2) + 2;
      for (const c of source.slice(i, end)) if (c === '\n') line++;
      i = end;
    } else if (ch === "'" || ch === '"' || ch === '`') {
      let j = i + 1;
      while (j < source.length && source[j] !== ch) j += source[j] === '\\' ? 2 : 1;
      take(j + 1, 'string');
      last = ch;
    } else if (ch === '/' && (last === '' || '(,=:[!&|?{};+-*%<>~^'.includes(last) || /\breturn$/.test(code.trimEnd()))) {
      let j = i + 1;
      let inClass = false;
      while (j < source.length && (inClass || source[j] !== '/')) {
        if (source[j] === '\\') j++;
        else if (source[j] === '[') inClass = true;
        else if (source[j] === ']') inClass = false;
        j++;
      }
      take(j + 1, 'regex');
      last = '/';
    } else {
      take(i + 1, null);
      if (!/\s/.test(ch)) last = ch;
    }
  }
  return { code, literals };
}

/**
 * Where `source` names a domain's path or reads a domain's settings section: `segments` are the
 * first segments of the addresses the domains serve (v1 and api aside: any segment under those
 * is a domain's), `sections` the domains' settings keys.
 */
export function domainNames(source: string, segments: ReadonlySet<string>, sections: ReadonlySet<string>): string[] {
  const found: string[] = [];
  const { code, literals } = readCode(source);
  const escaped = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const names = [...segments].map(escaped).join('|');
  for (const lit of literals) {
    if (lit.kind === 'string' && /\s/.test(lit.text.slice(1, -1))) continue; // prose
    const text = lit.text.replace(/\\\//g, '/').replace(/\\\./g, '.');
    const under = /\/(?:v1|api)\/+(?:\(\?:)?[\w.-]+/.exec(text);
    // A segment as a path's first (after a quote, ^ or a group) or as an alternative in a pattern.
    const top = names ? new RegExp(`(?:^|['"\`^(:|])/?(?:${names})(?=$|[/'"\`$?)|])`).exec(text) : null;
    const alt = names && lit.kind === 'regex' ? new RegExp(`[|(:](?:${names})(?=[|)$/])`).exec(text) : null;
    const hit = under ?? top ?? alt;
    if (hit) found.push(`line ${lit.line}: ${lit.kind} ${lit.text} names the domain path ${JSON.stringify(hit[0])}`);
  }
  const lines = code.split('\n');
  for (const [n, text] of lines.entries()) {
    for (const m of text.matchAll(/\bconfig\s*\??\.\s*(\w+)|\bconfig\s*\[\s*['"`](\w+)['"`]\s*\]/g)) {
      const key = m[1] ?? m[2]!;
      if (sections.has(key)) found.push(`line ${n + 1}: reads the settings section ${key} (${m[0]})`);
    }
    for (const m of text.matchAll(/\{([^}]*)\}\s*=\s*[\w.?]*\bconfig\b/g)) {
      for (const key of m[1]!.split(',').map((k) => k.split(':')[0]!.trim())) {
        if (sections.has(key)) found.push(`line ${n + 1}: reads the settings section ${key} (${m[0]})`);
      }
    }
  }
  return found;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    return e.isDirectory() ? filesUnder(path) : e.name.endsWith('.ts') ? [path] : [];
  });
}

const ROOT = join(import.meta.dir, '../..');

/** The first segments of every address the service's routes serve, /v1 and /api aside. */
function servedSegments(): Set<string> {
  const { app } = makeApp();
  const segments = new Set<string>();
  for (const r of app.routes as { path: string }[]) {
    const segment = r.path.split('/')[1] ?? '';
    if (segment && segment !== 'v1' && segment !== 'api') segments.add(segment);
  }
  return segments;
}

const SECTIONS = new Set(DOMAINS.flatMap((d) => (d.settings ? [d.settings.key] : [])));

describe('the real tree', () => {
  const segments = servedSegments();

  test('knows the domains it guards against (their addresses and settings sections)', () => {
    for (const s of ['threads', 'lab', 'pubs', 'votes', 'token', '.well-known', 'healthz']) expect(segments.has(s)).toBe(true);
    for (const s of ['pubs', 'ext', 'mcp', 'comments']) expect(SECTIONS.has(s)).toBe(true);
  });

  test('no file under src/http/ names a domain path or reads a domain settings section', () => {
    const files = filesUnder(join(ROOT, 'src/http'));
    expect(files.length).toBeGreaterThan(20);
    const found = files.flatMap((file) =>
      domainNames(readFileSync(file, 'utf8'), segments, SECTIONS).map((where) => `src/${relative(join(ROOT, 'src'), file)} ${where}`),
    );
    expect(found).toEqual([]);
  });
});

describe('the rule on made-up files', () => {
  const segments = new Set(['threads', 'lab', 'pubs', 'votes', 'token', 'register', '.well-known', 'healthz']);
  const sections = new Set(['pubs', 'ext']);
  const check = (source: string) => domainNames(source, segments, sections);

  test('a path rule, a path pattern, a domain prefix and a settings section are each found, with their line', () => {
    const found = check(
      [
        'const LAB_PUBLISH_PATH = /^\\/v1\\/lab\\/pages\\/[^/]+$/;',
        'const GUEST = /^\\/api\\/pubs\\/(?:human-session|reports)$/;',
        "if (path.startsWith('/threads/') || path === '/votes') return 'page';",
        'const OAUTH = /^\\/(?:\\.well-known\\/oauth-authorization-server|token|register)$/;',
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the made-up source holds a template literal
        'const ingest = `${base}/v1/ext/ingest`;',
        'const max = pubsSubmitBytes(ctx.config.pubs);',
        "const chars = ctx.config['ext'].max;",
        'const { pubs } = ctx.config;',
        "if (path === '/healthz') return 'health';",
      ].join('\n'),
    );
    expect(found.map((f) => f.split(':')[0])).toEqual(['line 1', 'line 2', 'line 3', 'line 3', 'line 4', 'line 5', 'line 9', 'line 6', 'line 7', 'line 8']);
    expect(found[0]).toContain('/v1/lab');
    expect(found[6]).toContain("'/healthz");
    expect(found[7]).toContain('settings section pubs');
  });

  test('the spec prefixes, comments, prose for the caller and the core settings are not domain names', () => {
    const found = check(
      [
        "// GET /threads/:id answers a page; ctx.config.pubs is the article's section",
        '/* the route at /v1/lab/pages/:slug declares its budget */',
        "if (path === '/v1' || path.startsWith('/v1/') || path.startsWith('/api/')) return 'agent';",
        "const fix = 'Look up the original write with GET /v1/me/publications/lookup';",
        'const max = ctx.config.maxRequestBytes / 2;',
        'const ratio = total / lab.count; const other = pubs / 2;',
        "const url = url.indexOf('/', 8);",
      ].join('\n'),
    );
    expect(found).toEqual([]);
  });
});
