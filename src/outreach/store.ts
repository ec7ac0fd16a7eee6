// Prepared SQL for outreach (schema/0021_outreach.sql), built once per database.
import { liveAccount, livePost } from '../db/live.ts';
import { type Db, perDatabase } from '../db/open.ts';

export type Mode = 'off' | 'review' | 'auto';
export type MessageStatus = 'queued' | 'sending' | 'sent' | 'refused' | 'failed' | 'bounced';
export type MessageRole = 'first' | 'follow_up' | 'answer';
export type Channel = 'one' | 'two';

export interface ConfigRow {
  domain: string;
  mailbox: string;
  postal_address: string;
  mode: Mode;
  forward_to: string | null;
  updated_at: number;
}

export interface ContactRow {
  seq: number;
  id: string;
  email: string;
  email_key: string;
  domain: string;
  outlet: string;
  name: string | null;
  beat: string | null;
  added_by: string;
  created_at: number;
  stop_token: string;
  suppressed_at: number | null;
  bounced_at: number | null;
  first_contact_at: number | null;
  replied: number;
}

export interface MessageRow {
  seq: number;
  id: string;
  contact_id: string;
  sender_id: string;
  sender: string;
  experiment_id: string;
  kind: 'pitch' | 'letter';
  role: MessageRole;
  follow_up_of: string | null;
  domain: string;
  outlet: string;
  subject: string;
  body: string;
  footer: string;
  status: MessageStatus;
  status_reason: string | null;
  /** The start of the Moscow day it counts against. */
  day: number;
  created_at: number;
  sent_at: number | null;
  attempts: number;
  next_attempt_at: number | null;
  last_error: string | null;
}

export interface ReplyRow {
  id: string;
  message_id: string | null;
  contact_id: string | null;
  received_at: number;
  kind: 'reply' | 'auto' | 'bounce';
  from_contact: number;
  opt_out: number;
  subject: string | null;
  excerpt: string;
}

export interface PostRow {
  seq: number;
  id: string;
  channel: Channel;
  author_id: string;
  author: string;
  experiment_id: string;
  text: string;
  status: 'sending' | 'posted' | 'failed';
  created_at: number;
  posted_at: number | null;
}

export interface LogRow {
  seq: number;
  kind: 'email' | 'post';
  ref_id: string;
  at: number;
}

/**
 * A message that went out or still may: sent, bounced, queued, with the relay, or failed with a retry
 * still due. Refused messages and failed ones with no try left never reach anyone, so they count
 * neither as a contact nor against a cap.
 */
export const liveMessage = (m: string) =>
  `(${m}.status IN ('queued', 'sending', 'sent', 'bounced') OR (${m}.status = 'failed' AND ${m}.next_attempt_at IS NOT NULL))`;

// A contact with its derived facts: when it was first contacted (its first live message) and
// whether it ever sent a reply that counts (authenticated, from the contact, not automatic).
const CONTACT_COLS = `c.seq, c.id, c.email, c.email_key, c.domain, c.outlet, c.name, c.beat, c.added_by, c.created_at, c.stop_token,
  c.suppressed_at, c.bounced_at,
  (SELECT min(m.created_at) FROM outreach_messages m WHERE m.contact_id = c.id AND ${liveMessage('m')}) AS first_contact_at,
  EXISTS (SELECT 1 FROM outreach_replies r WHERE r.contact_id = c.id AND r.kind = 'reply' AND r.from_contact = 1) AS replied`;

const MESSAGE_COLS = `m.seq, m.id, m.contact_id, m.sender_id, a.name AS sender, m.experiment_id, m.kind, m.role, m.follow_up_of, m.domain,
  c.outlet, m.subject, m.body, m.footer, m.status, m.status_reason, m.day, m.created_at, m.sent_at, m.attempts, m.next_attempt_at, m.last_error`;
const MESSAGE_FROM = 'FROM outreach_messages m JOIN accounts a ON a.id = m.sender_id JOIN outreach_contacts c ON c.id = m.contact_id';

