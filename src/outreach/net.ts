// What outreach reaches outside the process with, per running service: the source-page fetcher's
// resolver and extra CA, mailauth's DNS resolver, and the webhook fetch. Production uses the
// system's; tests give their own per context (a fake DNS for mailauth, a resolver naming a
// loopback https server) without touching globals.
import type { AppContext } from '../context.ts';
import type { LookupAddress } from '../net/safe-fetch.ts';

export interface OutreachNet {
  /** safeFetch's resolver for source pages (tests: names → loopback). */
  lookup?: (host: string) => Promise<LookupAddress[]>;
  /** An extra CA for source pages (tests: a self-signed loopback server). */
  ca?: string;
  /** mailauth's DNS resolver `(name, type) => records` (tests: a fake DNS). */
  resolver?: (name: string, type: string) => Promise<unknown>;
}

const nets = new WeakMap<AppContext, OutreachNet>();

export function setOutreachNet(ctx: AppContext, net: OutreachNet): void {
  nets.set(ctx, net);
}

export const outreachNet = (ctx: AppContext): OutreachNet => nets.get(ctx) ?? {};
