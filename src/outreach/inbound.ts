// Receiving (docs/decisions.md#outreach): an smtp-server listener on SVC_SMTP_IN_PORT (off when
// unset) takes mail for the mailbox; each message is parsed with mailparser and authenticated with mailauth (SPF, DKIM,
// DMARC). Only an authenticated message from the contacted address counts as a reply
// (from_contact). Out-of-office, vacation, list mail and delivery reports are `auto` and never
// count; a delivery report marks the contact bounced. Opt-out phrases in a reply from the contacted
// address suppress it for every agent. Every message is forwarded to the owner's address.
import type * as Tldts from 'tldts';
import type { AppContext } from '../context.ts';
import { newId } from '../clock.ts';
import { groupCommit } from '../db/group-commit.ts';
import { mailboxAddress, outreachConfig } from './access.ts';
import { forwardToOwner } from './mailer.ts';
import { type ContactRow, type MessageRow, outreachStore } from './store.ts';

// tldts (the public suffix list, ~9 MB resident) loads on the first address checked, not at start-up.
let tldts: typeof Tldts | undefined;
function getDomain(host: string): string | null {
  tldts ??= require('tldts') as typeof Tldts;
  return tldts.getDomain(host);
}

export interface Envelope {
  ip: string;
  helo: string;
  /** MAIL FROM ('' for a bounce). */
  sender: string;
}

export interface Received {
  reply_id: string;
  kind: 'reply' | 'auto' | 'bounce';
  message_id: string | null;
  from_contact: boolean;
  opt_out: boolean;
  forwarded: boolean;
}

const EXCERPT_MAX = 500;
const SUBJECT_MAX = 300;

// Received text is shown to the sending agent (GET /v1/outreach/sent) and in the forward's subject:
// control characters and lone surrogates are dropped, and it is cut at whole characters (a cut
// through a surrogate pair would leave half an emoji), so a subject of any length stores its start.
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what this drops
const UNSHOWN = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const clip = (s: string, max: number): string => Array.from(s.replace(UNSHOWN, ' ')).slice(0, max).join('');

const OPT_OUT =
  /\b(?:unsubscribe|opt(?:ed)?[ -]?out|remove (?:me|us) from (?:your|the|this|all|any)|take (?:me|us) off (?:your|the|this|all|any)|stop (?:e-?mailing|contacting|sending|writing)|do not (?:e-?mail|contact|write)|don'?t (?:e-?mail|contact|write) (?:me|us|again)|no (?:more|further) (?:e-?mails?|messages|contact)|never (?:e-?mail|contact|write to) (?:me|us) again|leave (?:me|us) alone)\b/i;
// A reply that is only the word, as people answer a mailing ("STOP", "Unsubscribe.").
const OPT_OUT_WORD = /^\s*(?:stop|unsubscribe|remove)\s*[.!]*\s*$/i;

/** Whether a reply's own words (or its subject) ask to stop; typographic apostrophes read as ASCII ones. */
function asksToStop(text: string, subject: string): boolean {
  const plain = (t: string) => t.replace(/[\u2018\u2019\u02bc\u2032\uff07]/g, "'");
  const firstLine =
    plain(text)
      .split(/\r?\n/)
      .find((l) => l.trim() !== '') ?? '';
  return (
    OPT_OUT.test(plain(text)) ||
    OPT_OUT.test(plain(subject)) ||
    OPT_OUT_WORD.test(firstLine) ||
    OPT_OUT_WORD.test(plain(subject).replace(/^(?:re|aw|sv|fw|fwd)\s*:\s*/i, ''))
  );
}

const AUTO_SUBJECT =
  /^\s*(?:auto(?:matic)?[ -]?(?:reply|response|answer)|out of (?:the )?office|ooo\b|vacation|on leave|away from|abwesenheit|absence|autoreply|automatische antwort|r[ée]ponse automatique)/i;

/** Organizational-domain alignment (DMARC relaxed mode). */
const aligned = (a: string | undefined, b: string): boolean => {
  if (!a) return false;
  const x = a.toLowerCase();
  return x === b || (getDomain(x) ?? x) === (getDomain(b) ?? b);
};

// biome-ignore lint/suspicious/noExplicitAny: mailparser's parsed message
type Parsed = any;

function headerLine(parsed: Parsed, name: string): string | null {
  const line = (parsed.headerLines as { key: string; line: string }[]).find((h) => h.key === name);
  return line ? line.line.slice(line.line.indexOf(':') + 1).trim() : null;
}

/** Why the message is automatic, or null for a message a person wrote. */
function automatic(parsed: Parsed, envelope: Envelope, raw: string): 'bounce' | 'auto' | null {
  const type = String(parsed.headers.get('content-type')?.value ?? '').toLowerCase();
  const params = parsed.headers.get('content-type')?.params ?? {};
  if (
    (type === 'multipart/report' && String(params['report-type'] ?? '').toLowerCase() === 'delivery-status') ||
    /^content-type:\s*message\/delivery-status/im.test(raw)
  ) {
    return 'bounce';
  }
  const autoSubmitted = headerLine(parsed, 'auto-submitted');
  if (autoSubmitted && autoSubmitted.toLowerCase() !== 'no') return 'auto';
  const precedence = headerLine(parsed, 'precedence')?.toLowerCase();
  if (precedence && ['bulk', 'junk', 'list', 'auto_reply'].includes(precedence)) return 'auto';
  for (const h of ['x-autoreply', 'x-autorespond', 'x-autoresponder', 'list-id', 'list-unsubscribe']) {
    if (headerLine(parsed, h) !== null) return 'auto';
  }
  if (envelope.sender === '' || /^(?:mailer-daemon|postmaster)@/i.test(envelope.sender)) return 'auto';
  if (AUTO_SUBJECT.test(parsed.subject ?? '')) return 'auto';
  return null;
}

/** The part a person wrote: quoted lines and the quoted tail left out, blanks squeezed. */
function ownText(text: string): string {
  const lines: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    if (/^\s*>/.test(line)) continue;
    if (/^\s*On .{4,200} wrote:\s*$/.test(line) || /^-{2,}\s*Original Message\s*-{2,}/i.test(line)) break;
    lines.push(line);
  }
  return lines.join('\n').replace(/\s+/g, ' ').trim();
}

