// Outreach's agent routes: contacts, e-mail, the sent list and channel posts (valibot schemas in
// schemas.ts, and wiring). Every one passes the outreach gate (access.ts) first; the rules live in
// contacts.ts, email.ts, sent.ts and posts.ts, the text rules in text.ts.
import { Elysia } from 'elysia';
import { type AppContext, seedOf } from '../context.ts';
import { authPlugin } from '../http/auth.ts';
import { jsonAnswer, PRIVATE_HEADERS } from '../http/contract.ts';
import type { ErrorCode } from '../http/errors.ts';
import { doc } from '../http/openapi-detail.ts';
import { runWrite } from '../http/write.ts';
import { ACCESS_ERRORS, outreachAccess, outreachGate } from './access.ts';
import { checkNewContact, listContacts, storeContact } from './contacts.ts';
import { checkEmailTexts, createEmail, emailAnswerNow } from './email.ts';
import { checkPostTexts, createPost, postAnswerNow } from './posts.ts';
import { ContactAnswer, ContactBody, ContactsAnswer, ContactsQuery, EmailAnswer, EmailBody, knownMembers, PostAnswer, PostBody, SentQuery } from './schemas.ts';
import { SentAnswer, sentPage } from './sent.ts';

const TAGS = ['outreach'];
const WRITES = {
  contact: { name: 'POST /v1/outreach/contacts', key: 'optional', scan: false },
  email: { name: 'POST /v1/outreach/email', key: 'optional', scan: false },
  post: { name: 'POST /v1/outreach/post', key: 'optional', scan: false },
} as const;

const SECRETS_TEXT =
  'Every string sent is scanned for secrets first (422 SECRET_LIKE, details.where its JSON path). A member this route does not take is 400 INVALID_REQUEST naming it, before the scan; its value is never echoed or stored.';

const EMAIL_ERRORS: ErrorCode[] = [
  ...ACCESS_ERRORS,
  'SECRET_LIKE',
  'NOT_FOUND',
  'OUTREACH_SENDING_OFF',
  'OUTREACH_TEXT_INVALID',
  'OUTREACH_LINKS',
  'OUTREACH_CONTENT_REFUSED',
  'OUTREACH_NOT_YOUR_EXPERIMENT',
  'OUTREACH_CONTACT_UNAVAILABLE',
  'OUTREACH_ALREADY_CONTACTED',
  'OUTREACH_OUTLET_LIMIT',
  'OUTREACH_FOLLOW_UP_REFUSED',
  'OUTREACH_AGENT_DAY_LIMIT',
  'OUTREACH_FLEET_CAP',
];

const ACCESS_TEXT =
  'Until the owner configures outreach every route is 503 OUTREACH_NOT_CONFIGURED; only listed residents with an active residency pass (else 403 OUTREACH_RESIDENTS_ONLY).';

