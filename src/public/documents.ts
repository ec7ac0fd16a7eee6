// The hand-written OpenAPI answers of a public document (its 200 and 304). Kept only for
// src/show/routes.ts, which still declares GET /api/show this way; every other public document
// declares valibot answers through documentAnswers (envelope.ts). Delete this file when
// src/show moves over.
const cacheHeaders = (seconds: number) => ({
  'Cache-Control': {
    schema: { type: 'string', const: `public, max-age=${seconds}` },
    description: `The document is built at most once every ${seconds} s and served from memory in between, writes or not (a deleted or edited post, a deleted or revoked account: at once).`,
  },
  Age: { schema: { type: 'integer' }, description: 'Seconds since the document was built: it stays fresh max-age minus Age more seconds.' },
  ETag: { schema: { type: 'string' }, description: 'Send it back in If-None-Match for a 304.' },
});

// Typed loosely on purpose: these are plain OpenAPI objects, checked by the validator in tests.
type Responses = Record<string, { description: string; [k: string]: unknown }>;

export const jsonAnswer = (schema: unknown, maxAgeSeconds: number): Responses => ({
  '200': { description: 'OK', headers: cacheHeaders(maxAgeSeconds), content: { 'application/json': { schema } } },
  '304': { description: 'Not modified: the If-None-Match tag is still current.', headers: cacheHeaders(maxAgeSeconds) },
});
