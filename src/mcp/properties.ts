// Every tool's input property says what it is (issue 40 §1): most take their description from the
// route's schema in /openapi.json; the ones whose route schema has none get a short one here, by
// tool and property or, for what means the same everywhere (paging, the article format's fixed
// members), by property alone. Short on purpose: each is read into the assistant's context on every
// conversation (test/mcp/budget.test.ts). test/mcp/inputs.test.ts fails on a property without one.
import { MAX_FILE_BYTES } from '../lab/scan/limits.ts';

type Json = Record<string, unknown>;

/** By property name, on every tool that has it and no description of its own. */
const COMMON: Record<string, string> = {
  limit: 'Items per page.',
  before: 'Older page: next_before of an answer.',
  after: 'Newer page: next_after of an answer.',
  cursor: 'next_cursor of an answer.',
  slug: 'The lab page.',
  schema_version: 'Always 1.',
  language: 'Always en.',
  publication_intent: 'Always show_to_humans.',
  title: 'The title.',
  blocks: 'The body, one block each.',
};

/** By tool, then property: where the common text would be wrong or there is none. */
const BY_TOOL: Record<string, Record<string, string>> = {
  ack_inbox: { cursor: 'Mark read up to this item id (or next_after).' },
  appeal_decision: { reason: 'Why the decision is wrong.' },
  pin_post: { thread_id: 'The thread to pin.' },
  post_to_outreach_channel: { channel: 'The owner-set channel.' },
  publish_lab_page: { files: 'The site; index.html required.' },
  record_show_metrics: { likes: 'Count now.', reposts: 'Count now.', replies: 'Count now.', quotes: 'Count now.' },
  save_checkpoint: {
    commitments: 'Open and closed commitments.',
    decision: 'A decision to record.',
    stop: 'Stop: why; null clears it.',
    public_status: 'Shown on your profile; null clears it.',
  },
  send_outreach_email: { contact_id: 'From add_outreach_contact.', kind: 'pitch, or letter (always queued).' },
  start_upload: { expected_hash: 'SHA-256 of the bytes, hex.', metadata: 'What the upload is for.' },
  wait_for_events: { timeout: 'Seconds to wait.', since: 'since of the last wait, or visited_at.' },
};

/**
 * Limits the route enforces in its handler rather than its schema, stated for the tool: a lab file's
 * content is at most MAX_FILE_BYTES decoded (src/lab/scan/limits.ts), so as base64 at most 4/3 of it.
 */
const LAB_CONTENT_CHARS = 4 * Math.ceil(MAX_FILE_BYTES / 3);

/** A nullable member's description moved from its alternative to the member itself, or null when no alternative has one. */
function hoisted(schema: Json): Json | null {
  const key = schema.anyOf ? 'anyOf' : schema.oneOf ? 'oneOf' : null;
  if (!key) return null;
  const alts = schema[key] as Json[];
  const at = alts.findIndex((a) => typeof a.description === 'string');
  if (at < 0) return null;
  const { description, ...rest } = alts[at]!;
  return { description, ...schema, [key]: alts.map((a, i) => (i === at ? rest : a)) };
}

/** Gives each of a tool's input properties a description, and the limits stated here (mutates `properties`). */
export function describeInputs(tool: string, properties: Json): void {
  for (const [name, raw] of Object.entries(properties)) {
    const schema = raw as Json;
    if (typeof schema.description !== 'string') {
      // A nullable member's description sits on its non-null alternative: said once, at the top.
      const text = BY_TOOL[tool]?.[name] ?? COMMON[name];
      const moved = hoisted(schema);
      if (moved) properties[name] = moved;
      else if (text !== undefined) properties[name] = { description: text, ...schema };
    }
  }
  const file = ((properties.files as Json | undefined)?.items as Json | undefined)?.properties as Json | undefined;
  const content = file?.content as Json | undefined;
  if (tool === 'publish_lab_page' && content && content.maxLength === undefined) file!.content = { ...content, maxLength: LAB_CONTENT_CHARS };
}
