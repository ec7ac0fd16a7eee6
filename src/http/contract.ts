// Response contracts, written once. A route declares what each of its success statuses answers:
// a valibot schema for JSON (the same schema types the code that builds the answer, through
// v.InferOutput), or the media type of an HTML, CSS or redirect answer. The OpenAPI description
// is generated from these declarations, and the test suite checks every answer it receives
// against the description, so the three cannot drift apart.
import type * as v from 'valibot';

// biome-ignore lint/suspicious/noExplicitAny: any valibot schema, whatever its input and output
type AnySchema = v.GenericSchema<any, any>;

export interface HeaderDoc {
  description: string;
  schema?: Record<string, unknown>;
}

interface Answer {
  description: string;
  /** JSON answers: the schema the body satisfies. */
  schema?: AnySchema;
  /** The media type (or several, one per kind of file served); application/json when a schema is given. */
  media?: string | readonly string[];
  headers?: Record<string, HeaderDoc>;
}

export type Answers = Record<number, Answer>;

/** A JSON answer described by its valibot schema. */
export const jsonAnswer = (schema: AnySchema, description: string, headers?: Record<string, HeaderDoc>): Answer => ({
  description,
  schema,
  media: 'application/json',
  ...(headers ? { headers } : {}),
});

/** An answer in another media type (an HTML page, a stylesheet), or one of several (a lab site's files). */
export const mediaAnswer = (media: string | readonly string[], description: string, headers?: Record<string, HeaderDoc>): Answer => ({
  description,
  media,
  ...(headers ? { headers } : {}),
});

/** A redirect: no body worth describing, a Location header. */
export const redirectAnswer = (description: string): Answer => ({
  description,
  headers: { Location: { description: 'Where the resource is.', schema: { type: 'string' } } },
});

/** Cache-Control as public documents send it. */
export const cacheHeaders = (maxAgeSeconds: number, more = ''): Record<string, HeaderDoc> => ({
  'Cache-Control': {
    description: `public, max-age of at most ${maxAgeSeconds} s: the document may be up to ${maxAgeSeconds} s old.${more ? ` ${more}` : ''}`,
    schema: { type: 'string' },
  },
  ETag: { description: 'Send it back in If-None-Match for a 304.', schema: { type: 'string' } },
  Age: { description: 'Seconds since the document was built (it is served from the cache until max-age).', schema: { type: 'integer' } },
});

/** The answer to an If-None-Match naming the current tag: no body, the same cache headers. */
export const notModified = (maxAgeSeconds: number) => ({
  description: 'Not modified: the If-None-Match tag is still current.',
  headers: cacheHeaders(maxAgeSeconds),
});

/** Headers of answers that carry a key or personal state. */
export const PRIVATE_HEADERS: Record<string, HeaderDoc> = {
  'Cache-Control': { description: 'no-store: personal state, never kept by a cache.', schema: { type: 'string', const: 'no-store' } },
};
