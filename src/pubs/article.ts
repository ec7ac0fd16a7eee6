// The article, described once: the block kinds and their members, and the limits (the fixed ones
// here, the self-hoster's in settings.ts). The envelope check (envelope.ts) walks this table, the
// routes' JSON Schema (requests.ts, and the comments' blocks) is made from it, and so are the
// route's prose (agent-routes.ts), the capabilities' limits (viewer.ts) and the request's byte
// budget (the route's declaration reads articleRequestBytes).
import type { PubsSettings } from './settings.ts';

export const SCHEMA_VERSIONS = [1] as const;
export const LANGUAGES = ['en'] as const;
export const INTENTS = ['show_to_humans'] as const;
export const TITLE_MAX = 300;
export const CODE_LANGUAGE_MAX = 40;
export const LIST_ITEMS_MAX = 200;
export const SVG_DESCRIPTION_MAX = 1000;

export type Block =
  | { type: 'paragraph' | 'quote'; text: string }
  | { type: 'heading'; level: number; text: string }
  | { type: 'code'; text: string; language?: string }
  | { type: 'list'; items: string[]; ordered?: boolean }
  | { type: 'svg'; source: string; description: string; caption?: string; runtime: 'static' };

/** What a member holds: a text people read, a heading level, a flag, list items, the runtime, a language name. */
export type Kind = 'text' | 'level' | 'bool' | 'items' | 'runtime' | 'short';

export interface Member {
  name: string;
  required: boolean;
  kind: Kind;
  /** At most this many characters (a text). */
  maxChars?: number;
}

const member = (name: string, kind: Kind, required = true, maxChars?: number): Member => ({
  name,
  required,
  kind,
  ...(maxChars === undefined ? {} : { maxChars }),
});

/** The members each block type takes, in the order a refusal looks for the first broken one. */
export const BLOCKS: Record<Block['type'], Member[]> = {
  paragraph: [member('text', 'text')],
  quote: [member('text', 'text')],
  heading: [member('level', 'level'), member('text', 'text')],
  code: [member('text', 'text'), member('language', 'short', false)],
  list: [member('items', 'items'), member('ordered', 'bool', false)],
  svg: [member('source', 'text'), member('description', 'text', true, SVG_DESCRIPTION_MAX), member('caption', 'text', false), member('runtime', 'runtime')],
};
export const BLOCK_TYPES = Object.keys(BLOCKS) as Block['type'][];

export const LEVEL_MIN = 1;
export const LEVEL_MAX = 6;
export const LANGUAGE_PATTERN = `^[A-Za-z0-9+#._-]{1,${CODE_LANGUAGE_MAX}}$`;
export const RUNTIMES = ['static'] as const;

// A text people read: something besides spaces, no control character but line breaks and tabs
// (envelope.ts `unreadable`). A one-line text (a title) has no control character and no bidi
// override at all.
const TEXT_PATTERN = '^[\\n\\r\\t\\P{Cc}]*[^\\s\\p{Cc}][\\n\\r\\t\\P{Cc}]*$';
const ONE_LINE = '\\p{Cc}\\u202A-\\u202E\\u2066-\\u2069';
export const TITLE_PATTERN = `^[^${ONE_LINE}]*[^\\s${ONE_LINE}][^${ONE_LINE}]*$`;
const textSchema = { type: 'string', minLength: 1, pattern: TEXT_PATTERN };

function memberSchema(m: Member, maxListItems: number): Record<string, unknown> {
  switch (m.kind) {
    case 'text':
      return m.maxChars === undefined ? textSchema : { ...textSchema, maxLength: m.maxChars };
    case 'level':
      return { type: 'integer', minimum: LEVEL_MIN, maximum: LEVEL_MAX };
    case 'short':
      return { type: 'string', pattern: LANGUAGE_PATTERN };
    case 'items':
      return { type: 'array', minItems: 1, maxItems: maxListItems, items: textSchema };
    case 'bool':
      return { type: 'boolean' };
    case 'runtime':
      return { const: RUNTIMES[0] };
  }
}

/** The JSON Schema of the envelope's fixed members and its title (for the description). */
export const envelopeMemberSchemas = () => ({
  schema_version: { const: SCHEMA_VERSIONS[0] },
  language: { const: LANGUAGES[0] },
  publication_intent: { const: INTENTS[0] },
});
export const titleSchema = () => ({ type: 'string', minLength: 1, maxLength: TITLE_MAX, pattern: TITLE_PATTERN });

/** The JSON Schema of a blocks array holding the given kinds (for the description). */
export const blocksJsonSchema = (kinds: readonly Block['type'][], limits: { maxBlocks: number; maxListItems: number }) => ({
  type: 'array',
  minItems: 1,
  maxItems: limits.maxBlocks,
  items: {
    oneOf: kinds.map((k) => ({
      type: 'object',
      additionalProperties: false,
      required: ['type', ...BLOCKS[k].filter((m) => m.required).map((m) => m.name)],
      properties: { type: { const: k }, ...Object.fromEntries(BLOCKS[k].map((m) => [m.name, memberSchema(m, limits.maxListItems)])) },
    })),
  },
});

// How a member is named in prose: "caption?" when optional, with its values where they are few.
function memberProse(m: Member): string {
  if (m.kind === 'level') return `${m.name} ${LEVEL_MIN}..${LEVEL_MAX}`;
  if (m.kind === 'runtime') return `${m.name}: "${RUNTIMES[0]}"`;
  return m.required ? m.name : `${m.name}?`;
}

/** The block kinds in prose, kinds with the same members together: "paragraph/quote {text}, heading {level 1..6, text}, …". */
export function blocksProse(kinds: readonly Block['type'][] = BLOCK_TYPES): string {
  const groups = new Map<string, string[]>();
  for (const k of kinds) {
    const members = BLOCKS[k].map(memberProse).join(', ');
    groups.set(members, [...(groups.get(members) ?? []), k]);
  }
  return [...groups].map(([members, types]) => `${types.join('/')} {${members}}`).join(', ');
}

/**
 * An article's serialized budget, from its own limits: every svg source at its maximum with each
 * byte JSON-escaped (2 bytes), every character of text written as a surrogate pair of \\uXXXX
 * escapes (12 bytes), and 64 KB for the rest of the envelope. A valid article always fits; the
 * envelope check then enforces the decoded limits (PUBS_TOO_LARGE).
 */
export const articleRequestBytes = (s: Pick<PubsSettings, 'svgMaxPerArticle' | 'svgMaxBytes' | 'maxChars'>): number =>
  s.svgMaxPerArticle * s.svgMaxBytes * 2 + s.maxChars * 12 + 64 * 1024;

/** The limits an article is held to (413 PUBS_TOO_LARGE names one by its `limit`), with their prose. */
export const articleLimits = (s: PubsSettings) => ({
  blocks: { limit: 'blocks', max: s.maxBlocks, prose: `${s.maxBlocks} blocks` },
  characters: { limit: 'characters', max: s.maxChars, prose: `${s.maxChars} characters of text` },
  svgBytes: { limit: 'svg_source_bytes', max: s.svgMaxBytes, prose: `svg source ${s.svgMaxBytes} bytes` },
  svgBlocks: { limit: 'svg_blocks', max: s.svgMaxPerArticle, prose: `${s.svgMaxPerArticle} svg blocks` },
});

/** The limits in prose, in the order the route's description gives them. */
export const limitsProse = (s: PubsSettings): string =>
  Object.values(articleLimits(s))
    .map((l) => l.prose)
    .join(', ');
