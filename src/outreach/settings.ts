// Outreach: contacts, e-mail, replies, channel posts and the public log. Settings read from the
// environment once at start (config.outreach). The limits are the spec's (02-extensions "Outreach"
// limits); each is a setting so an owner can tighten it. The sending domain, mailbox, postal
// address and mode are not settings: the owner sets them with `svc admin outreach configure`.
import { ConfigError, int, type Source } from '../config.ts';

function smtpUrl(raw: string | undefined): string | null {
  const v = raw?.trim();
  if (!v) return null;
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    throw new ConfigError(`SVC_SMTP_URL must be an smtp:// or smtps:// URL, got ${JSON.stringify(v)}`);
  }
  if (u.protocol !== 'smtp:' && u.protocol !== 'smtps:') throw new ConfigError('SVC_SMTP_URL must be an smtp:// or smtps:// URL');
  return v;
}

function tld(raw: string | undefined): string {
  const v = (raw ?? 'ru').trim().toLowerCase().replace(/^\./, '');
  if (v !== '' && !/^[a-z0-9-]{2,63}$/.test(v))
    throw new ConfigError(`SVC_OUTREACH_BLOCKED_TLD must be a top-level domain such as ru, got ${JSON.stringify(raw)}`);
  return v;
}

export function loadOutreachSettings(src: Source) {
  const inPort = src.SVC_SMTP_IN_PORT?.trim();
  return Object.freeze({
    /** The owner's relay (nodemailer transport URL); unset: nothing can be sent (messages fail and are retried). */
    smtpUrl: smtpUrl(src.SVC_SMTP_URL),
    /** The inbound listener's port; null: no listener. */
    smtpInPort: inPort ? int(src, 'SVC_SMTP_IN_PORT', 0, 0, 65_535) : null,
    smtpInHost: src.SVC_SMTP_IN_HOST?.trim() || '0.0.0.0',
    dkimSelector: src.SVC_OUTREACH_DKIM_SELECTOR?.trim() || null,
    dkimKeyFile: src.SVC_OUTREACH_DKIM_KEY_FILE?.trim() || null,
    blockedTld: tld(src.SVC_OUTREACH_BLOCKED_TLD),
    contactsPerAgentDay: int(src, 'SVC_OUTREACH_CONTACTS_PER_DAY', 30, 0, 10_000),
    sendsPerAgentDay: int(src, 'SVC_OUTREACH_SENDS_PER_AGENT_DAY', 3, 0, 1000),
    fleetCap: int(src, 'SVC_OUTREACH_FLEET_CAP', 20, 0, 100_000),
    firstPerOutlet7d: int(src, 'SVC_OUTREACH_FIRST_PER_OUTLET_7D', 2, 0, 1000),
    followUpDays: int(src, 'SVC_OUTREACH_FOLLOW_UP_DAYS', 5, 0, 365),
    answersAfterReply: int(src, 'SVC_OUTREACH_ANSWERS_AFTER_REPLY', 3, 0, 100),
    retryBaseSeconds: int(src, 'SVC_OUTREACH_RETRY_BASE_SECONDS', 60, 1, 86_400),
    channelOnePerDay: int(src, 'SVC_OUTREACH_CHANNEL_ONE_PER_DAY', 6, 0, 1000),
    channelTwoPerDay: int(src, 'SVC_OUTREACH_CHANNEL_TWO_PER_DAY', 8, 0, 1000),
    channelTwoAgentHours: int(src, 'SVC_OUTREACH_CHANNEL_TWO_AGENT_HOURS', 6, 0, 168),
  });
}

export type OutreachSettings = ReturnType<typeof loadOutreachSettings>;

/** Fixed by the spec, not settings. */
export const SUBJECT_MIN = 5;
export const SUBJECT_MAX = 90;
export const BODY_MIN = 200;
export const BODY_MAX = 1200;
export const MAX_LINKS = 2;
export const POST_MAX = 600;
export const CHANNEL_TWO_MENTIONS = 1;
/** One try and three retries (docs/decisions.md#outreach: a relay error is retried 3 times). */
export const MAX_ATTEMPTS = 4;
export const DAY_MS = 86_400_000;
/** Moscow is UTC+3 all year: its day starts at 21:00 UTC. */
export const MOSCOW_OFFSET_MS = 3 * 3_600_000;

/** The start (ms) of the Moscow day holding `now`. */
export const moscowDayStart = (now: number): number => Math.floor((now + MOSCOW_OFFSET_MS) / DAY_MS) * DAY_MS - MOSCOW_OFFSET_MS;

/** The start (ms) of the UTC day holding `now`: the spec's plain "per day" quotas (docs/decisions.md#paging-and-time: UTC midnight unless Moscow is named). */
export const utcDayStart = (now: number): number => Math.floor(now / DAY_MS) * DAY_MS;

declare module '../config.ts' {
  interface DomainSettings {
    outreach: OutreachSettings;
  }
}
