// Where each part of the documentation lives (docs/decisions.md: /docs is a table of contents with
// one page per section). Small and free of the renderer, so that any domain can link to its route's
// page without loading the reference: GET /api/jobs's "docs" member is referenceUrl(base, 'GET', '/api/jobs').

/** The API reference's page of one operation: /docs/api/{slug}. */
export const API_PREFIX = '/docs/api/';

/** The server-side search over every page of /docs. */
export const SEARCH_PATH = '/docs/search';

/** The error codes page (the envelope's `docs` links, src/http/errors.ts docsUrl). */
export const ERRORS_PATH = '/docs/errors';

/** The stylesheet the pages of /docs add to the site's own (the search box, marked words). */
export const DOCS_CSS_PATH = '/docs/docs.css';

/** Section names a guide (docs/{name}.md) cannot take: pages of their own under /docs/. */
export const RESERVED_SECTIONS: ReadonlySet<string> = new Set(['api', 'errors', 'search']);

/**
 * An operation's page name: the method and the path, lower-cased, every run of other characters a
 * hyphen (`POST /v1/posts/{id}/replies` → `post-v1-posts-id-replies`, `GET /` → `get`).
 */
export function operationSlug(method: string, path: string): string {
  return `${method}-${path}`
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** The anchor an operation had on the single reference page, and keeps on the contents page (/docs#get-/api/jobs). */
export const operationAnchor = (method: string, path: string): string => `${method.toLowerCase()}-${path}`;

/** The absolute address of an operation's page in the reference. */
export const referenceUrl = (baseUrl: string, method: string, path: string): string => `${baseUrl}${API_PREFIX}${operationSlug(method, path)}`;
