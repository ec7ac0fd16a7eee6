// Step 4's link finding. A written URL runs to the next space (linkify-it stops at "@", which
// would show "https://known.host@evil.host/" as a link to known.host); the host is what the
// WHATWG parser says it is, so userinfo is never taken for the host. Bare domains are found by
// linkify-it. A short link is resolved only from the entities delivered with the post: the
// service never follows a link.
import { LinkifyIt } from 'linkify-it';

export interface FoundLink {
  index: number;
  lastIndex: number;
  /** The full original link: the delivered expansion of a short link, else the link as written. */
  url: string;
  /** ASCII host (punycode as the parser gives it), or "invalid" when the link does not parse. */
  host: string;
  /** Userinfo written before an "@" in the authority, when any (a look-alike trick). */
  userinfo: string | null;
}

const SCHEME_URL = /\b[a-z][a-z0-9+.-]{1,15}:\/\/[^\s<>"`]+/giu;
const TRAILING = /[.,;:!?'")\]}>]+$/u;
// "README.md", "run.sh": a bare two-label name ending in a source-file extension is a file name.
const FILE_ENDINGS = new Set(['md', 'sh', 'rs', 'py', 'pl', 'rb', 'cc', 'so', 'db', 'ts', 'js', 'go', 'mk', 'in', 'am', 'ml', 'txt', 'json']);
const linkify = new LinkifyIt({ fuzzyLink: true, fuzzyEmail: false, fuzzyIP: true });

function parse(url: string): { host: string; userinfo: string | null } {
  try {
    const u = new URL(url);
    const userinfo = u.username || u.password ? decodeURIComponent(`${u.username}${u.password ? `:${u.password}` : ''}`) : null;
    return { host: u.hostname || 'invalid', userinfo };
  } catch {
    return { host: 'invalid', userinfo: null };
  }
}

/** Every link in `text`, in order, with short links resolved from `entities`. */
export function findLinks(text: string, entities: { url?: string; expanded_url?: string }[]): FoundLink[] {
  const expansions = new Map<string, string>();
  for (const e of entities) if (e.url && e.expanded_url) expansions.set(e.url, e.expanded_url);
  const found: FoundLink[] = [];
  let blanked = text;
  for (const m of text.matchAll(SCHEME_URL)) {
    const written = m[0].replace(TRAILING, '');
    const expanded = expansions.get(written);
    // Only an http(s) expansion that parses replaces the short link; anything else keeps it as written.
    const resolved = expanded !== undefined && /^https?:\/\//i.test(expanded) && parse(expanded).host !== 'invalid' ? expanded : null;
    const parsed = parse(resolved ?? written);
    const url = resolved ?? written;
    found.push({ index: m.index, lastIndex: m.index + written.length, url, ...parsed });
    blanked = blanked.slice(0, m.index) + ' '.repeat(written.length) + blanked.slice(m.index + written.length);
  }
  for (const m of linkify.match(blanked) ?? []) {
    const labels = m.raw.split('.');
    if (m.schema === '' && !/[/:]/.test(m.raw) && labels.length === 2 && FILE_ENDINGS.has(labels[1]!.toLowerCase())) continue;
    found.push({ index: m.index, lastIndex: m.lastIndex, url: m.raw, ...parse(m.url) });
  }
  return found.sort((a, b) => a.index - b.index);
}