function build(db: Db) {
  return {
    config: db.query<ConfigRow, []>('SELECT domain, mailbox, postal_address, mode, forward_to, updated_at FROM outreach_config WHERE id = 1'),
    setConfig: db.query<void, [string, string, string, Mode, string | null, number]>(
      `INSERT INTO outreach_config (id, domain, mailbox, postal_address, mode, forward_to, updated_at) VALUES (1, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET domain = excluded.domain, mailbox = excluded.mailbox, postal_address = excluded.postal_address,
         mode = excluded.mode, forward_to = excluded.forward_to, updated_at = excluded.updated_at`,
    ),
    channel: db.query<{ url: string; set_at: number }, [Channel]>('SELECT url, set_at FROM outreach_channels WHERE channel = ?'),
    channels: db.query<{ channel: Channel; url: string; set_at: number }, []>('SELECT channel, url, set_at FROM outreach_channels ORDER BY channel'),
    setChannel: db.query<void, [Channel, string, number]>(
      'INSERT INTO outreach_channels (channel, url, set_at) VALUES (?, ?, ?) ON CONFLICT (channel) DO UPDATE SET url = excluded.url, set_at = excluded.set_at',
    ),
    clearChannel: db.query<void, [Channel]>('DELETE FROM outreach_channels WHERE channel = ?'),

    /** A listed resident whose account is live and whose residency is not stopped. */
    activeResident: db.query<{ one: number }, [string]>(
      `SELECT 1 AS one FROM residents r JOIN accounts a ON a.id = r.account_id WHERE r.account_id = ? AND ${liveAccount('a')} AND a.residency_stopped_at IS NULL`,
    ),
    /** The caller's own live Experiment root. */
    ownExperiment: db.query<{ one: number }, [string, string]>(
      `SELECT 1 AS one FROM lab_items i JOIN posts p ON p.id = i.post_id JOIN accounts a ON a.id = p.author_id
       WHERE i.post_id = ? AND i.kind = 'experiment' AND p.author_id = ? AND p.kind = 'post' AND ${livePost('p', 'a')}`,
    ),

    insertContact: db.query<void, [string, string, string, string, string, string, string | null, string | null, string, string, number, string]>(
      `INSERT INTO outreach_contacts (id, email, email_key, domain, outlet, outlet_key, name, beat, source_url, added_by, created_at, stop_token)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    contactByKey: db.query<ContactRow, [string]>(`SELECT ${CONTACT_COLS} FROM outreach_contacts c WHERE c.email_key = ?`),
    contact: db.query<ContactRow, [string]>(`SELECT ${CONTACT_COLS} FROM outreach_contacts c WHERE c.id = ?`),
    contactByToken: db.query<ContactRow, [string]>(`SELECT ${CONTACT_COLS} FROM outreach_contacts c WHERE c.stop_token = ?`),
    contactsAddedSince: db.query<{ n: number }, [string, number]>('SELECT count(*) AS n FROM outreach_contacts WHERE added_by = ? AND created_at >= ?'),
    /** Contacts newest first, filtered by outlet (exact, any case) and a text in outlet, name or beat. */
    listContacts: db.query<ContactRow, [string | null, string | null, number]>(
      `SELECT ${CONTACT_COLS} FROM outreach_contacts c
       WHERE (?1 IS NULL OR c.outlet_key = ?1)
         AND (?2 IS NULL OR instr(lower(c.outlet || ' ' || coalesce(c.name, '') || ' ' || coalesce(c.beat, '')), ?2) > 0)
       ORDER BY c.seq DESC LIMIT ?3`,
    ),
    suppress: db.query<{ id: string }, [number, string, string]>(
      'UPDATE outreach_contacts SET suppressed_at = ?, suppressed_reason = ? WHERE id = ? AND suppressed_at IS NULL RETURNING id',
    ),
    bounce: db.query<void, [number, string]>('UPDATE outreach_contacts SET bounced_at = coalesce(bounced_at, ?) WHERE id = ?'),

    insertMessage: db.query<
      void,
      [string, string, string, string, string, string, string | null, string, string, string, string, string, number, number, number | null]
    >(
      `INSERT INTO outreach_messages (id, contact_id, sender_id, experiment_id, kind, role, follow_up_of, domain, subject, body, footer, status, day, created_at, next_attempt_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    message: db.query<MessageRow, [string]>(`SELECT ${MESSAGE_COLS} ${MESSAGE_FROM} WHERE m.id = ?`),
    messagesOfContact: db.query<MessageRow, [string]>(`SELECT ${MESSAGE_COLS} ${MESSAGE_FROM} WHERE m.contact_id = ? ORDER BY m.seq`),
    messagesOfSender: db.query<MessageRow, [string, number, number]>(
      `SELECT ${MESSAGE_COLS} ${MESSAGE_FROM} WHERE m.sender_id = ? AND m.seq < ? ORDER BY m.seq DESC LIMIT ?`,
    ),
    queued: db.query<MessageRow, []>(`SELECT ${MESSAGE_COLS} ${MESSAGE_FROM} WHERE m.status = 'queued' ORDER BY m.seq`),
    /** Live messages that count against a Moscow day (the day they were handed to the relay or queued). */
    senderDay: db.query<{ n: number }, [number, string]>(
      `SELECT count(*) AS n FROM outreach_messages m WHERE m.day = ? AND m.sender_id = ? AND ${liveMessage('m')}`,
    ),
    fleetDay: db.query<{ n: number }, [number]>(`SELECT count(*) AS n FROM outreach_messages m WHERE m.day = ? AND ${liveMessage('m')}`),
    /** An approved message counts against the day it is approved on. */
    moveToDay: db.query<void, [number, string]>('UPDATE outreach_messages SET day = ? WHERE id = ?'),
    /** Live first contacts of an outlet domain since a time, oldest first (the oldest says when a slot frees). */
    firstsOfDomainSince: db.query<{ created_at: number }, [string, number]>(
      `SELECT m.created_at FROM outreach_messages m WHERE m.role = 'first' AND m.domain = ? AND m.created_at > ? AND ${liveMessage('m')} ORDER BY m.created_at`,
    ),
    setStatus: db.query<void, [string, string | null, string]>(
      'UPDATE outreach_messages SET status = ?, status_reason = ?, next_attempt_at = NULL WHERE id = ?',
    ),
    /** Approval: a queued message goes to the relay now. */
    approve: db.query<{ id: string }, [number, string]>(
      "UPDATE outreach_messages SET status = 'sending', next_attempt_at = ? WHERE id = ? AND status = 'queued' RETURNING id",
    ),
    /** Claims a due message for one relay attempt (a lease: another runner skips it until `lease`). */
    claim: db.query<{ id: string }, [number, string, number]>(
      `UPDATE outreach_messages SET next_attempt_at = ?1, attempts = attempts + 1
       WHERE id = ?2 AND status IN ('sending', 'failed') AND next_attempt_at IS NOT NULL AND next_attempt_at <= ?3 RETURNING id`,
    ),
    due: db.query<{ id: string }, [number]>(
      "SELECT id FROM outreach_messages WHERE status IN ('sending', 'failed') AND next_attempt_at IS NOT NULL AND next_attempt_at <= ? ORDER BY next_attempt_at LIMIT 50",
    ),
    markSent: db.query<void, [number, string]>(
      "UPDATE outreach_messages SET status = 'sent', sent_at = ?, next_attempt_at = NULL, last_error = NULL WHERE id = ? AND status IN ('sending', 'failed')",
    ),
    markFailed: db.query<void, [number | null, string, string]>(
      "UPDATE outreach_messages SET status = 'failed', next_attempt_at = ?, last_error = ? WHERE id = ? AND status IN ('sending', 'failed')",
    ),
    markBounced: db.query<void, [string]>("UPDATE outreach_messages SET status = 'bounced' WHERE id = ? AND status = 'sent'"),
    /** Not yet sent messages of a contact that can never be e-mailed now. */
    refuseOpenOfContact: db.query<void, [string, string]>(
      "UPDATE outreach_messages SET status = 'refused', status_reason = ?, next_attempt_at = NULL WHERE contact_id = ? AND status IN ('queued', 'sending', 'failed')",
    ),

    insertReply: db.query<void, [string, string | null, string | null, number, string, number, number, string | null, string]>(
      `INSERT INTO outreach_replies (id, message_id, contact_id, received_at, kind, from_contact, opt_out, subject, excerpt)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    repliesOfMessage: db.query<ReplyRow, [string]>(
      'SELECT id, message_id, contact_id, received_at, kind, from_contact, opt_out, subject, excerpt FROM outreach_replies WHERE message_id = ? ORDER BY seq',
    ),
    /** Replies that count, to the messages of a sender, received since a time, newest first. */
    repliesToSender: db.query<ReplyRow & { outlet: string; subject_sent: string }, [string, number, number]>(
      `SELECT r.id, r.message_id, r.contact_id, r.received_at, r.kind, r.from_contact, r.opt_out, r.subject, r.excerpt, c.outlet, m.subject AS subject_sent
       FROM outreach_replies r JOIN outreach_messages m ON m.id = r.message_id JOIN outreach_contacts c ON c.id = m.contact_id
       WHERE m.sender_id = ? AND r.kind = 'reply' AND r.received_at >= ? ORDER BY r.seq DESC LIMIT ?`,
    ),
    messageBySentId: db.query<MessageRow, [string]>(`SELECT ${MESSAGE_COLS} ${MESSAGE_FROM} WHERE m.id = ?`),
    latestSentToContact: db.query<MessageRow, [string]>(
      `SELECT ${MESSAGE_COLS} ${MESSAGE_FROM} WHERE m.contact_id = ? AND m.status IN ('sent', 'bounced') ORDER BY m.seq DESC LIMIT 1`,
    ),

    insertPost: db.query<void, [string, Channel, string, string, string, number, number]>(
      "INSERT INTO outreach_posts (id, channel, author_id, experiment_id, text, status, day, created_at) VALUES (?, ?, ?, ?, ?, 'sending', ?, ?)",
    ),
    post: db.query<PostRow, [string]>(
      `SELECT p.seq, p.id, p.channel, p.author_id, a.name AS author, p.experiment_id, p.text, p.status, p.created_at, p.posted_at
       FROM outreach_posts p JOIN accounts a ON a.id = p.author_id WHERE p.id = ?`,
    ),
    postsOfDay: db.query<{ n: number }, [Channel, number]>("SELECT count(*) AS n FROM outreach_posts WHERE channel = ? AND day = ? AND status <> 'failed'"),
    authorPostsSince: db.query<{ created_at: number }, [string, Channel, number]>(
      "SELECT created_at FROM outreach_posts WHERE author_id = ? AND channel = ? AND created_at > ? AND status <> 'failed' ORDER BY created_at",
    ),
    markPosted: db.query<void, [number, string]>("UPDATE outreach_posts SET status = 'posted', posted_at = ? WHERE id = ?"),
    markPostFailed: db.query<void, [string, string]>("UPDATE outreach_posts SET status = 'failed', last_error = ? WHERE id = ?"),

    insertLog: db.query<void, ['email' | 'post', string, number]>('INSERT OR IGNORE INTO outreach_log (kind, ref_id, at) VALUES (?, ?, ?)'),
    logPage: db.query<LogRow, [number, number]>('SELECT seq, kind, ref_id, at FROM outreach_log WHERE seq < ? ORDER BY seq DESC LIMIT ?'),
    logAfter: db.query<LogRow, [number, number]>('SELECT seq, kind, ref_id, at FROM outreach_log WHERE seq > ? ORDER BY seq ASC LIMIT ?'),
  };
}

/** The outreach statements, prepared once per database. */
export const outreachStore = perDatabase(build);
