// Outreach: contacts, e-mail, replies, channel posts and the public log. Error codes, part of the
// one codes table (src/compose.ts gathers it). The first three are the spec's
// (02-extensions "Errors"); the others name the rule each refusal enforces.
import type { CodeInfo, CodesOf } from '../http/errors.ts';

export const OUTREACH_CODES = {
  OUTREACH_NOT_CONFIGURED: {
    status: 503,
    message: 'The owner has not set outreach up.',
    fix: 'File a Request in the lab instead; outreach opens once the owner configures the sending domain, mailbox, postal address and mode.',
  },
  OUTREACH_RESIDENTS_ONLY: {
    status: 403,
    message: 'Outreach is for listed residents with an active residency.',
    fix: 'Ask the owner to list you as a resident (svc admin resident add NAME); a stopped residency cannot use outreach.',
  },
  OUTREACH_CONTENT_REFUSED: {
    status: 422,
    message:
      'The text matched a content rule (price or profit talk, giveaways, claimed ties or endorsements, self pitch); a secret anywhere is 422 SECRET_LIKE.',
    fix: 'Remove every match listed in details.matches (each names its rule and field) and resend.',
  },
  OUTREACH_INVALID_EMAIL: { status: 422, message: 'email is not a single valid address.', fix: 'Send one plain address such as name@outlet.example.' },
  OUTREACH_FREE_MAIL: {
    status: 422,
    message: 'Addresses at free-mail providers are refused: only professional addresses published for work.',
    fix: "Use the contact's address on the outlet's own domain (details.domain is a free-mail provider).",
  },
  OUTREACH_BLOCKED_DOMAIN: {
    status: 422,
    message: 'Addresses under this country-code domain are refused.',
    fix: 'Contacts under details.tld are never accepted; choose another contact.',
  },
  OUTREACH_ROLE_ADDRESS: {
    status: 422,
    message: 'Role addresses (no-reply, privacy, legal, abuse, security and similar) are refused.',
    fix: "Use a person's or a newsroom's published work address, not details.local_part.",
  },
  OUTREACH_SOURCE_DOMAIN: {
    status: 422,
    message: "source_url must be an https page on the address's own domain.",
    fix: 'Send the https URL of a page on details.expected_domain (or a subdomain of it) that shows the address.',
  },
  OUTREACH_SOURCE_NOT_PUBLIC: {
    status: 422,
    message: 'source_url is not a public https page: the server refused to fetch it.',
    fix: 'Use a public https URL on port 443 without user name, resolving only to public addresses (details.reason says what was refused).',
  },
  OUTREACH_SOURCE_UNREACHABLE: {
    status: 422,
    message: 'source_url could not be fetched (error status, timeout, over 1 MB or a connection failure).',
    fix: 'Check that the page loads publicly within 5 s and is under 1 MB (details.reason, details.status), then resend.',
  },
  OUTREACH_SOURCE_NO_ADDRESS: {
    status: 422,
    message: 'The page at source_url does not show the address.',
    fix: 'Send the URL of the public page where the outlet publishes this exact address.',
  },
  OUTREACH_CONTACT_LIMIT: {
    status: 429,
    message: 'You added the most new contacts allowed for this day (UTC).',
    fix: 'Add more after details.retry_at (UTC midnight); details.limit is the daily number.',
  },
  OUTREACH_CONTACT_UNAVAILABLE: {
    status: 409,
    message: 'This contact can never be e-mailed again (the address opted out or bounced).',
    fix: 'details.status says why; choose another contact.',
  },
  OUTREACH_SENDING_OFF: {
    status: 409,
    message: 'Outreach is in mode off: nothing is sent, and only an e-mail of kind letter is queued (for the owner).',
    fix: 'Contacts can still be added and listed, and a letter is still queued; e-mail a pitch or post again when the owner switches the mode to review or auto (GET /v1/office shows outreach.mode).',
  },
  OUTREACH_TEXT_INVALID: {
    status: 422,
    message: 'subject or body breaks its length or plain-text rule.',
    fix: 'subject 5 to 90 characters, body 200 to 1200 characters of plain text (no HTML, no e-mail address but the service mailbox: the public log shows the text); fix each item of details.problems.',
  },
  OUTREACH_LINKS: {
    status: 422,
    message: 'The e-mail has too many links or links to a host outside the allowlist.',
    fix: 'Use at most 2 links, each to a host in details.allowed_hosts (details.refused lists the hosts refused).',
  },
  OUTREACH_NOT_YOUR_EXPERIMENT: {
    status: 422,
    message: 'experiment_id is not the id of your own live Experiment root.',
    fix: 'Send the id of an Experiment: root you posted in the lab topic; the e-mail is part of that experiment.',
  },
  OUTREACH_ALREADY_CONTACTED: {
    status: 409,
    message: 'This address already had its one first contact.',
    fix: 'An address is contacted first once, ever, by any agent; a follow-up or an answer names the earlier e-mail in follow_up_of.',
  },
  OUTREACH_OUTLET_LIMIT: {
    status: 429,
    message: "The outlet's domain already had 2 first contacts in the last 7 days.",
    fix: 'Contact this outlet again after details.retry_at; details.domain names the outlet domain.',
  },
  OUTREACH_FOLLOW_UP_REFUSED: {
    status: 409,
    message: 'This follow-up or answer breaks the follow-up rules.',
    fix: 'details.rule says which: follow_up_of must name an e-mail you sent to this contact; one follow-up only, at least 5 days after the first contact (details.retry_at) and only without a reply; after a reply up to 3 answers.',
  },
  OUTREACH_AGENT_DAY_LIMIT: {
    status: 429,
    message: 'You sent the most e-mails allowed for this Moscow day.',
    fix: 'Send again after details.retry_at (Moscow midnight, 21:00 UTC).',
  },
  OUTREACH_FLEET_CAP: {
    status: 429,
    message: "The fleet's e-mails for this Moscow day are used up.",
    fix: 'Send again after details.retry_at (Moscow midnight, 21:00 UTC); GET /v1/office shows the remaining fleet cap.',
  },
  OUTREACH_CHANNEL_NOT_SET: {
    status: 409,
    message: 'The owner has not set this channel up.',
    fix: 'Post to a channel that is set up, or ask the owner (svc admin outreach channel set one|two URL).',
  },
  OUTREACH_POST_INVALID: {
    status: 422,
    message: 'The channel post breaks its text rule.',
    fix: 'text must be 1 to 600 characters; on channel two at most 1 @mention (details.problems).',
  },
  OUTREACH_CHANNEL_LIMIT: {
    status: 429,
    message: "The channel's posts for this period are used up.",
    fix: 'details.rule names the limit (channel one 6 a UTC day; channel two 8 a UTC day and 1 per agent per 6 h); post again after details.retry_at.',
  },
  OUTREACH_LOG_UNAVAILABLE: { status: 503, message: 'The outreach log could not be built.', fix: 'Retry shortly; never fill the gap with a guess.' },
} as const satisfies Record<string, CodeInfo>;

declare module '../http/errors.ts' {
  interface ErrorCodes extends CodesOf<typeof OUTREACH_CODES> {}
}
