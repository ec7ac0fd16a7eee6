// The article envelope (02-extensions "Article envelope"): checked member by member so that every
// refusal names its place (`blocks[3].level`), before anything else runs. Deterministic and cheap;
// the SVG check (sanitize.ts, in a worker) and the content rules come after it.
import { charCount } from '../http/body.ts';
import { type Details, type ErrorCode, fail } from '../http/errors.ts';
import type { BodyKey } from '../http/write.ts';
import {
  articleLimits,
  articleRequestBytes,
  BLOCK_TYPES,
  BLOCKS,
  type Block,
  CODE_LANGUAGE_MAX,
  INTENTS,
  LANGUAGE_PATTERN,
  LANGUAGES,
  LEVEL_MAX,
  LEVEL_MIN,
  LIST_ITEMS_MAX,
  type Kind,
  RUNTIMES,
  SCHEMA_VERSIONS,
  TITLE_MAX,
} from './article.ts';
import type { PubsSettings } from './settings.ts';

// The comments' blocks are described with the article's (src/comments/requests.ts).
export { blocksJsonSchema } from './article.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const LANGUAGE = new RegExp(LANGUAGE_PATTERN);

/**
 * What the envelope check and its key refuse a submission with, whatever the envelope carries (an
 * article, a revision, a comment): the codes every route taking one declares, in this order.
 */
export const ENVELOPE_CODES: readonly ErrorCode[] = [
  'PUBS_KEY_REQUIRED',
  'PUBS_KEY_MISMATCH',
  'INVALID_IDEMPOTENCY_KEY',
  'IDEMPOTENCY_CONFLICT',
  'PUBS_SCHEMA_VERSION',
  'PUBS_INVALID_ENVELOPE',
  'PUBS_TOO_LARGE',
];

export interface Content {
  schema_version: 1;
  language: 'en';
  publication_intent: 'show_to_humans';
  title: string;
  blocks: Block[];
}

export interface Envelope {
  content: Content;
  resume_publication: boolean;
  key: string; // envelopeKey's
}

const bad = (where: string, problem: string, expected?: unknown): never =>
  fail('PUBS_INVALID_ENVELOPE', { where, problem, ...(expected === undefined ? {} : { expected }) });

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/**
 * Why a text people will read is refused, or null: a control character other than a line break or
 * a tab (a bell, an escape, DEL, C1), or, in a one-line text such as a title, any control
 * character or a bidi embedding, override or isolate (U+202A–U+202E, U+2066–U+2069) that would
 * make what people read differ from what reviewers read.
 */
export function unreadable(text: string, oneLine = false): string | null {
  if (oneLine) return /[\p{Cc}\u202A-\u202E\u2066-\u2069]/u.test(text) ? 'must be one line of text without control or bidi override characters' : null;
  return /\p{Cc}/u.test(text.replace(/[\n\r\t]/g, '')) ? 'holds a control character (only line breaks and tabs are allowed)' : null;
}

function member(where: string, kind: Kind, value: unknown): unknown {
  switch (kind) {
    case 'text':
      if (typeof value !== 'string' || value.trim() === '') bad(where, 'must be a non-empty string');
      {
        const why = unreadable(value as string);
        if (why) bad(where, why);
      }
      return value;
    case 'short':
      if (typeof value !== 'string' || !LANGUAGE.test(value))
        bad(where, `must be a language name of 1..${CODE_LANGUAGE_MAX} letters, digits or +#._-`, 'typescript');
      return value;
    case 'level':
      if (typeof value !== 'number' || !Number.isInteger(value) || value < LEVEL_MIN || value > LEVEL_MAX)
        bad(where, `must be an integer ${LEVEL_MIN}..${LEVEL_MAX}`, 2);
      return value;
    case 'bool':
      if (typeof value !== 'boolean') bad(where, 'must be true or false');
      return value;
    case 'runtime':
      if (!RUNTIMES.includes(value as 'static')) bad(where, 'unsupported runtime', [...RUNTIMES]);
      return value;
    case 'items': {
      if (!Array.isArray(value) || value.length === 0 || value.length > LIST_ITEMS_MAX) bad(where, `must be an array of 1..${LIST_ITEMS_MAX} strings`);
      (value as unknown[]).forEach((item, i) => {
        if (typeof item !== 'string' || item.trim() === '') bad(`${where}[${i}]`, 'must be a non-empty string');
        const why = unreadable(item as string);
        if (why) bad(`${where}[${i}]`, why);
      });
      return value;
    }
  }
}

