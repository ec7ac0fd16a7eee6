// Contacts (02-extensions "Outreach records"): an address published for work, checked against the
// free-mail, country-code and role-address rules and against its source page, which the server
// fetches itself under the SSRF rules (src/net/safe-fetch.ts). The address is stored for sending
// only and never shown again.
import type * as Tldts from 'tldts';
import type { Account } from '../accounts/accounts.ts';
import { iso } from '../clock.ts';
import type { AppContext } from '../context.ts';
import { newId } from '../clock.ts';
import { fail, failRetry } from '../http/errors.ts';
import { SafeFetchError, safeFetch } from '../net/safe-fetch.ts';
import FREE_MAIL from './data/free-mail.json';
import ROLE_PARTS from './data/role-local-parts.json';
import { DAY_MS, utcDayStart } from './settings.ts';
import { type ContactRow, type Mode, outreachStore } from './store.ts';
import { checkContactText, enforceNoSecrets } from './text.ts';

// tldts (the public suffix list, ~9 MB resident) loads on the first address checked, not at start-up.
let tldts: typeof Tldts | undefined;
function getDomain(host: string): string | null {
  tldts ??= require('tldts') as typeof Tldts;
  return tldts.getDomain(host);
}

const FREE = new Set((FREE_MAIL as string[]).map((d) => d.toLowerCase()));
const squash = (s: string) => s.toLowerCase().replace(/[._-]/g, '');
const ROLES = new Set((ROLE_PARTS as string[]).map(squash));

export interface Address {
  email: string; // as sent, trimmed
  key: string; // lower-cased
  local: string;
  host: string; // the address's domain, lower-cased
  domain: string; // its registrable domain: the outlet domain
}

const ADDRESS = /^([A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64})@((?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63})$/;

/** The address rules; answers the parsed address or throws the rule's code. */
export function checkAddress(ctx: AppContext, raw: string): Address {
  const email = raw.trim();
  const m = ADDRESS.exec(email);
  if (!m || email.length > 254 || m[1]!.startsWith('.') || m[1]!.endsWith('.') || m[1]!.includes('..')) fail('OUTREACH_INVALID_EMAIL');
  const local = m[1]!.toLowerCase();
  const host = m[2]!.toLowerCase();
  const domain = getDomain(host);
  if (!domain) fail('OUTREACH_INVALID_EMAIL', { reason: 'the domain is not under a public suffix' });
  if (FREE.has(host) || FREE.has(domain) || [...FREE].some((f) => host.endsWith(`.${f}`))) fail('OUTREACH_FREE_MAIL', { domain });
  const tld = ctx.config.outreach.blockedTld;
  if (tld !== '' && (host === tld || host.endsWith(`.${tld}`))) fail('OUTREACH_BLOCKED_DOMAIN', { tld });
  const bare = local.split('+')[0]!;
  if (ROLES.has(squash(bare))) fail('OUTREACH_ROLE_ADDRESS', { local_part: bare });
  return { email, key: email.toLowerCase(), local, host, domain };
}

const onDomain = (host: string, domain: string) => host === domain || host.endsWith(`.${domain}`);

const ENTITIES: Record<string, string> = { '&commat;': '@', '&period;': '.', '&amp;': '&', '&#64;': '@', '&#x40;': '@', '&#46;': '.', '&#x2e;': '.' };

