// POST /v1/outreach/email: every rule of the spec in one transaction (02-extensions "Outreach"
// limits). A refused e-mail stores nothing. Mode review queues every e-mail for the owner; auto
// hands it to the relay once committed, except a letter, which always waits for the owner (in mode
// off too, where every other e-mail is refused).
import type { Account } from '../accounts/accounts.ts';
import type { AppContext } from '../context.ts';
import { newId } from '../clock.ts';
import { fail, failRetry } from '../http/errors.ts';
import { outreachConfig } from './access.ts';
import { contactStatus, outletFreeAt } from './contacts.ts';
import { deliver, footerFor } from './mailer.ts';
import { DAY_MS, moscowDayStart } from './settings.ts';
import { type ConfigRow, type MessageRole, type MessageRow, type MessageStatus, outreachStore } from './store.ts';
import { checkEmailText, enforceNoSecrets, enforceOutreachContent } from './text.ts';

export interface EmailInput {
  contact_id: string;
  subject: string;
  body: string;
  experiment_id: string;
  kind?: 'pitch' | 'letter' | undefined;
  follow_up_of?: string | undefined;
}

export const publicUrl = (ctx: AppContext, id: string) => `${ctx.config.baseUrl}/outreach#m-${id}`;

/** The message went out or still may (store.ts liveMessage): refused and given-up messages never reach anyone. */
export const isLive = (m: Pick<MessageRow, 'status' | 'next_attempt_at'>): boolean =>
  m.status === 'queued' || m.status === 'sending' || m.status === 'sent' || m.status === 'bounced' || (m.status === 'failed' && m.next_attempt_at !== null);

/** The spec's statuses (docs/decisions.md#outreach): a message with the relay right now is not sent yet, so it is reported queued. */
export const reportedStatus = (status: MessageStatus): Exclude<MessageStatus, 'sending'> => (status === 'sending' ? 'queued' : status);

/** Which role the e-mail takes in its conversation, or the rule it breaks. */
function roleOf(ctx: AppContext, account: Account, input: EmailInput, history: MessageRow[], replied: boolean, now: number): MessageRole {
  const counted = history.filter(isLive);
  if (input.follow_up_of === undefined) {
    if (counted.length > 0) fail('OUTREACH_ALREADY_CONTACTED');
    return 'first';
  }
  const earlier = counted.find((m) => m.id === input.follow_up_of);
  if (!earlier || earlier.sender_id !== account.id) fail('OUTREACH_FOLLOW_UP_REFUSED', { rule: 'follow_up_of_not_yours' });
  if (earlier.status !== 'sent') fail('OUTREACH_FOLLOW_UP_REFUSED', { rule: 'earlier_not_sent', earlier_status: earlier.status });
  if (replied) {
    const answers = counted.filter((m) => m.role === 'answer').length;
    if (answers >= ctx.config.outreach.answersAfterReply)
      fail('OUTREACH_FOLLOW_UP_REFUSED', { rule: 'answers_used', max_answers: ctx.config.outreach.answersAfterReply });
    return 'answer';
  }
  if (counted.some((m) => m.role === 'follow_up')) fail('OUTREACH_FOLLOW_UP_REFUSED', { rule: 'follow_up_used' });
  const first = counted.find((m) => m.role === 'first');
  const firstAt = first?.sent_at ?? first?.created_at ?? now;
  const due = firstAt + ctx.config.outreach.followUpDays * DAY_MS;
  if (now < due) fail('OUTREACH_FOLLOW_UP_REFUSED', { rule: 'too_early', retry_at: new Date(due).toISOString(), min_days: ctx.config.outreach.followUpDays });
  return 'follow_up';
}

/**
 * The text rules, before the write's transaction (a refused e-mail costs nothing): secrets in any
 * member sent, then lengths, plain text and links, then the refused content of what goes out.
 */
export function checkEmailTexts(ctx: AppContext, config: ConfigRow, body: Pick<EmailInput, 'subject' | 'body'>): void {
  enforceNoSecrets(body);
  checkEmailText(ctx, config, body.subject, body.body);
  enforceOutreachContent({ subject: body.subject, body: body.body });
}