function parseBlock(raw: unknown, i: number): Block {
  const at = `blocks[${i}]`;
  if (!isObject(raw)) return bad(at, 'must be an object with a type');
  const type = raw.type;
  if (typeof type !== 'string' || !Object.hasOwn(BLOCKS, type)) return bad(`${at}.type`, 'unknown block type', BLOCK_TYPES);
  const spec = BLOCKS[type as Block['type']];
  for (const name of Object.keys(raw)) {
    if (name !== 'type' && !spec.some((m) => m.name === name))
      bad(
        `${at}.${name}`,
        `not a member of a ${type} block`,
        spec.map((m) => m.name),
      );
  }
  const block: Record<string, unknown> = { type };
  for (const { name, required, kind } of spec) {
    if (raw[name] === undefined) {
      if (required) bad(`${at}.${name}`, 'is required');
      continue;
    }
    block[name] = member(`${at}.${name}`, kind, raw[name]);
  }
  // A text's own limit is judged once the block is whole.
  for (const { name, maxChars } of spec)
    if (maxChars !== undefined && block[name] !== undefined && charCount(block[name] as string) > maxChars)
      bad(`${at}.${name}`, `at most ${maxChars} characters`);
  return block as Block;
}

const ENVELOPE_MEMBERS = ['schema_version', 'language', 'publication_intent', 'idempotency_key', 'request_key', 'title', 'blocks'];

export const KEY_MAX_CHARS = 200;

/**
 * The JSON Schema of the key members (idempotency_key and its alias request_key) that envelopeKey reads,
 * for every route whose body is an envelope; `key` describes idempotency_key on that route.
 */
export const keyProperties = (key: string) => ({
  idempotency_key: { type: 'string', minLength: 1, maxLength: KEY_MAX_CHARS, pattern: KEY_PATTERN, description: key },
  request_key: {
    type: 'string',
    minLength: 1,
    maxLength: KEY_MAX_CHARS,
    pattern: KEY_PATTERN,
    description: 'Alias of idempotency_key: send one of the two (both are taken only when equal; differing is 400 PUBS_KEY_MISMATCH).',
  },
});

/** A key: printable characters (no control character), not only spaces (envelopeKey's `norm`). */
const KEY_PATTERN = '^\\P{Cc}*[^\\s\\p{Cc}]\\P{Cc}*$';

/**
 * The key rule of an envelope in the description: exactly one of idempotency_key and request_key
 * (none is 400 PUBS_KEY_REQUIRED, two that differ 400 PUBS_KEY_MISMATCH; JSON Schema cannot say
 * "equal", so the description asks for one, which the server always takes).
 */
export const KEY_ONE_OF = { oneOf: [{ required: ['idempotency_key'] }, { required: ['request_key'] }] };

/**
 * The key of the envelope (articles, revisions and comments alike): idempotency_key in the body, or
 * its alias request_key; a header does not count. The spec makes it a string, so any string of
 * 1..KEY_MAX_CHARS printable characters is a key; a uuid is compared in lower case (the lost-write
 * lookup takes it in its Idempotency-Key header), any other string exactly as sent.
 */
export function envelopeKey(body: Record<string, unknown>): string {
  const { idempotency_key: a, request_key: b } = body;
  const norm = (name: string, value: unknown): string | undefined => {
    if (value === undefined) return undefined;
    const key = typeof value === 'string' ? value.trim() : '';
    if (key === '' || charCount(key) > KEY_MAX_CHARS || /\p{Cc}/u.test(key))
      fail(
        'INVALID_IDEMPOTENCY_KEY',
        { field: name, max_chars: KEY_MAX_CHARS, example: crypto.randomUUID() },
        `${name} must be a string of 1..${KEY_MAX_CHARS} printable characters (a fresh uuid is best).`,
      );
    return UUID.test(key) ? key.toLowerCase() : key;
  };
  const ka = norm('idempotency_key', a);
  const kb = norm('request_key', b);
  if (ka === undefined && kb === undefined) fail('PUBS_KEY_REQUIRED', { field: 'idempotency_key', alias: 'request_key', example: crypto.randomUUID() });
  if (ka !== undefined && kb !== undefined && ka !== kb) fail('PUBS_KEY_MISMATCH', { fields: ['idempotency_key', 'request_key'] });
  return (ka ?? kb)!;
}

/** Where the write pipeline (src/http/write.ts) finds an envelope's key, with the refusals above. */
export const ENVELOPE_KEY: BodyKey = { read: envelopeKey };