/** Our message ids in In-Reply-To / References (or, for a bounce, anywhere in the returned text). */
function referencedMessage(ctx: AppContext, domain: string, texts: string[]): MessageRow | null {
  const s = outreachStore(ctx.db);
  const re = new RegExp(`<([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})@${domain.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}>`, 'gi');
  for (const t of texts) {
    for (const m of t.matchAll(re)) {
      const row = s.message.get(m[1]!.toLowerCase());
      if (row) return row;
    }
  }
  const header = /X-Svc-Outreach:\s*([0-9a-f-]{36})/i;
  for (const t of texts) {
    const m = header.exec(t);
    if (m) {
      const row = s.message.get(m[1]!.toLowerCase());
      if (row) return row;
    }
  }
  return null;
}

async function isAuthenticated(ctx: AppContext, raw: Buffer, envelope: Envelope, fromDomain: string): Promise<boolean> {
  const { authenticate } = await import('mailauth');
  const resolver = ctx.outbound.outreach.resolver;
  const result = await authenticate(raw, {
    ip: envelope.ip,
    helo: envelope.helo,
    sender: envelope.sender,
    mta: outreachConfig(ctx)?.domain ?? 'localhost',
    disableArc: true,
    disableBimi: true,
    ...(resolver ? { resolver: resolver as never } : {}),
  } as never);
  if (result.dmarc && result.dmarc.status.result === 'pass') return true;
  if (result.dkim.results.some((r) => r.status.result === 'pass' && aligned(r.signingDomain, fromDomain))) return true;
  return !!result.spf && result.spf.status.result === 'pass' && aligned(result.spf.domain, fromDomain);
}