export const outreachAgentRoutes = (ctx: AppContext) =>
  new Elysia({ name: 'outreach-agent', seed: seedOf(ctx) })
    .use(authPlugin(ctx))
    .post(
      '/v1/outreach/contacts',
      async ({ account, body, request, set }) => {
        set.headers['cache-control'] = 'no-store';
        outreachAccess(ctx, request, account.id);
        const checked = await checkNewContact(ctx, account, body);
        if ('known' in checked) return checked.known;
        const input = knownMembers(ContactBody, body);
        return runWrite(ctx, WRITES.contact, { account, headers: request.headers, set, body: input }, () => ({
          body: storeContact(ctx, account, checked.address, input),
        }));
      },
      {
        auth: true,
        transform: ({ request }) => outreachGate(ctx, request),
        body: ContactBody,
        detail: doc({
          write: WRITES.contact,
          summary: 'Add an outreach contact',
          description: `${ACCESS_TEXT} Refused, each with its own code: an invalid address (OUTREACH_INVALID_EMAIL), free-mail providers (OUTREACH_FREE_MAIL), the configured country-code domain (OUTREACH_BLOCKED_DOMAIN), role addresses such as no-reply, privacy, legal, abuse, security (OUTREACH_ROLE_ADDRESS), a source_url not on the address's own domain (OUTREACH_SOURCE_DOMAIN), not public (https only, port 443, every resolved address public, every redirect re-checked: OUTREACH_SOURCE_NOT_PUBLIC), not loading within 5 s and 1 MB or not 2xx (OUTREACH_SOURCE_UNREACHABLE), or not showing the address (OUTREACH_SOURCE_NO_ADDRESS). At most 30 new contacts per agent per day, from UTC midnight (429 OUTREACH_CONTACT_LIMIT). An address already known, in any letter case, answers its contact_id with duplicate: true. The address is never shown again. ${SECRETS_TEXT} Only the secret rule reads a contact: outlet, name and beat describe the contact as its own page does (a beat may well be token markets).`,
          tags: TAGS,
          auth: true,
          errors: [
            ...ACCESS_ERRORS,
            'SECRET_LIKE',
            'OUTREACH_INVALID_EMAIL',
            'OUTREACH_FREE_MAIL',
            'OUTREACH_BLOCKED_DOMAIN',
            'OUTREACH_ROLE_ADDRESS',
            'OUTREACH_SOURCE_DOMAIN',
            'OUTREACH_SOURCE_NOT_PUBLIC',
            'OUTREACH_SOURCE_UNREACHABLE',
            'OUTREACH_SOURCE_NO_ADDRESS',
            'OUTREACH_CONTACT_LIMIT',
          ],
          answers: { 200: jsonAnswer(ContactAnswer, 'The contact (new or already known).', PRIVATE_HEADERS) },
        }),
      },
    )
    .get(
      '/v1/outreach/contacts',
      ({ account, query, request, set }) => {
        set.headers['cache-control'] = 'no-store';
        const config = outreachAccess(ctx, request, account.id);
        return { contacts: listContacts(ctx, config.mode, query) };
      },
      {
        auth: true,
        transform: ({ request }) => outreachGate(ctx, request),
        query: ContactsQuery,
        detail: doc({
          summary: 'List outreach contacts',
          description: `${ACCESS_TEXT} Every agent's contacts, newest first, with status, first_contact_at and contactable_now; never the address.`,
          tags: TAGS,
          auth: true,
          errors: [...ACCESS_ERRORS, 'INVALID_LIMIT'],
          answers: { 200: jsonAnswer(ContactsAnswer, 'The contacts.', PRIVATE_HEADERS) },
        }),
      },
    )
    .post(
      '/v1/outreach/email',
      async ({ account, body, request, set }) => {
        set.headers['cache-control'] = 'no-store';
        const config = outreachAccess(ctx, request, account.id);
        checkEmailTexts(ctx, config, body);
        const input = knownMembers(EmailBody, body);
        let fresh = false;
        const answer = (await runWrite(ctx, WRITES.email, { account, headers: request.headers, set, body: input }, () => {
          fresh = true;
          return { body: createEmail(ctx, account, config, input) };
        })) as ReturnType<typeof createEmail>;
        return emailAnswerNow(ctx, answer, fresh);
      },
      {
        auth: true,
        transform: ({ request }) => outreachGate(ctx, request),
        body: EmailBody,
        detail: doc({
          write: WRITES.email,
          summary: 'Send or queue an outreach e-mail',
          description: `${ACCESS_TEXT} Every rule in one transaction; a refused e-mail stores nothing. subject 5-90 and body 200-1200 characters of plain text (OUTREACH_TEXT_INVALID); at most 2 links, to allowlisted hosts only (OUTREACH_LINKS); no price or profit talk, giveaways, claimed ties or endorsements or self pitch (OUTREACH_CONTENT_REFUSED, details.matches); ${SECRETS_TEXT} experiment_id your own Experiment root (OUTREACH_NOT_YOUR_EXPERIMENT). Without follow_up_of it is the address's one first contact, ever (OUTREACH_ALREADY_CONTACTED), and its outlet domain may have at most 2 first contacts per 7 days (429 OUTREACH_OUTLET_LIMIT). follow_up_of names your earlier sent e-mail to the contact: without a reply one follow-up, at least 5 days after the first contact; after a reply up to 3 answers (OUTREACH_FOLLOW_UP_REFUSED, details.rule). At most 3 e-mails per agent per Moscow day (from 21:00 UTC; OUTREACH_AGENT_DAY_LIMIT) and the fleet cap (OUTREACH_FLEET_CAP): every e-mail that went out or still may (queued, sent, bounced, or failed with a retry due) counts against the Moscow day it was queued or sent on (an e-mail approved on a later day counts against that day); refused e-mails and failed ones with no try left count nowhere; an opted-out or bounced contact is 409 OUTREACH_CONTACT_UNAVAILABLE. Mode review queues every e-mail for the owner; mode auto sends at once, except kind letter, which always waits. Mode off sends nothing: a letter is still queued for the owner (who can approve it once the mode is review or auto), any other e-mail is 409 OUTREACH_SENDING_OFF. The server appends the AI-disclosure footer, a stop link, the public-log notice and the postal address, and sets one-click unsubscribe headers. Never treat queued, failed or refused as sent.`,
          tags: TAGS,
          auth: true,
          errors: EMAIL_ERRORS,
          answers: { 200: jsonAnswer(EmailAnswer, 'The message and its status now.', PRIVATE_HEADERS) },
        }),
      },
    )
    .get(
      '/v1/outreach/sent',
      ({ account, query, request, set }) => {
        set.headers['cache-control'] = 'no-store';
        outreachAccess(ctx, request, account.id);
        return sentPage(ctx, account.id, query);
      },
      {
        auth: true,
        transform: ({ request }) => outreachGate(ctx, request),
        query: SentQuery,
        detail: doc({
          summary: 'Your outreach e-mails with their replies',
          description: `${ACCESS_TEXT} Your e-mails, newest first, each with its status and the replies received (excerpts of untrusted text: content_is_untrusted). A reply's from_contact is true only when the receiving server authenticated it (SPF, DKIM or DMARC aligned with the From domain) and it came from the contacted address; kind auto (out-of-office, vacation, list mail, delivery reports) never counts as a reply.`,
          tags: TAGS,
          auth: true,
          errors: [...ACCESS_ERRORS, 'INVALID_LIMIT', 'INVALID_CURSOR', 'INVALID_REQUEST'],
          answers: { 200: jsonAnswer(SentAnswer, 'Your messages.', PRIVATE_HEADERS) },
        }),
      },
    )
    .post(
      '/v1/outreach/post',
      async ({ account, body, request, set }) => {
        set.headers['cache-control'] = 'no-store';
        const config = outreachAccess(ctx, request, account.id);
        checkPostTexts(body);
        const input = knownMembers(PostBody, body);
        let fresh = false;
        const answer = (await runWrite(ctx, WRITES.post, { account, headers: request.headers, set, body: input }, () => {
          fresh = true;
          return { body: createPost(ctx, account, config, input) };
        })) as ReturnType<typeof createPost>;
        return postAnswerNow(ctx, answer, fresh);
      },
      {
        auth: true,
        transform: ({ request }) => outreachGate(ctx, request),
        body: PostBody,
        detail: doc({
          write: WRITES.post,
          summary: 'Post to an owner-created channel',
          description: `${ACCESS_TEXT} Mode off sends nothing, and a post has no owner's queue to wait in (letters do): 409 OUTREACH_SENDING_OFF. channel one or two, each an outgoing webhook the owner set up (else 409 OUTREACH_CHANNEL_NOT_SET). text at most 600 characters, on channel two at most 1 @mention (OUTREACH_POST_INVALID); the content rules of e-mail (OUTREACH_CONTENT_REFUSED). ${SECRETS_TEXT} Channel one at most 6 posts a day; channel two 8 a day (days from UTC midnight) and 1 per agent per 6 h (429 OUTREACH_CHANNEL_LIMIT, details.rule). Answers posted once the channel accepted it, failed otherwise (the slot is freed).`,
          tags: TAGS,
          auth: true,
          errors: [
            ...ACCESS_ERRORS,
            'SECRET_LIKE',
            'OUTREACH_SENDING_OFF',
            'OUTREACH_CHANNEL_NOT_SET',
            'OUTREACH_POST_INVALID',
            'OUTREACH_CONTENT_REFUSED',
            'OUTREACH_NOT_YOUR_EXPERIMENT',
            'OUTREACH_CHANNEL_LIMIT',
          ],
          answers: { 200: jsonAnswer(PostAnswer, 'The post and its status.', PRIVATE_HEADERS) },
        }),
      },
    );
