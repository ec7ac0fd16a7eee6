// `svc admin outreach …` (listed in src/admin/cli.ts): the owner's set-up, the review queue and
// the channels.
import { type AdminGroup, oneOf, option, positional, UsageError } from '../admin/args.ts';
import { iso } from '../clock.ts';
import type { AppContext } from '../context.ts';
import { tx } from '../db/open.ts';
import { outreachConfig } from './access.ts';
import { approvalRefusal, fleetRemaining } from './email.ts';
import { deliver } from './mailer.ts';
import { type Channel, type Mode, outreachStore } from './store.ts';

const MODES = ['off', 'review', 'auto'] as const;
const HOST = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
const ADDRESS = /^[^\s@]{1,64}@(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;

function configure(ctx: AppContext, args: string[]) {
  const domain = option(args, '--domain')?.trim().toLowerCase();
  const mailbox = option(args, '--mailbox')?.trim();
  const postal = option(args, '--postal-address')?.trim();
  const modeRaw = option(args, '--mode');
  const forwardTo = option(args, '--forward-to')?.trim();
  positional(args, 0);
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
  return outreachStore(ctx.db)
    .queued.all()
    .map((m) => ({
      message_id: m.id,
      sender: m.sender,
      outlet: m.outlet,
      kind: m.kind,
      role: m.role,
      subject: m.subject,
      body: m.body,
      created_at: iso(m.created_at),
    }));
}

async function approve(ctx: AppContext, id: string) {
  const s = outreachStore(ctx.db);
  const refusal = tx(ctx.db, () => {
    const m = s.message.get(id);
    if (m?.status !== 'queued') return m ? `message ${id} is ${m.status}, not queued` : `no message ${id}`;
    const why = approvalRefusal(ctx, m);
    if (why) return why;
    s.approve.get(ctx.clock.now(), id);
    return null;
  });
  if (refusal) throw new UsageError(refusal);
  const after = await deliver(ctx, id);
  return { message_id: id, status: after };
}

function reject(ctx: AppContext, id: string) {
  const s = outreachStore(ctx.db);
  const m = s.message.get(id);
  if (m?.status !== 'queued') throw new UsageError(m ? `message ${id} is ${m.status}, not queued` : `no message ${id}`);
  s.setStatus.run('refused', 'owner_rejected', id);
  return { message_id: id, status: 'refused' };
}

function channel(ctx: AppContext, args: string[]) {
  const [verb, which, url] = args;
  const ch = oneOf(which, ['one', 'two'] as const) as Channel;
  const s = outreachStore(ctx.db);
  if (verb === 'clear') {
    positional(args, 2);
    s.clearChannel.run(ch);
    return { channel: ch, set: false };
  }
  if (verb !== 'set') throw new UsageError('outreach channel set one|two URL | outreach channel clear one|two');
  positional(args, 3);
  let u: URL;
  try {
    u = new URL(url!);
  } catch {
    throw new UsageError('the channel URL must be an https webhook URL');
  }
  if (u.protocol !== 'https:' && !(u.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(u.hostname))) {
    throw new UsageError('the channel URL must be an https webhook URL');
  }
  s.setChannel.run(ch, u.toString(), ctx.clock.now());
  return { channel: ch, set: true };
}

export const OUTREACH_ADMIN: AdminGroup = {
  group: 'outreach',
  usage: `svc admin outreach configure --domain D --mailbox M --postal-address A [--mode off|review|auto] [--forward-to ADDRESS|none]
svc admin outreach status
svc admin outreach queue            (e-mails waiting for approval)
svc admin outreach approve|reject MESSAGE_ID
svc admin outreach channel set one|two URL
svc admin outreach channel clear one|two`,
  run(ctx, action, args) {
    switch (action) {
      case 'configure':
        return configure(ctx, args);
      case 'status':
        positional(args, 0);
        return status(ctx);
      case 'queue':
        positional(args, 0);
        return queue(ctx);
      case 'approve':
        return approve(ctx, positional(args, 1)[0]!);
      case 'reject':
        return reject(ctx, positional(args, 1)[0]!);
      case 'channel':
        return channel(ctx, args);
      default:
        throw new UsageError(`unknown admin command: outreach ${action ?? '(none)'}`);
    }
  },
};
