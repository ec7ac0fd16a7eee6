// The valibot schemas of the outreach routes: bodies, queries and answers (the sent list's answer
// lives with its listing in sent.ts, the log's document in log.ts).
import * as v from 'valibot';
import { describedAs, limitQuery, text, uuidField } from '../http/schema.ts';

// The write bodies are closed: a member a route does not know never reaches these schemas, as
// src/http/members.ts refuses it by name (400 INVALID_REQUEST, issue 28 item 1) before validation
// and before the secret rule (enforceNoSecrets), which scans every string of what remains.
export const ContactBody = v.object({
  email: v.pipe(text({ max: 254, min: 3 }), v.description('A professional address published for work; stored for sending only, never shown again.')),
  outlet: v.pipe(text({ max: 120, min: 1 }), v.description('The outlet or project the address belongs to.')),
  name: v.optional(v.pipe(text({ max: 120 }), v.description("The contact's name."))),
  beat: v.optional(v.pipe(text({ max: 200 }), v.description('What the contact covers.'))),
  source_url: v.pipe(
    text({ max: 2000, min: 8 }),
    v.description("The public https page on the address's own domain that shows the address; the server fetches it."),
  ),
});
export const ContactAnswer = v.strictObject({
  contact_id: v.pipe(v.string(), v.uuid()),
  duplicate: v.pipe(v.boolean(), v.description('true: the address was already a contact (any letter case); its id is answered and nothing is stored.')),
});
export const ContactsQuery = v.object({
  q: v.optional(v.pipe(v.string(), v.maxLength(200), v.description('Text in the outlet, name or beat (any case).'))),
  outlet: v.optional(v.pipe(v.string(), v.maxLength(120), v.description('Exactly this outlet (any case).'))),
  limit: limitQuery({ max: 200, def: 50 }),
});
export const ContactsAnswer = v.strictObject({
  contacts: v.array(
    v.strictObject({
      contact_id: v.pipe(v.string(), v.uuid()),
      outlet: v.string(),
      outlet_domain: v.pipe(v.string(), v.description("The address's registrable domain (the address itself is never shown).")),
      name: v.nullable(v.string()),
      beat: v.nullable(v.string()),
      status: v.pipe(v.picklist(['new', 'contacted', 'replied', 'suppressed', 'bounced']), v.description('suppressed and bounced are for ever.')),
      first_contact_at: v.pipe(v.nullable(v.string()), v.description('When the first e-mail to it was made (null: never).')),
      contactable_now: v.pipe(
        v.boolean(),
        v.description('A first contact could be sent now: new, its outlet domain has a first-contact slot, and the mode is not off.'),
      ),
    }),
  ),
});
export const EmailBody = v.object({
  contact_id: uuidField(),
  // The limits the e-mail rule checks (OUTREACH_TEXT_INVALID names what is wrong) are in the
  // description, so that generated clients know them; the schema's own bound is the serialized one.
  subject: v.pipe(text({ max: 400 }), describedAs<string>({ type: 'string', minLength: 5, maxLength: 90 }), v.description('5 to 90 characters, one line.')),
  body: v.pipe(
    text({ max: 5000 }),
    describedAs<string>({ type: 'string', minLength: 200, maxLength: 1200 }),
    v.description('200 to 1200 characters of plain text; at most 2 links, to allowlisted hosts only. The server appends its footer.'),
  ),
  experiment_id: v.pipe(uuidField(), v.description('The id of your own Experiment root this e-mail belongs to.')),
  kind: v.optional(v.picklist(['pitch', 'letter']), 'pitch'),
  follow_up_of: v.optional(v.pipe(uuidField(), v.description('The earlier e-mail this follows up or answers.'))),
});
export const EmailAnswer = v.strictObject({
  message_id: v.pipe(v.string(), v.uuid()),
  status: v.pipe(
    v.picklist(['queued', 'sent', 'refused', 'failed', 'bounced']),
    v.description(
      'queued: not sent yet (waits for the owner, or for the relay); sent: the relay accepted it; failed: relay error (retried 3 times; see GET /v1/outreach/sent); refused: a rule or the owner stopped it; bounced: a delivery report came back. Only sent means sent.',
    ),
  ),
  public_url: v.pipe(v.string(), v.description('Where the public log shows it once sent.')),
});
export const PostBody = v.object({
  channel: v.picklist(['one', 'two']),
  text: v.pipe(text({ max: 2000 }), v.description('At most 600 characters; channel two at most 1 @mention.')),
  experiment_id: v.pipe(uuidField(), v.description('The id of your own Experiment root this post belongs to.')),
});
export const PostAnswer = v.strictObject({
  post_id: v.pipe(v.string(), v.uuid()),
  status: v.pipe(
    v.picklist(['sending', 'posted', 'failed']),
    v.description('posted: the channel accepted it; failed: the webhook refused or did not answer (the slot is freed).'),
  ),
  public_url: v.pipe(
    v.nullable(v.string()),
    v.description('Where the public log shows the post (/outreach#p-<id>) once posted; null when it failed (a failed post is never in the log).'),
  ),
});
export const SentQuery = v.object({ limit: limitQuery({ max: 100, def: 25 }), before: v.optional(v.pipe(v.string(), v.maxLength(64))) });
/** The personal token of a stop or unsubscribe link. */
export const Token = v.object({ token: v.pipe(v.string(), v.maxLength(128)) });
export const LogPageQuery = v.object({ before: v.optional(v.pipe(v.string(), v.maxLength(64))) });

/** The members of a body that its schema names: what a write stores and fingerprints (with closed bodies, all of them). */
export const knownMembers = <T extends Record<string, unknown>>(schema: { entries: Record<string, unknown> }, body: T): T =>
  Object.fromEntries(Object.entries(body).filter(([name]) => Object.hasOwn(schema.entries, name))) as T;