/** The page's text as a reader sees the address in it (entities and %40 decoded, any case). */
function pageText(html: string): string {
  return html
    .toLowerCase()
    .replace(/&(?:commat|period|amp|#64|#x40|#46|#x2e);/g, (e) => ENTITIES[e] ?? e)
    .replace(/%40/g, '@');
}

/** The source page rule: a public https page on the address's own domain that shows the address. */
export async function checkSource(ctx: AppContext, address: Address, sourceUrl: string): Promise<void> {
  let url: URL;
  try {
    url = new URL(sourceUrl);
  } catch {
    return fail('OUTREACH_SOURCE_DOMAIN', { expected_domain: address.domain, reason: 'not a URL' });
  }
  if (url.protocol !== 'https:') fail('OUTREACH_SOURCE_NOT_PUBLIC', { reason: 'scheme' });
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  if (!onDomain(host, address.domain)) fail('OUTREACH_SOURCE_DOMAIN', { expected_domain: address.domain, host });
  const net = ctx.outbound.outreach;
  let page: Awaited<ReturnType<typeof safeFetch>>;
  try {
    page = await safeFetch(url.toString(), {
      allowLoopback: ctx.config.fetchAllowLoopback,
      headers: { accept: 'text/html,text/plain;q=0.9,*/*;q=0.1', 'user-agent': 'svc-outreach/1 (source check)' },
      ...(net.lookup ? { lookup: net.lookup } : {}),
      ...(net.ca ? { ca: net.ca } : {}),
    });
  } catch (e) {
    if (!(e instanceof SafeFetchError)) throw e;
    const refused = e.reason === 'scheme' || e.reason === 'port' || e.reason === 'userinfo' || e.reason === 'private_address';
    return fail(refused ? 'OUTREACH_SOURCE_NOT_PUBLIC' : 'OUTREACH_SOURCE_UNREACHABLE', { reason: e.reason });
  }
  const finalHost = new URL(page.url).hostname.toLowerCase();
  if (!onDomain(finalHost, address.domain)) fail('OUTREACH_SOURCE_DOMAIN', { expected_domain: address.domain, host: finalHost, reason: 'redirected away' });
  if (page.status < 200 || page.status > 299) fail('OUTREACH_SOURCE_UNREACHABLE', { reason: 'status', status: page.status });
  if (!pageText(page.text()).includes(address.key)) fail('OUTREACH_SOURCE_NO_ADDRESS');
}

export interface ContactInput {
  email: string;
  outlet: string;
  name?: string | undefined;
  beat?: string | undefined;
  source_url: string;
}

/** The new-contact allowance of the UTC day ("30 new per agent per day"; checked before the fetch and again in the write). */
export function checkContactAllowance(ctx: AppContext, account: Account): void {
  const now = ctx.clock.now();
  const day = utcDayStart(now);
  const limit = ctx.config.outreach.contactsPerAgentDay;
  if (outreachStore(ctx.db).contactsAddedSince.get(account.id, day)!.n >= limit) failRetry('OUTREACH_CONTACT_LIMIT', day + DAY_MS, now, { limit });
}

/** The write: a duplicate answers its id; else the allowance is checked again and the contact stored. */
export function storeContact(ctx: AppContext, account: Account, address: Address, input: ContactInput) {
  const s = outreachStore(ctx.db);
  const existing = s.contactByKey.get(address.key);
  if (existing) return { contact_id: existing.id, duplicate: true };
  checkContactAllowance(ctx, account);
  const id = newId(ctx);
  const outlet = input.outlet.trim();
  s.insertContact.run(
    id,
    address.email,
    address.key,
    address.domain,
    outlet,
    outlet.toLowerCase(),
    input.name?.trim() || null,
    input.beat?.trim() || null,
    input.source_url,
    account.id,
    ctx.clock.now(),
    crypto.randomUUID().replaceAll('-', '') + crypto.randomUUID().replaceAll('-', ''),
  );
  return { contact_id: id, duplicate: false };
}

export const existingContact = (ctx: AppContext, address: Address) => outreachStore(ctx.db).contactByKey.get(address.key) ?? null;

/**
 * Everything a new contact must pass before its write, cheapest first: the secret rule over every
 * member sent, the listed texts, the address rules; an address already known then answers its id
 * (no fetch, no allowance used); else the day's allowance, and last the source page, fetched
 * outside any transaction. Answers the known contact's answer, or the checked address to store.
 */
export async function checkNewContact(
  ctx: AppContext,
  account: Account,
  body: Pick<ContactInput, 'email' | 'outlet' | 'name' | 'beat' | 'source_url'>,
): Promise<{ known: { contact_id: string; duplicate: true } } | { address: Address }> {
  enforceNoSecrets(body);
  checkContactText(body);
  const address = checkAddress(ctx, body.email);
  const existing = existingContact(ctx, address);
  if (existing) return { known: { contact_id: existing.id, duplicate: true } };
  checkContactAllowance(ctx, account);
  await checkSource(ctx, address, body.source_url.trim());
  return { address };
}

export type ContactStatus = 'new' | 'contacted' | 'replied' | 'suppressed' | 'bounced';

export function contactStatus(c: ContactRow): ContactStatus {
  if (c.suppressed_at !== null) return 'suppressed';
  if (c.bounced_at !== null) return 'bounced';
  if (c.replied) return 'replied';
  if (c.first_contact_at !== null) return 'contacted';
  return 'new';
}

/** When the outlet domain has a first-contact slot again (null: it has one now). */
export function outletFreeAt(ctx: AppContext, domain: string, now: number): number | null {
  const firsts = outreachStore(ctx.db).firstsOfDomainSince.all(domain, now - 7 * DAY_MS);
  const limit = ctx.config.outreach.firstPerOutlet7d;
  if (firsts.length < limit) return null;
  // The slot frees when the oldest first contact that keeps the count at the limit leaves the window.
  return firsts[firsts.length - limit]!.created_at + 7 * DAY_MS;
}

export function listContacts(ctx: AppContext, mode: Mode, q: { q?: string | undefined; outlet?: string | undefined; limit: number }) {
  const now = ctx.clock.now();
  const rows = outreachStore(ctx.db).listContacts.all(q.outlet?.trim().toLowerCase() || null, q.q?.trim().toLowerCase() || null, q.limit);
  const free = new Map<string, boolean>();
  return rows.map((c) => {
    const status = contactStatus(c);
    if (!free.has(c.domain)) free.set(c.domain, outletFreeAt(ctx, c.domain, now) === null);
    return {
      contact_id: c.id,
      outlet: c.outlet,
      outlet_domain: c.domain,
      name: c.name,
      beat: c.beat,
      status,
      first_contact_at: c.first_contact_at === null ? null : iso(c.first_contact_at),
      contactable_now: mode !== 'off' && status === 'new' && free.get(c.domain) === true,
    };
  });
}
