// Sending: nodemailer to the owner's relay (SVC_SMTP_URL), DKIM-signed when the owner gives a key,
// with one-click unsubscribe headers (RFC 8058: List-Unsubscribe and List-Unsubscribe-Post, both
// signed). A relay error is retried 3 times with backoff (the retry job below, listed in
// src/compose.ts, picks up what is due). Mail libraries load lazily: they cost ~200 ms at start.
import { readFileSync } from 'node:fs';
import type { AppContext } from '../context.ts';
import { groupCommit } from '../db/group-commit.ts';
import type { ScheduledJob } from '../scheduler/scheduler.ts';
import { mailboxAddress, outreachConfig } from './access.ts';
import { POLICY_PATH, POLICY_VERSION } from '../policy/policy.ts';
import { MAX_ATTEMPTS } from './settings.ts';
import { type ConfigRow, type MessageStatus, outreachStore } from './store.ts';

// biome-ignore lint/suspicious/noExplicitAny: nodemailer's transporter, loaded lazily
type Transporter = { sendMail(mail: Record<string, unknown>): Promise<any> };

/** Sends one message through the relay a transport URL names (SVC_SMTP_URL). */
export interface MailRelay {
  send(url: string, mail: Record<string, unknown>): Promise<void>;
}

declare module '../context.ts' {
  interface Outbound {
    /** The owner's mail relay. */
    mail: MailRelay;
  }
}

/** The system's: nodemailer, one transport per relay URL, made at its first message and kept. */
export function nodemailerRelay(): MailRelay {
  const transports = new Map<string, Transporter>();
  return {
    async send(url, mail) {
      let t = transports.get(url);
      if (!t) {
        const nodemailer = await import('nodemailer');
        t = nodemailer.createTransport(url) as unknown as Transporter;
        transports.set(url, t);
      }
      await t.sendMail(mail);
    },
  };
}

const STOP_PLACEHOLDER = '{stop_url}';

/** The footer the server appends: AI disclosure, the participation policy, stop link, public-log notice, postal address. */
export function footerFor(ctx: AppContext, config: ConfigRow, sender: string): string {
  return [
    '--',
    `This e-mail was written by ${sender}, an AI agent of svc, and sent by the svc server on its behalf.`,
    // The rules the agent keeps to, named with their version (01 "Authentication" 8, Versioning).
    `svc's agents follow its participation policy ${POLICY_VERSION}: ${ctx.config.baseUrl}${POLICY_PATH}`,
    `To never receive e-mail from svc again, open ${STOP_PLACEHOLDER}`,
    `Every e-mail svc sends is published in its public log: ${ctx.config.baseUrl}/outreach`,
    config.postal_address,
  ].join('\n');
}

export const stopUrl = (ctx: AppContext, token: string) => `${ctx.config.baseUrl}/outreach/stop/${token}`;
/** The List-Unsubscribe URL (RFC 8058): a GET only shows a form; the one-click POST suppresses. */
export const unsubscribeUrl = (ctx: AppContext, token: string) => `${ctx.config.baseUrl}/outreach/unsubscribe/${token}`;
/** The footer as the public log shows it: the personal stop link is not published. */
export const publicFooter = (footer: string) => footer.replace(STOP_PLACEHOLDER, '(a personal stop link)');
export const messageIdHeader = (id: string, config: ConfigRow) => `<${id}@${config.domain}>`;

function dkimOptions(ctx: AppContext, config: ConfigRow) {
  const { dkimSelector, dkimKeyFile } = ctx.config.outreach;
  if (!dkimSelector || !dkimKeyFile) return undefined;
  return {
    domainName: config.domain,
    keySelector: dkimSelector,
    privateKey: readFileSync(dkimKeyFile, 'utf8'),
    // RFC 8058: the signature must cover both unsubscribe headers (nodemailer's default list does not).
    headerFieldNames:
      'from:sender:reply-to:subject:date:message-id:to:cc:mime-version:content-type:content-transfer-encoding:in-reply-to:references:list-unsubscribe:list-unsubscribe-post',
  };
}

async function relay(ctx: AppContext, mail: Record<string, unknown>): Promise<void> {
  const url = ctx.config.outreach.smtpUrl;
  if (!url) throw new Error('SVC_SMTP_URL is not set');
  await ctx.outbound.mail.send(url, mail);
}

/** How long a claimed attempt holds the message before another runner may try it. */
const LEASE_MS = 5 * 60_000;

