// Outreach tests: the service's app with outreach configured, a real https server on loopback for
// source pages (self-signed, names known only to the injected resolver), a real smtp-server on
// loopback as the owner's relay, and writers for contacts, experiments and e-mails.
import { afterAll, beforeAll } from 'bun:test';
import { SMTPServer } from 'smtp-server';
import { runAdmin } from '../../src/admin/cli.ts';
import type { OutreachNet } from '../../src/outreach/net.ts';
import { type Agent, distinct, makeLabApp } from '../lab/conventions/harness.ts';
import { selfSignedCert } from '../tls.ts';

export const PAGE_NAMES = ['press.example.org', 'www.example.org', 'newsroom.example.net', 'evil.example.org', 'bounce.example.org'];

/** A page server on loopback: path → [status, headers, body]. */
export interface PageServer {
  port: number;
  ca: string;
  pages: Map<string, { status?: number; headers?: Record<string, string>; body?: string }>;
  stop(): void;
}

export function startPageServer(): PageServer {
  const { cert, key } = selfSignedCert(PAGE_NAMES);
  const pages: PageServer['pages'] = new Map();
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    tls: { cert, key },
    fetch(req) {
      const url = new URL(req.url);
      const p = pages.get(`${req.headers.get('host')?.split(':')[0]}${url.pathname}`);
      if (!p) return new Response('not here', { status: 404 });
      return new Response(p.body ?? '', { status: p.status ?? 200, headers: { 'content-type': 'text/html', ...p.headers } });
    },
  });
  return { port: server.port as number, ca: cert, pages, stop: () => server.stop(true) };
}

export interface Relay {
  port: number;
  url: string;
  messages: { from: string; to: string[]; raw: string }[];
  /** While true, every message is refused with a 451. */
  down: boolean;
  /** Holds the next message's answer: `arrived` resolves once its data is in, `release()` lets the relay accept it. */
  hold(): { arrived: Promise<void>; release(): void };
  stop(): Promise<void>;
}

export async function startRelay(): Promise<Relay> {
  let held: { arrived: () => void; released: Promise<void> } | null = null;
  const relay: Relay = {
    port: 0,
    url: '',
    messages: [],
    down: false,
    hold() {
      let arrived!: () => void;
      let release!: () => void;
      const arrivedP = new Promise<void>((r) => {
        arrived = r;
      });
      const released = new Promise<void>((r) => {
        release = r;
      });
      held = { arrived, released };
      return { arrived: arrivedP, release };
    },
    stop: async () => {},
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', async () => {
        const h = held;
        if (h) {
          held = null;
          h.arrived();
          await h.released;
        }
        if (relay.down) {
          const e = new Error('relay unavailable') as Error & { responseCode: number };
          e.responseCode = 451;
          return callback(e);
        }
        relay.messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const addr = server.server.address();
  relay.port = typeof addr === 'object' && addr ? addr.port : 0;
  relay.url = `smtp://127.0.0.1:${relay.port}`;
  relay.stop = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return relay;
}

export const POSTAL = 'svc, 1 Example Street, 10115 Berlin, Germany';

/** `svc admin outreach configure` for the test domain, in the given mode. */
export const configureArgs = (mode: string) => [
  'outreach',
  'configure',
  '--domain',
  'svc.example',
  '--mailbox',
  'outreach',
  '--postal-address',
  POSTAL,
  '--mode',
  mode,
];

export interface OutreachEnv {
  pages: PageServer;
  relay: Relay;
}

/** The page server and the relay of one test file: started before its tests, stopped after them (call at its top level). */
export function outreachEnv(): OutreachEnv {
  const env = {} as OutreachEnv;
  beforeAll(async () => {
    env.pages = startPageServer();
    env.relay = await startRelay();
  });
  afterAll(async () => {
    env.pages.stop();
    await env.relay.stop();
  });
  return env;
}

/** An app with outreach configured (mode as given), the relay and the page server wired in. */
export async function makeOutreachApp(
  env: OutreachEnv,
  opts: { mode?: 'off' | 'review' | 'auto'; start?: string; more?: Record<string, string>; configure?: boolean; net?: OutreachNet } = {},
) {
  const net: OutreachNet = opts.net ?? {
    ca: env.pages.ca,
    lookup: async (host: string) => {
      if (PAGE_NAMES.includes(host)) return [{ address: '127.0.0.1', family: 4 }];
      if (host === 'intranet.example.org') return [{ address: '10.1.2.3', family: 4 }];
      throw new Error(`ENOTFOUND ${host}`);
    },
  };
  // The context's own mail relay (nodemailer's transports, fresh for each app: the tests start and stop relays).
  const t = makeLabApp({ SVC_FETCH_ALLOW_LOOPBACK: '1', SVC_SMTP_URL: env.relay.url, SVC_OUTREACH_RETRY_BASE_SECONDS: '60', ...opts.more }, opts.start, {
    outbound: { outreach: net },
  });
  if (opts.configure !== false) await runAdmin(t.ctx, [...configureArgs(opts.mode ?? 'auto'), '--forward-to', 'owner@svc.example']);
  let experiments = 0;
  /** A registered resident with one Experiment root. */
  async function resident(name: string): Promise<Agent & { experiment: string }> {
    const a = await t.register(name);
    await runAdmin(t.ctx, ['resident', 'add', name]);
    const experiment = await t.ok(a, `Experiment: outreach ${name}`, distinct(experiments++ % 6));
    return { ...a, experiment };
  }
  /** Publishes a page on the page server that shows `email`, and answers its URL. */
  function page(host: string, path: string, email: string, extra: Partial<{ status: number; headers: Record<string, string>; body: string }> = {}) {
    env.pages.pages.set(`${host}${path}`, { body: `<html><body><p>Contact: <a href="mailto:${email}">${email}</a></p></body></html>`, ...extra });
    return `https://${host}:${env.pages.port}${path}`;
  }
  const contact = (who: Agent, body: Record<string, unknown>) => t.call('POST', '/v1/outreach/contacts', { key: who.key, body });
  /** A contact that must be accepted: its id. */
  async function addContact(who: Agent, email: string, outlet = 'Example News', host = 'press.example.org'): Promise<string> {
    const url = page(host, `/team/${encodeURIComponent(email)}`, email);
    const r = await contact(who, { email, outlet, source_url: url });
    if (r.status !== 200) throw new Error(`contact ${email}: ${r.status} ${r.text}`);
    return r.json.contact_id;
  }
  const email = (who: Agent & { experiment: string }, body: Record<string, unknown>) =>
    t.call('POST', '/v1/outreach/email', {
      key: who.key,
      body: { experiment_id: who.experiment, subject: 'Measuring cold starts on public nodes', body: BODY, ...body },
    });
  return { ...t, resident, page, contact, addContact, email };
}

export const BODY =
  'Hello, we measured how cold starts affect p99 latency on public RPC nodes and published every number with its method. ' +
  'We thought your readers who run infrastructure might find the comparison useful; the raw data and scripts are open. ' +
  'Happy to answer questions about the setup.';

export type OutreachApp = Awaited<ReturnType<typeof makeOutreachApp>>;
