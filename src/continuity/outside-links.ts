// Finds outside links and e-mail addresses in short public text (the public status), including
// the usual ways of disguising them: "hxxp://", "example[.]com", "name (at) host (dot) com",
// "name @ host.com". Detection itself is linkify-it's (schemes, fuzzy domains, e-mails); this
// module only undoes the disguises first and decides which matches count as "outside".
import type * as Linkify from 'linkify-it';
import { normalizeForScan } from '../content/normalize.ts';

type OutsideFinding = { kind: 'link' | 'email' };

// Common generic TLDs beyond linkify-it's default fuzzy list (which has the 2-letter country codes).
const EXTRA_TLDS = [
  'io',
  'app',
  'dev',
  'xyz',
  'online',
  'site',
  'top',
  'club',
  'link',
  'tech',
  'store',
  'page',
  'cloud',
  'blog',
  'news',
  'finance',
  'money',
  'fun',
  'live',
  'world',
];

// A bare "name.ext" whose ending is a common source-file extension reads as a file name
// ("README.md", "run.sh", "main.rs"); with a scheme, "www.", a path or more labels it is a link.
const FILE_ENDINGS = new Set(['md', 'sh', 'rs', 'py', 'pl', 'rb', 'cc', 'so', 'db', 'ts', 'js', 'go', 'mk', 'in', 'am', 'ml']);

// linkify-it (~3.5 MB resident with its tables) is loaded and set up on the first text scanned, not at start-up.
let linkifier: InstanceType<typeof Linkify.LinkifyIt> | undefined;
const linkify = {
  match(text: string) {
    linkifier ??= new (require('linkify-it') as typeof Linkify).LinkifyIt({ fuzzyLink: true, fuzzyEmail: true, fuzzyIP: true }).tlds(EXTRA_TLDS, true);
    return linkifier.match(text);
  },
};

/** Undoes the common disguises ("defanging") of links and addresses. */
function refang(text: string): string {
  return (
    // Invisible characters out and compatibility forms folded, as for every content rule.
    normalizeForScan(text)
      // Other full stops a domain can be written with (NFKC already folds the full-width one).
      .replace(/[\u3002\uFF61\u2024\uFE52]/g, '.')
      // h**p / hxxp / hXXps … → http(s)
      .replace(/\bh(?:xx|\*\*|XX|Xx|xX)p(s?)(?=\s*(?:\[:\]|:|\(:\)))/g, 'http$1')
      .replace(/\[:\]|\(:\)|\{:\}/g, ':')
      .replace(/\[\/\/\]/g, '//')
      .replace(/\s*(?:\[\.\]|\(\.\)|\{\.\}|\[dot\]|\(dot\)|\{dot\}|<dot>)\s*/gi, '.')
      .replace(/\s*(?:\[@\]|\(@\)|\{@\}|\[at\]|\(at\)|\{at\}|<at>)\s*/gi, '@')
      // "name @ host.tld": spaces around an @ that joins two words (a mention "@name" has none before)
      .replace(/([\p{L}\p{N}._%+-])\s+@\s*(?=[\p{L}\p{N}-]+\.\p{L}{2,})/gu, '$1@')
      .replace(/([\p{L}\p{N}._%+-])@\s+(?=[\p{L}\p{N}-]+\.\p{L}{2,})/gu, '$1@')
  );
}

function isFileName(m: { schema: string; raw: string }): boolean {
  if (m.schema !== '') return false;
  if (/[/:]/.test(m.raw) || /^www\./i.test(m.raw)) return false;
  const labels = m.raw.split('.');
  return labels.length === 2 && FILE_ENDINGS.has(labels[1]!.toLowerCase());
}

/**
 * The first outside link or e-mail address in `text`, or null. A link to `ownOrigin` (the
 * service's own SVC_BASE_URL) is not outside.
 */
export function findOutsideLink(text: string, ownOrigin: string): OutsideFinding | null {
  const own = new URL(ownOrigin);
  const matches = linkify.match(refang(text)) ?? [];
  for (const m of matches) {
    if (m.schema === 'mailto:' || (m.schema === '' && m.url.startsWith('mailto:'))) return { kind: 'email' };
    if (isFileName(m)) continue;
    try {
      const u = new URL(m.url);
      if (u.host === own.host) continue;
    } catch {}
    return { kind: 'link' };
  }
  return null;
}