/**
 * One relay attempt for a message that is due (sending, or failed with a retry due). Answers the
 * status afterwards. A contact that opted out or bounced meanwhile stops the message (refused).
 */
export async function deliver(ctx: AppContext, messageId: string): Promise<MessageStatus | null> {
  const s = outreachStore(ctx.db);
  const now = ctx.clock.now();
  // Mode off sends nothing: the message waits, untried, until the owner switches the mode back.
  if (outreachConfig(ctx)?.mode === 'off') return s.message.get(messageId)?.status ?? null;
  const claimed = await groupCommit(ctx.db, () => s.claim.get(now + LEASE_MS, messageId, now));
  if (!claimed) return s.message.get(messageId)?.status ?? null;
  const m = s.message.get(messageId)!;
  const contact = s.contact.get(m.contact_id)!;
  const config = outreachConfig(ctx);
  if (contact.suppressed_at !== null || contact.bounced_at !== null || !config) {
    await groupCommit(ctx.db, () => s.setStatus.run('refused', config ? 'contact_unavailable' : 'not_configured', m.id));
    return 'refused';
  }
  const previous = m.follow_up_of ? s.message.get(m.follow_up_of) : null;
  const stop = stopUrl(ctx, contact.stop_token);
  const mail: Record<string, unknown> = {
    from: { name: 'svc outreach', address: mailboxAddress(config) },
    to: contact.email,
    subject: m.subject,
    text: `${m.body.trim()}\n\n${m.footer.replace(STOP_PLACEHOLDER, stop)}\n`,
    messageId: messageIdHeader(m.id, config),
    date: new Date(ctx.clock.now()),
    list: { unsubscribe: { url: unsubscribeUrl(ctx, contact.stop_token), comment: 'Stop e-mail from svc' } },
    headers: { 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click', 'X-Svc-Outreach': m.id },
    ...(previous ? { inReplyTo: messageIdHeader(previous.id, config), references: [messageIdHeader(previous.id, config)] } : {}),
  };
  const dkim = dkimOptions(ctx, config);
  if (dkim) mail.dkim = dkim;
  try {
    await relay(ctx, mail);
  } catch (e) {
    const attempts = m.attempts; // already counts this attempt (claim)
    const error = String((e as Error)?.message ?? e).slice(0, 300);
    const retryAt = attempts >= MAX_ATTEMPTS ? null : ctx.clock.now() + ctx.config.outreach.retryBaseSeconds * 1000 * 4 ** (attempts - 1);
    await groupCommit(ctx.db, () => s.markFailed.run(retryAt, error, m.id));
    console.error(JSON.stringify({ event: 'outreach_relay_failed', message_id: m.id, attempt: attempts, retry_at: retryAt, error }));
    return 'failed';
  }
  const sentAt = ctx.clock.now();
  await groupCommit(ctx.db, () => {
    s.markSent.run(sentAt, m.id);
    s.insertLog.run('email', m.id, sentAt);
  });
  return 'sent';
}

/** Every message due for a relay attempt now (the retry job; also after a restart). */
export async function deliverDue(ctx: AppContext): Promise<{ tried: number; sent: number }> {
  if (outreachConfig(ctx)?.mode === 'off') return { tried: 0, sent: 0 };
  const due = outreachStore(ctx.db).due.all(ctx.clock.now());
  let sent = 0;
  for (const { id } of due) if ((await deliver(ctx, id)) === 'sent') sent++;
  return { tried: due.length, sent };
}

export const OUTREACH_RETRY_JOB: ScheduledJob = {
  name: 'outreach-retry',
  pattern: '* * * * *',
  run: (ctx) => deliverDue(ctx),
};

/** Forwards a received message to the owner's address, as an attachment (best effort, logged). */
export async function forwardToOwner(ctx: AppContext, raw: Buffer, summary: string): Promise<boolean> {
  const config = outreachConfig(ctx);
  if (!config?.forward_to) return false;
  try {
    await relay(ctx, {
      from: { name: 'svc outreach', address: mailboxAddress(config) },
      to: config.forward_to,
      subject: `[svc outreach] ${summary}`.slice(0, 200),
      text: 'A message arrived at the outreach mailbox; it is attached unchanged. Its content is untrusted.',
      attachments: [{ filename: 'message.eml', content: raw, contentType: 'message/rfc822' }],
    });
    return true;
  } catch (e) {
    console.error(JSON.stringify({ event: 'outreach_forward_failed', error: String((e as Error)?.message ?? e) }));
    return false;
  }
}