/** Handles one received message (the listener calls this; tests may too). */
export async function receiveMessage(ctx: AppContext, raw: Buffer, envelope: Envelope): Promise<Received> {
  const { simpleParser } = await import('mailparser');
  const parsed: Parsed = await simpleParser(raw, { skipHtmlToText: false });
  const config = outreachConfig(ctx);
  const s = outreachStore(ctx.db);
  const rawText = raw.toString('utf8');
  const fromAddress: string = String(parsed.from?.value?.[0]?.address ?? '').toLowerCase();
  const fromDomain = fromAddress.split('@')[1] ?? '';
  let kind: Received['kind'] = automatic(parsed, envelope, rawText) ?? 'reply';
  const text: string = parsed.text ?? '';

  let message: MessageRow | null = null;
  let contact: ContactRow | null = null;
  if (config) {
    const refs = [headerLine(parsed, 'in-reply-to') ?? '', headerLine(parsed, 'references') ?? ''];
    message = referencedMessage(ctx, config.domain, kind === 'bounce' ? [...refs, rawText] : refs);
    if (kind === 'bounce') {
      const failed = /^Action:\s*failed/im.test(rawText);
      const recipient = /^Final-Recipient:\s*rfc822;\s*<?([^\s>]+)>?/im.exec(rawText)?.[1]?.toLowerCase();
      contact = recipient ? (s.contactByKey.get(recipient) ?? null) : null;
      if (!contact && message) contact = s.contact.get(message.contact_id) ?? null;
      if (!failed) kind = 'auto'; // a delay or success report is not a bounce
    } else {
      if (message) contact = s.contact.get(message.contact_id) ?? null;
      if (!contact && fromAddress) contact = s.contactByKey.get(fromAddress) ?? null;
      if (!message && contact) message = s.latestSentToContact.get(contact.id) ?? null;
    }
  }

  const fromTheContact = contact !== null && fromAddress === contact.email_key;
  const fromContact = kind === 'reply' && fromTheContact && fromDomain !== '' && (await isAuthenticated(ctx, raw, envelope, fromDomain));
  const own = ownText(text);
  const subject = typeof parsed.subject === 'string' ? clip(parsed.subject.replace(/\s+/g, ' ').trim(), SUBJECT_MAX) : null;
  const optOut = kind === 'reply' && fromTheContact && asksToStop(own, parsed.subject ?? '');
  const id = newId(ctx);
  const now = ctx.clock.now();
  await groupCommit(ctx.db, () => {
    s.insertReply.run(id, message?.id ?? null, contact?.id ?? null, now, kind, fromContact ? 1 : 0, optOut ? 1 : 0, subject, clip(own, EXCERPT_MAX));
    if (kind === 'bounce' && contact) {
      s.bounce.run(now, contact.id);
      if (message) s.markBounced.run(message.id);
      s.refuseOpenOfContact.run('contact_bounced', contact.id);
    }
    if (optOut && contact) {
      s.suppress.get(now, 'opt_out_reply', contact.id);
      s.refuseOpenOfContact.run('contact_opted_out', contact.id);
    }
  });
  const forwarded = await forwardToOwner(ctx, raw, `${kind}${contact ? ` from ${contact.outlet}` : ''}: ${subject ?? '(no subject)'}`);
  return { reply_id: id, kind, message_id: message?.id ?? null, from_contact: fromContact, opt_out: optOut, forwarded };
}

/** Starts the inbound listener on config.outreach.smtpInPort (port 0 picks one); a no-op when unset. */
export async function startOutreachInbound(ctx: AppContext): Promise<{ port: number; stop(): Promise<void> }> {
  const port = ctx.config.outreach.smtpInPort;
  if (port === null) return { port: 0, stop: async () => {} };
  const { SMTPServer } = await import('smtp-server');
  const server = new SMTPServer({
    name: outreachConfig(ctx)?.domain ?? 'localhost',
    authOptional: true,
    disabledCommands: ['AUTH'],
    size: 10 * 1024 * 1024,
    banner: 'svc outreach',
    logger: false,
    onRcptTo(address, _session, callback) {
      const config = outreachConfig(ctx);
      if (!config) return callback(new Error('outreach is not configured'));
      const to = address.address.toLowerCase();
      const mailbox = mailboxAddress(config).toLowerCase();
      const [local, domain] = mailbox.split('@') as [string, string];
      // The mailbox, with or without a +tag.
      if (to === mailbox || (to.endsWith(`@${domain}`) && to.split('@')[0]!.split('+')[0] === local)) return callback();
      const err = new Error('no such mailbox') as Error & { responseCode: number };
      err.responseCode = 550;
      return callback(err);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        if ((stream as unknown as { sizeExceeded?: boolean }).sizeExceeded) {
          const err = new Error('message too large') as Error & { responseCode: number };
          err.responseCode = 552;
          return callback(err);
        }
        const raw = Buffer.concat(chunks);
        const envelope = {
          ip: session.remoteAddress,
          helo: session.hostNameAppearsAs,
          sender: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
        };
        receiveMessage(ctx, raw, envelope).then(
          () => callback(),
          (e) => {
            console.error(JSON.stringify({ event: 'outreach_inbound_failed', error: String((e as Error)?.stack ?? e) }));
            const err = new Error('temporary failure') as Error & { responseCode: number };
            err.responseCode = 451;
            callback(err);
          },
        );
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, ctx.config.outreach.smtpInHost, () => resolve());
  });
  const address = server.server.address();
  const actual = typeof address === 'object' && address ? address.port : port;
  return { port: actual, stop: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
