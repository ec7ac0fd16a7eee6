// File paths of a lab site. A path names a file inside the site and nothing else: no way up
// (`../`, `%2e%2e/`), no absolute or drive paths, no backslashes or NUL (which some file systems
// and servers read as separators or ends), no hidden files (`.htaccess`, `.git/`), a bounded depth.
import type { Finding } from './finding.ts';
import { MAX_PATH_CHARS, MAX_PATH_DEPTH } from './limits.ts';

export interface ServedType {
  ext: string;
  contentType: string;
  text: boolean; // must be valid UTF-8
}

const TYPE_LIST: ServedType[] = [
  { ext: 'html', contentType: 'text/html; charset=utf-8', text: true },
  { ext: 'css', contentType: 'text/css; charset=utf-8', text: true },
  { ext: 'js', contentType: 'text/javascript; charset=utf-8', text: true },
  { ext: 'json', contentType: 'application/json; charset=utf-8', text: true },
  { ext: 'svg', contentType: 'image/svg+xml; charset=utf-8', text: true },
  { ext: 'txt', contentType: 'text/plain; charset=utf-8', text: true },
  { ext: 'png', contentType: 'image/png', text: false },
  { ext: 'jpg', contentType: 'image/jpeg', text: false },
  { ext: 'jpeg', contentType: 'image/jpeg', text: false },
  { ext: 'gif', contentType: 'image/gif', text: false },
  { ext: 'webp', contentType: 'image/webp', text: false },
  { ext: 'ico', contentType: 'image/x-icon', text: false },
  { ext: 'woff2', contentType: 'font/woff2', text: false },
];
export const SERVED_TYPES: ReadonlyMap<string, ServedType> = new Map(TYPE_LIST.map((t) => [t.ext, t]));
export const SERVED_EXTENSIONS = TYPE_LIST.map((t) => t.ext);

export const extOf = (path: string): string => {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot + 1).toLowerCase();
};

export const typeOf = (path: string): ServedType | undefined => SERVED_TYPES.get(extOf(path));

const SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9._-]*$/;

/** Why `path` may not name a file of a site, or null when it may. */
export function badPathReason(path: string): string | null {
  if (path.length === 0) return 'empty';
  if (path.includes('\0')) return 'nul';
  if (path.includes('\\')) return 'backslash';
  if (/%(?:2e|2f|5c|00)/i.test(path)) return 'encoded_traversal';
  if (path.includes('%')) return 'encoded';
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path)) return 'absolute';
  const segments = path.split('/');
  if (segments.some((s) => s === '..' || s === '.')) return 'traversal';
  if (segments.some((s) => s === '')) return 'empty_segment';
  if (segments.some((s) => s.startsWith('.'))) return 'hidden';
  if (path.length > MAX_PATH_CHARS) return 'too_long';
  if (segments.length > MAX_PATH_DEPTH) return 'too_deep';
  if (!segments.every((s) => SEGMENT.test(s))) return 'characters';
  return null;
}

/** Checks every path of a site: allowed shape, no duplicates (ignoring case), an index.html. */
export function checkPaths(paths: readonly string[]): Finding | null {
  const seen = new Set<string>();
  for (const [i, path] of paths.entries()) {
    const reason = badPathReason(path);
    if (reason) {
      return {
        code: 'LAB_BAD_PATH',
        details: {
          field: `files[${i}].path`,
          file: path.replace(/\0/g, '\\0').slice(0, MAX_PATH_CHARS),
          reason,
          max_depth: MAX_PATH_DEPTH,
          max_chars: MAX_PATH_CHARS,
        },
      };
    }
    // Two names that differ only by case would be one file on a case-insensitive disk.
    const key = path.toLowerCase();
    if (seen.has(key)) return { code: 'LAB_BAD_PATH', details: { field: `files[${i}].path`, file: path, reason: 'duplicate' } };
    seen.add(key);
  }
  // Served paths are case-sensitive: the directory address serves exactly index.html.
  if (!paths.includes('index.html')) return { code: 'LAB_BAD_PATH', details: { field: 'files', file: 'index.html', reason: 'missing_index' } };
  return null;
}
