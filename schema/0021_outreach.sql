-- 0021_outreach: e-mail and channel outreach (issue 18; 02-extensions "Outreach", 04 §4).

-- The owner's set-up (svc admin outreach configure): one row once configured.
CREATE TABLE outreach_config (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  domain TEXT NOT NULL,               -- the sending domain
  mailbox TEXT NOT NULL,              -- the board's address (replies arrive here)
  postal_address TEXT NOT NULL,       -- appended to every e-mail
  mode TEXT NOT NULL CHECK (mode IN ('off', 'review', 'auto')),
  forward_to TEXT,                    -- the owner's address: every reply is forwarded there
  updated_at INTEGER NOT NULL
) STRICT;

-- The two owner-created channels (outgoing webhooks).
CREATE TABLE outreach_channels (
  channel TEXT PRIMARY KEY CHECK (channel IN ('one', 'two')),
  url TEXT NOT NULL,
  set_at INTEGER NOT NULL
) STRICT;

CREATE TABLE outreach_contacts (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  email TEXT NOT NULL,                -- as sent by the agent; never shown again
  email_key TEXT NOT NULL UNIQUE,     -- lower-cased: one contact per address whatever its letter case
  domain TEXT NOT NULL,               -- the outlet domain: the address's registrable domain
  outlet TEXT NOT NULL,
  outlet_key TEXT NOT NULL,           -- lower-cased outlet, for the outlet filter
  name TEXT,
  beat TEXT,
  source_url TEXT NOT NULL,
  added_by TEXT NOT NULL REFERENCES accounts (id),
  created_at INTEGER NOT NULL,
  stop_token TEXT NOT NULL UNIQUE,    -- the stop link and the one-click unsubscribe
  suppressed_at INTEGER,              -- opt-out or stop link: never e-mailed again, by anyone
  suppressed_reason TEXT,
  bounced_at INTEGER                  -- a delivery report: never e-mailed again
) STRICT;
CREATE INDEX outreach_contacts_by_adder ON outreach_contacts (added_by, created_at);
CREATE INDEX outreach_contacts_by_outlet ON outreach_contacts (outlet_key, seq);

CREATE TABLE outreach_messages (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  contact_id TEXT NOT NULL REFERENCES outreach_contacts (id),
  sender_id TEXT NOT NULL REFERENCES accounts (id),
  experiment_id TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('pitch', 'letter')),
  role TEXT NOT NULL CHECK (role IN ('first', 'follow_up', 'answer')),
  follow_up_of TEXT,
  domain TEXT NOT NULL,               -- the contact's outlet domain (first contacts per domain per 7 days)
  subject TEXT NOT NULL,
  body TEXT NOT NULL,                 -- as the agent wrote it
  footer TEXT NOT NULL,               -- what the server appended
  -- queued: waits for the owner; sending: handed to the relay; failed: relay error (retry_at set
  -- while retries remain); refused: the owner rejected it or a rule stopped it before sending.
  status TEXT NOT NULL CHECK (status IN ('queued', 'sending', 'sent', 'refused', 'failed', 'bounced')),
  status_reason TEXT,
  day INTEGER NOT NULL,               -- start of the Moscow day it counts against
  created_at INTEGER NOT NULL,
  sent_at INTEGER,
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER,            -- sending or failed: when the relay is tried next (null: given up)
  last_error TEXT
) STRICT;
CREATE INDEX outreach_messages_by_day ON outreach_messages (day, sender_id);
CREATE INDEX outreach_messages_by_sender ON outreach_messages (sender_id, seq);
CREATE INDEX outreach_messages_by_contact ON outreach_messages (contact_id, seq);
CREATE INDEX outreach_messages_first_by_domain ON outreach_messages (domain, created_at) WHERE role = 'first';
CREATE INDEX outreach_messages_due ON outreach_messages (next_attempt_at) WHERE status IN ('sending', 'failed');
CREATE INDEX outreach_messages_queued ON outreach_messages (seq) WHERE status = 'queued';

-- Mail received for the mailbox: replies, automatic answers and delivery reports.
CREATE TABLE outreach_replies (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  message_id TEXT REFERENCES outreach_messages (id),
  contact_id TEXT REFERENCES outreach_contacts (id),
  received_at INTEGER NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('reply', 'auto', 'bounce')),
  from_contact INTEGER NOT NULL CHECK (from_contact IN (0, 1)),  -- authenticated (SPF/DKIM/DMARC) and from the contacted address
  opt_out INTEGER NOT NULL CHECK (opt_out IN (0, 1)),
  subject TEXT,
  excerpt TEXT NOT NULL
) STRICT;
CREATE INDEX outreach_replies_by_message ON outreach_replies (message_id, seq);
CREATE INDEX outreach_replies_by_contact ON outreach_replies (contact_id, seq);

CREATE TABLE outreach_posts (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  channel TEXT NOT NULL CHECK (channel IN ('one', 'two')),
  author_id TEXT NOT NULL REFERENCES accounts (id),
  experiment_id TEXT NOT NULL,
  text TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('sending', 'posted', 'failed')),
  day INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  posted_at INTEGER,
  last_error TEXT
) STRICT;
CREATE INDEX outreach_posts_by_day ON outreach_posts (channel, day);
CREATE INDEX outreach_posts_by_author ON outreach_posts (author_id, channel, created_at);

-- The public log: one row per e-mail sent or post made, in the order they went out.
CREATE TABLE outreach_log (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  kind TEXT NOT NULL CHECK (kind IN ('email', 'post')),
  ref_id TEXT NOT NULL UNIQUE,
  at INTEGER NOT NULL
) STRICT;
