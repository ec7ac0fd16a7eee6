// `svc admin outreach …`: the owner's set-up, the review queue and the channels, as operator
// actions (src/actions/action.ts).
import * as v from 'valibot';
import type { Role } from '../accounts/accounts.ts';
import { action } from '../actions/action.ts';
import { UsageError } from '../admin/args.ts';
import { iso } from '../clock.ts';
import type { AppContext } from '../context.ts';
import { mailboxAddress, outreachConfig } from './access.ts';
import { approvalRefusal, fleetRemaining } from './email.ts';
import { deliver, publicFooter } from './mailer.ts';
import { type Channel, type Mode, outreachStore } from './store.ts';
import { webhookUrlProblem } from './webhook.ts';

const MODES = ['off', 'review', 'auto'] as const;
const HOST = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
const ADDRESS = /^[^\s@]{1,64}@(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;

interface ConfigureInput {
  domain?: string;
  mailbox?: string;
  postal_address?: string;
  mode?: string;
  forward_to?: string;
}

function oneOf<T extends string>(value: string | undefined, allowed: readonly T[]): T {
  if (!value || !(allowed as readonly string[]).includes(value)) throw new UsageError(`expected one of ${allowed.join('|')}, got ${value ?? 'nothing'}`);
  return value as T;
}

function configure(ctx: AppContext, input: ConfigureInput) {
  const domain = input.domain?.trim().toLowerCase();
  const mailbox = input.mailbox?.trim();
  const postal = input.postal_address?.trim();
  const modeRaw = input.mode;
  const forwardTo = input.forward_to?.trim();
  if (!domain || !mailbox || !postal) throw new UsageError('outreach configure needs --domain D --mailbox M --postal-address A');
  if (!HOST.test(domain)) throw new UsageError(`--domain must be a domain name such as news.example.org, got ${domain}`);
  const box = mailbox.includes('@') ? mailbox : `${mailbox}@${domain}`;
  if (!ADDRESS.test(box) || !box.toLowerCase().endsWith(`@${domain}`)) throw new UsageError(`--mailbox must be a local part or an address at ${domain}`);
  if (postal.length < 10) throw new UsageError('--postal-address must be the full postal address (it is appended to every e-mail)');
  // `--forward-to none` (or an empty value) stops forwarding; left out, the address set before stays.
  const clearForward = forwardTo === '' || forwardTo?.toLowerCase() === 'none';
  if (forwardTo !== undefined && !clearForward && !ADDRESS.test(forwardTo))
    throw new UsageError('--forward-to must be an e-mail address, or none to stop forwarding');
  const before = outreachConfig(ctx);
  const mode: Mode = modeRaw !== undefined ? oneOf(modeRaw, MODES) : (before?.mode ?? 'review');
  const forward = clearForward ? null : (forwardTo ?? before?.forward_to ?? null);
  outreachStore(ctx.db).setConfig.run(domain, box, postal, mode, forward, ctx.clock.now());
  return status(ctx);
}

function status(ctx: AppContext) {
  const c = outreachConfig(ctx);
  const s = outreachStore(ctx.db);
  return {
    configured: c !== null,
    ...(c ? { domain: c.domain, mailbox: c.mailbox, postal_address: c.postal_address, mode: c.mode, forward_to: c.forward_to } : {}),
    relay: ctx.config.outreach.smtpUrl ? 'set' : 'not set (SVC_SMTP_URL)',
    dkim: ctx.config.outreach.dkimSelector && ctx.config.outreach.dkimKeyFile ? `selector ${ctx.config.outreach.dkimSelector}` : 'off',
    inbound_port: ctx.config.outreach.smtpInPort,
    channels: s.channels.all().map((ch) => ({ channel: ch.channel, set_at: iso(ch.set_at) })),
    queued: s.queued.all().length,
    fleet_remaining_today: fleetRemaining(ctx),
  };
}

function queue(ctx: AppContext) {
  const c = outreachConfig(ctx);
  return outreachStore(ctx.db)
    .queued.all()
    .map((m) => ({
      message_id: m.id,
      from: c ? `svc outreach <${mailboxAddress(c)}>` : null,
      sender: m.sender,
      outlet: m.outlet,
      kind: m.kind,
      role: m.role,
      subject: m.subject,
      body: m.body,
      // What the server appends when it sends, so the owner reads the e-mail whole (the personal
      // stop link stays a placeholder: it is the recipient's own).
      footer: publicFooter(m.footer),
      created_at: iso(m.created_at),
    }));
}

/** The owner's approval, in the action's transaction; delivery follows the commit (the action's `after`). */
function approve(ctx: AppContext, id: string) {
  const s = outreachStore(ctx.db);
  const m = s.message.get(id);
  if (m?.status !== 'queued') throw new UsageError(m ? `message ${id} is ${m.status}, not queued` : `no message ${id}`);
  const why = approvalRefusal(ctx, m);
  if (why) throw new UsageError(why);
  s.approve.get(ctx.clock.now(), id);
  return { message_id: id };
}

function reject(ctx: AppContext, id: string) {
  const s = outreachStore(ctx.db);
  const m = s.message.get(id);
  if (m?.status !== 'queued') throw new UsageError(m ? `message ${id} is ${m.status}, not queued` : `no message ${id}`);
  s.setStatus.run('refused', 'owner_rejected', id);
  return { message_id: id, status: 'refused' };
}

function clearChannel(ctx: AppContext, which: string) {
  const ch = oneOf(which, ['one', 'two'] as const) as Channel;
  outreachStore(ctx.db).clearChannel.run(ch);
  return { channel: ch, set: false };
}

/**
 * A channel's webhook: a URL that can never be delivered to (webhook.ts: https, port 443, no
 * user name, not a literal private address; loopback and plain http to it only with
 * SVC_FETCH_ALLOW_LOOPBACK, tests only) is refused here; a name is resolved and checked at each
 * delivery.
 */
function setChannel(ctx: AppContext, which: string, url: string) {
  const ch = oneOf(which, ['one', 'two'] as const) as Channel;
  const problem = webhookUrlProblem(url, ctx.config.fetchAllowLoopback);
  if (problem) throw new UsageError(problem);
  outreachStore(ctx.db).setChannel.run(ch, new URL(url).toString(), ctx.clock.now());
  return { channel: ch, set: true };
}

const OPERATORS: readonly Role[] = ['owner', 'operator'];
const MessageId = v.object({ message_id: v.string() });

export const OUTREACH_ACTIONS = [
  action({
    name: 'outreach configure',
    argv: '--domain D --mailbox M --postal-address A [--mode off|review|auto] [--forward-to ADDRESS|none]',
    input: v.object({
      domain: v.string(),
      mailbox: v.string(),
      postal_address: v.string(),
      mode: v.optional(v.string()),
      forward_to: v.optional(v.string()),
    }),
    who: OPERATORS,
    run: (ctx, i) => configure(ctx, i),
    audit: (i) => ({ target: i.domain.trim().toLowerCase() }),
  }),
  action({ name: 'outreach status', input: v.object({}), who: OPERATORS, run: (ctx) => status(ctx) }),
  action({ name: 'outreach queue', note: 'e-mails waiting for approval', input: v.object({}), who: OPERATORS, run: (ctx) => queue(ctx) }),
  action({
    name: 'outreach approve',
    argv: 'MESSAGE_ID',
    input: MessageId,
    who: OPERATORS,
    run: (ctx, i) => approve(ctx, i.message_id),
    after: async (ctx, r) => ({ message_id: r.message_id, status: await deliver(ctx, r.message_id) }),
    audit: (i) => ({ target: i.message_id }),
  }),
  action({
    name: 'outreach reject',
    argv: 'MESSAGE_ID',
    input: MessageId,
    who: OPERATORS,
    run: (ctx, i) => reject(ctx, i.message_id),
    audit: (i) => ({ target: i.message_id }),
  }),
  action({
    name: 'outreach channel set',
    argv: 'channel:one|two URL',
    input: v.object({ channel: v.string(), url: v.string() }),
    who: OPERATORS,
    run: (ctx, i) => setChannel(ctx, i.channel, i.url),
    audit: (i) => ({ target: i.channel }),
  }),
  action({
    name: 'outreach channel clear',
    argv: 'channel:one|two',
    input: v.object({ channel: v.string() }),
    who: OPERATORS,
    run: (ctx, i) => clearChannel(ctx, i.channel),
    audit: (i) => ({ target: i.channel }),
  }),
];
