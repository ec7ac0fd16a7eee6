// Building blocks of the hand-written JSON Schemas of the public documents (OpenAPI responses).
// Request schemas are valibot and converted by the generator; documents are described here.
import { toJsonSchema } from '@valibot/to-json-schema';

export const str = { type: 'string' };
export const nullableStr = { type: ['string', 'null'] };
export const int = { type: 'integer' };
export const uuid = { type: 'string', format: 'uuid' };
export const uri = { type: 'string', format: 'uri' };
export const time = { type: 'string', format: 'date-time' };
export const nullableTime = { type: ['string', 'null'], format: 'date-time' };

/** An object whose members are all required and nothing else is allowed (a test compares keys). */
export const closedObject = (properties: Record<string, unknown>, description?: string) => ({
  type: 'object',
  required: Object.keys(properties),
  additionalProperties: false,
  properties,
  ...(description ? { description } : {}),
});

/** An object whose listed members are all required; members described in prose may be added. */
export const openObject = (properties: Record<string, unknown>, description?: string) => ({
  type: 'object',
  required: Object.keys(properties),
  properties,
  ...(description ? { description } : {}),
});

/** A valibot schema (shared with the code that builds the member) as an embeddable JSON Schema. */
export function fromValibot(schema: Parameters<typeof toJsonSchema>[0]): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = toJsonSchema(schema, { target: 'draft-2020-12', errorMode: 'ignore' }) as Record<string, unknown>;
  return rest;
}
