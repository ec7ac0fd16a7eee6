// The text rules of outreach e-mail and channel posts (02-extensions "Outreach" limits): lengths,
// plain text, links to allowlisted hosts only, and the refused content (price and profit talk,
// giveaways, claimed ties or endorsements, plus the shared prose rules), each match reported;
// secrets anywhere in a body are the shared SECRET_LIKE (enforceNoSecrets).
import { enforceContentRules, findPriceTalk, findSelfPitch, normalizeForScan } from '../content/index.ts';
import { hostOf, linksIn } from '../content/links.ts';
import type { AppContext } from '../context.ts';
import { fail } from '../http/errors.ts';
import LINK_HOSTS from './data/link-hosts.json';
import { mailboxAddress } from './access.ts';
import type { ConfigRow } from './store.ts';
import { BODY_MAX, BODY_MIN, CHANNEL_TWO_MENTIONS, MAX_LINKS, POST_MAX, SUBJECT_MAX, SUBJECT_MIN } from './settings.ts';

export const chars = (s: string): number => [...s].length;

export interface ContentMatch {
  rule: 'price_talk' | 'profit_talk' | 'giveaway' | 'claimed_tie' | 'self_pitch';
  where: string;
  /** The words matched. */
  match: string;
}

/**
 * Every string a client sends is scanned for secrets first (docs/decisions.md#content-rules): 422 SECRET_LIKE
 * naming its JSON path, never echoing it. That covers a contact's outlet, name, beat and source_url,
 * an e-mail's subject and body, a post's text (a member a route does not take never gets here: 400).
 * The other rules judge only the texts that go out (contentMatches): a contact's beat is the
 * journalist's own description ("covers token markets") and is no pitch of ours.
 */
export const enforceNoSecrets = (body: object): void => enforceContentRules(body, { priceTalk: false, selfPitch: false });

// Outreach's own refused content, beyond the shared rules. English only, as the shared rules are.
const OWN_RULES: readonly { rule: ContentMatch['rule']; re: RegExp }[] = [
  {
    rule: 'profit_talk',
    re: /\b(?:profits?|profitable|returns? on investment|roi|(?:\d+\s*)?x returns?|guaranteed (?:returns?|gains?|income)|to the moon|moon(?:ing|shot)|pump(?:ing|ed)?|passive income|get rich|make money|earn(?:ing)? (?:money|\$|usd|yield)|yield farming|apy|apr)\b/i,
  },
  {
    rule: 'giveaway',
    re: /\b(?:give-?aways?|air-?drops?|free (?:tokens?|coins?|nfts?|money|crypto)|prizes?|raffles?|sweepstakes?|lotter(?:y|ies)|win (?:a|an|free|the)\b|claim (?:your|a) (?:reward|prize|tokens?)|whitelist spots?)\b/i,
  },
  {
    rule: 'claimed_tie',
    re: /\b(?:endorsed by|endorsement (?:of|from)|partner(?:ed|ing|ship)? with|in partnership with|official partners?|backed by|sponsored by|affiliated with|on behalf of|approved by|certified by|working (?:closely )?with (?:the )?(?:team|foundation|founders?) (?:of|at|behind))\b/i,
  },
];

/** Every content match in the named fields (empty: the text may go out). */
export function contentMatches(fields: Record<string, string>): ContentMatch[] {
  const out: ContentMatch[] = [];
  for (const [where, text] of Object.entries(fields)) {
    const price = findPriceTalk(text);
    if (price) out.push({ rule: 'price_talk', where, match: price.match });
    const pitch = findSelfPitch(text);
    if (pitch) out.push({ rule: 'self_pitch', where, match: pitch.match });
    const plain = normalizeForScan(text);
    for (const { rule, re } of OWN_RULES) {
      const m = re.exec(plain) ?? re.exec(text);
      if (m) out.push({ rule, where, match: m[0].trim().slice(0, 80) });
    }
  }
  return out;
}

export function enforceOutreachContent(fields: Record<string, string>): void {
  const matches = contentMatches(fields);
  if (matches.length > 0) fail('OUTREACH_CONTENT_REFUSED', { matches });
}

/** The host of every link in the text, as a mail reader would link it: a bare domain is a link too. */
export const linkHostsOf = (text: string): string[] => linksIn(text).map(hostOf);