/** The write (inside runWrite's transaction): checks every rule, then stores the message. */
export function createEmail(ctx: AppContext, account: Account, config: ConfigRow, input: EmailInput) {
  const s = outreachStore(ctx.db);
  const now = ctx.clock.now();
  const kind = input.kind ?? 'pitch';
  // Mode off sends nothing, but a letter is queued for the owner "in any mode" (02 transitions):
  // it waits like one in review, and the owner can approve it once the mode is review or auto.
  if (config.mode === 'off' && kind !== 'letter') fail('OUTREACH_SENDING_OFF');
  if (!s.ownExperiment.get(input.experiment_id, account.id)) fail('OUTREACH_NOT_YOUR_EXPERIMENT');
  const contact = s.contact.get(input.contact_id);
  if (!contact) fail('NOT_FOUND', { contact_id: input.contact_id });
  const status = contactStatus(contact);
  if (status === 'suppressed' || status === 'bounced') fail('OUTREACH_CONTACT_UNAVAILABLE', { status });
  const role = roleOf(ctx, account, input, s.messagesOfContact.all(contact.id), status === 'replied', now);
  if (role === 'first') {
    const freeAt = outletFreeAt(ctx, contact.domain, now);
    if (freeAt !== null) failRetry('OUTREACH_OUTLET_LIMIT', freeAt, now, { domain: contact.domain, limit: ctx.config.outreach.firstPerOutlet7d });
  }
  const day = moscowDayStart(now);
  const { sendsPerAgentDay, fleetCap } = ctx.config.outreach;
  if (s.senderDay.get(day, account.id)!.n >= sendsPerAgentDay) failRetry('OUTREACH_AGENT_DAY_LIMIT', day + DAY_MS, now, { limit: sendsPerAgentDay });
  if (s.fleetDay.get(day)!.n >= fleetCap) failRetry('OUTREACH_FLEET_CAP', day + DAY_MS, now, { limit: fleetCap });
  const queued = config.mode !== 'auto' || kind === 'letter';
  const initial: MessageStatus = queued ? 'queued' : 'sending';
  const id = newId(ctx);
  s.insertMessage.run(
    id,
    contact.id,
    account.id,
    input.experiment_id,
    kind,
    role,
    input.follow_up_of ?? null,
    contact.domain,
    input.subject.trim(),
    input.body.trim(),
    footerFor(ctx, config, account.name),
    initial,
    day,
    now,
    queued ? null : now,
  );
  return { message_id: id, status: initial, public_url: publicUrl(ctx, id) };
}

/**
 * The answer once committed: a fresh e-mail in mode auto goes to the relay at once (a replay never
 * sends again), and the status answered is the message's status now, as the spec reports it.
 */
export async function emailAnswerNow(ctx: AppContext, answer: ReturnType<typeof createEmail>, fresh: boolean) {
  if (fresh && answer.status === 'sending') await deliver(ctx, answer.message_id);
  const now = outreachStore(ctx.db).message.get(answer.message_id);
  return { ...answer, status: reportedStatus(now?.status ?? answer.status) };
}

/**
 * The owner's approval of a queued message (inside its transaction): nothing is sent in mode off,
 * and a message approved on a later Moscow day than it was queued on counts against the day of
 * approval, so the sender's and the fleet's day caps hold for what actually goes out that day.
 * Answers null when it may go, else why not.
 */
export function approvalRefusal(ctx: AppContext, m: MessageRow): string | null {
  const config = outreachConfig(ctx);
  if (!config) return 'outreach is not configured';
  if (config.mode === 'off') return 'outreach is in mode off: nothing is sent (switch the mode to review or auto first)';
  const s = outreachStore(ctx.db);
  const day = moscowDayStart(ctx.clock.now());
  if (m.day === day) return null;
  const { sendsPerAgentDay, fleetCap } = ctx.config.outreach;
  const next = new Date(day + DAY_MS).toISOString();
  if (s.senderDay.get(day, m.sender_id)!.n >= sendsPerAgentDay)
    return `${m.sender} already has ${sendsPerAgentDay} e-mails this Moscow day; approve after ${next}`;
  if (s.fleetDay.get(day)!.n >= fleetCap) return `the fleet cap (${fleetCap}) of this Moscow day is used up; approve after ${next}`;
  s.moveToDay.run(day, m.id);
  return null;
}

/** Fleet e-mails left in the current Moscow day (the office shows it). */
export function fleetRemaining(ctx: AppContext): number {
  const day = moscowDayStart(ctx.clock.now());
  return Math.max(0, ctx.config.outreach.fleetCap - outreachStore(ctx.db).fleetDay.get(day)!.n);
}
