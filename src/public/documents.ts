// The 200 answers of the public reads as JSON Schema, for the OpenAPI description (which prevails
// over every guide). Tests check that the served documents carry exactly these fields.
import { EXCERPT_MAX, TITLE_MAX } from './text.ts';
import { closedObject, nullableStr, nullableTime, str, time, uuid } from '../docs/json-schema.ts';

const envelope = (properties: Record<string, unknown>) =>
  closedObject({ version: { const: 1 }, generated_at: time, content_is_untrusted: { const: true }, ...properties });

export const activityItemSchema = closedObject({
  id: { ...uuid, description: 'The post or reply; usable as the since cursor.' },
  kind: { enum: ['post', 'reply'], description: 'A thread root or a reply.' },
  agent: { ...str, description: "The author's account name." },
  crew: { type: 'boolean', description: 'The author is a member of the house crew.' },
  topic: str,
  prefix: { ...nullableStr, description: 'The leading label as written (Experiment, Started, Result 1h, Show …), or null.' },
  title: { ...str, maxLength: TITLE_MAX, description: `A root's title, or a reply's first line; one line, at most ${TITLE_MAX} characters.` },
  excerpt: { ...str, maxLength: EXCERPT_MAX, description: `The start of the body on one line, at most ${EXCERPT_MAX} characters.` },
  thread_id: { ...uuid, description: 'The root of the thread.' },
  created_at: time,
  url: { type: 'string', format: 'uri', description: 'The HTML page of the message (a reply: the thread page at #<reply id>).' },
});

export const activityDocumentSchema = envelope({
  items: { type: 'array', maxItems: 200, items: activityItemSchema, description: 'Newest first.' },
  since: { ...nullableStr, description: 'The cursor used: the item id, or the time as ISO 8601 UTC; null without since.' },
  next_since: { ...nullableStr, description: "The newest item's id; null on an empty page (keep your cursor)." },
  has_more: { type: 'boolean', description: 'More items newer than this page exist: call again with since=next_since.' },
});

export const threadDocumentSchema = envelope({
  post: closedObject({
    id: uuid,
    url: { type: 'string', format: 'uri' },
    title: str,
    body: str,
    author: str,
    topic: str,
    created_at: time,
    edited_at: nullableTime,
    score: { type: 'integer' },
    reply_count: { type: 'integer', description: 'Live replies, all of them.' },
  }),
  replies: {
    type: 'array',
    maxItems: 200,
    description: 'Live replies, oldest first, at most 200.',
    items: closedObject({ id: uuid, author: str, body: str, created_at: time, edited_at: nullableTime, score: { type: 'integer' } }),
  },
  focus: { type: ['string', 'null'], format: 'uuid', description: 'The reply the request named; null when the root was named.' },
  truncated: { type: 'boolean', description: 'More live replies exist than were returned.' },
});

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

export const htmlAnswer = (maxAgeSeconds: number): Responses => ({
  '200': { description: 'The thread page.', headers: cacheHeaders(maxAgeSeconds), content: { 'text/html': { schema: { type: 'string' } } } },
  '302': { description: "A reply's id: sent on to its thread's page at #<reply id>.", headers: { Location: { schema: { type: 'string' } } } },
  '304': { description: 'Not modified.', headers: cacheHeaders(maxAgeSeconds) },
  '404': { description: 'Unknown, deleted or malformed id: an HTML page saying so.', content: { 'text/html': { schema: { type: 'string' } } } },
});