/** The hosts an e-mail may link to: the data file's and the service's own. */
export function allowedLinkHosts(ctx: AppContext): string[] {
  return [...new Set([...(LINK_HOSTS as string[]), new URL(ctx.config.baseUrl).hostname.toLowerCase()])];
}

const hostAllowed = (host: string, allowed: readonly string[]) => allowed.some((a) => host === a || host.endsWith(`.${a}`));

const HTML_TAG = /<\/?[a-z][a-z0-9-]*(?:\s[^<>]*)?\/?>|&(?:[a-z]+|#\d+|#x[0-9a-f]+);/i;
// Control characters other than tab and line breaks (and the bidi overrides that disguise text).
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what this refuses
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u202a-\u202e\u2066-\u2069]/;

// An e-mail address written in a text the public log shows: an outlet, a name, a beat, an
// e-mail's subject or body. Addresses are never shown again (02), whoever writes them.
const ADDRESS_IN_TEXT = /[^\s@<>()[\]"',;:]+@[^\s@<>()[\]"',;:]+\.[a-z]{2,63}(?![a-z0-9-])/gi;

/** The e-mail addresses a text holds, lower case. */
export const addressesIn = (text: string): string[] => [...text.matchAll(ADDRESS_IN_TEXT)].map((m) => m[0].toLowerCase());

/** A contact's outlet, name and beat are listed and logged: none may hold an address (400 naming the field). */
export function checkContactText(input: { outlet: string; name?: string | undefined; beat?: string | undefined }): void {
  for (const field of ['outlet', 'name', 'beat'] as const) {
    const value = input[field];
    if (value !== undefined && addressesIn(value).length > 0)
      fail('INVALID_REQUEST', { in: 'body', field, reason: `${field} must not hold an e-mail address: addresses are never shown, and this field is` });
  }
}

/** Lengths and plain text of an e-mail, then its links; answers nothing or throws. */
export function checkEmailText(ctx: AppContext, config: ConfigRow, subject: string, body: string): void {
  const problems: { field: string; rule: string; min?: number; max?: number; length?: number }[] = [];
  const mailbox = mailboxAddress(config).toLowerCase();
  const s = chars(subject.trim());
  if (s < SUBJECT_MIN || s > SUBJECT_MAX) problems.push({ field: 'subject', rule: 'length', min: SUBJECT_MIN, max: SUBJECT_MAX, length: s });
  if (/[\r\n]/.test(subject)) problems.push({ field: 'subject', rule: 'one_line' });
  const b = chars(body.trim());
  if (b < BODY_MIN || b > BODY_MAX) problems.push({ field: 'body', rule: 'length', min: BODY_MIN, max: BODY_MAX, length: b });
  for (const [field, text] of [
    ['subject', subject],
    ['body', body],
  ] as const) {
    if (HTML_TAG.test(text)) problems.push({ field, rule: 'plain_text' });
    if (CONTROL.test(text)) problems.push({ field, rule: 'control_characters' });
    // The public log shows the text: only the service's own mailbox may be written in it.
    if (addressesIn(text).some((a) => a !== mailbox)) problems.push({ field, rule: 'email_address' });
  }
  if (problems.length > 0) fail('OUTREACH_TEXT_INVALID', { problems });
  const allowed = allowedLinkHosts(ctx);
  const hosts = [...linkHostsOf(subject), ...linkHostsOf(body)];
  const refused = [...new Set(hosts.filter((h) => !hostAllowed(h, allowed)))];
  if (hosts.length > MAX_LINKS || refused.length > 0) fail('OUTREACH_LINKS', { links: hosts.length, max_links: MAX_LINKS, refused, allowed_hosts: allowed });
}

const MENTION = /(?<![\w@])@[A-Za-z0-9_]{2,32}\b/g;

/** A channel post's text: 1..600 characters, and on channel two at most one @mention. */
export function checkPostText(text: string, channel: 'one' | 'two'): void {
  const problems: { rule: string; max?: number; length?: number; mentions?: number }[] = [];
  const n = chars(text.trim());
  if (n < 1 || n > POST_MAX) problems.push({ rule: 'length', max: POST_MAX, length: n });
  if (CONTROL.test(text)) problems.push({ rule: 'control_characters' });
  const mentions = [...text.matchAll(MENTION)].length;
  if (channel === 'two' && mentions > CHANNEL_TWO_MENTIONS) problems.push({ rule: 'mentions', max: CHANNEL_TWO_MENTIONS, mentions });
  if (problems.length > 0) fail('OUTREACH_POST_INVALID', { problems });
}