/** Checks an envelope (a new article, or a revision when `revision` is true) and its size limits. */
export function parseEnvelope(body: Record<string, unknown>, settings: PubsSettings, revision: boolean): Envelope {
  const allowed = revision ? [...ENVELOPE_MEMBERS, 'resume_publication'] : ENVELOPE_MEMBERS;
  for (const name of Object.keys(body)) if (!allowed.includes(name)) bad(name, 'not a member of the envelope', allowed);
  // The key is checked in its place among the members (a refusal names the first broken one) and
  // handed to the write pipeline as it is.
  const key = envelopeKey(body);
  if (body.schema_version === undefined) bad('schema_version', 'is required', 1);
  if (!SCHEMA_VERSIONS.includes(body.schema_version as 1)) fail('PUBS_SCHEMA_VERSION', { field: 'schema_version', supported: [...SCHEMA_VERSIONS] });
  if (!LANGUAGES.includes(body.language as 'en')) bad('language', 'unsupported language', [...LANGUAGES]);
  if (!INTENTS.includes(body.publication_intent as 'show_to_humans')) bad('publication_intent', 'unsupported intent', [...INTENTS]);
  if (typeof body.title !== 'string' || body.title.trim() === '' || charCount(body.title) > TITLE_MAX) bad('title', `must be 1..${TITLE_MAX} characters`);
  const titleWhy = unreadable(body.title as string, true);
  if (titleWhy) bad('title', titleWhy);
  if (revision && body.resume_publication !== undefined && typeof body.resume_publication !== 'boolean') bad('resume_publication', 'must be true or false');
  if (!Array.isArray(body.blocks) || body.blocks.length === 0) bad('blocks', 'must be a non-empty array of blocks');
  const raw = body.blocks as unknown[];
  const most = articleLimits(settings).blocks;
  if (raw.length > most.max) tooLarge(settings, { limit: most.limit, max: most.max, received: raw.length, where: 'blocks' });
  const blocks = raw.map(parseBlock);
  checkSizes(blocks, body.title as string, settings);
  return {
    content: { schema_version: 1, language: 'en', publication_intent: 'show_to_humans', title: body.title as string, blocks },
    resume_publication: body.resume_publication === true,
    key,
  };
}

/** 413 PUBS_TOO_LARGE naming the limit broken, with both budgets of the request (serialized bytes, decoded text) as every 413 gives. */
const tooLarge = (s: PubsSettings, d: Details): never =>
  fail('PUBS_TOO_LARGE', { ...d, max_request_bytes: articleRequestBytes(s), max_text_chars: s.maxChars });

// The text budget counts what people read (titles, texts, items, descriptions, captions); an SVG
// source has its own byte budget instead.
function checkSizes(blocks: Block[], title: string, s: PubsSettings): void {
  const limits = articleLimits(s);
  const over = (l: { limit: string; max: number }, received: number, where: string) => tooLarge(s, { limit: l.limit, max: l.max, received, where });
  let chars = charCount(title);
  let svgs = 0;
  blocks.forEach((b, i) => {
    if (b.type === 'svg') {
      svgs++;
      const bytes = Buffer.byteLength(b.source, 'utf8');
      if (bytes > limits.svgBytes.max) over(limits.svgBytes, bytes, `blocks[${i}].source`);
      chars += charCount(b.description) + (b.caption ? charCount(b.caption) : 0);
    } else if (b.type === 'list') chars += b.items.reduce((n, t) => n + charCount(t), 0);
    else chars += charCount(b.text);
  });
  if (svgs > limits.svgBlocks.max) over(limits.svgBlocks, svgs, 'blocks');
  if (chars > limits.characters.max) over(limits.characters, chars, 'blocks');
}

/**
 * What the content rules read of an envelope parseEnvelope accepted: the key members (client text
 * too: every string is scanned, docs/decisions.md) and every text of every block, named by its
 * place. An svg source is read as the text it draws (by the svg check, once the worker has parsed
 * it), not as markup.
 */
export function envelopeTexts(body: Record<string, unknown>): Record<string, unknown> {
  const content = body as unknown as Content;
  return {
    idempotency_key: body.idempotency_key,
    request_key: body.request_key,
    title: content.title,
    blocks: content.blocks.map((b) =>
      b.type === 'svg'
        ? { description: b.description, caption: b.caption }
        : b.type === 'list'
          ? { items: b.items }
          : { text: b.text, ...('language' in b ? { language: b.language } : {}) },
    ),
  };
}
