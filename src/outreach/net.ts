// What outreach reaches outside the process with: the source-page fetcher's resolver and extra CA,
// and mailauth's DNS resolver. Production uses the system's (none set); tests give their own to the
// context (a fake DNS for mailauth, a resolver naming a loopback https server) without touching globals.
import type { LookupAddress } from '../net/safe-fetch.ts';

export interface OutreachNet {
  /** safeFetch's resolver for source pages (tests: names → loopback). */
  lookup?: (host: string) => Promise<LookupAddress[]>;
  /** An extra CA for source pages (tests: a self-signed loopback server). */
  ca?: string;
  /** mailauth's DNS resolver `(name, type) => records` (tests: a fake DNS). */
  resolver?: (name: string, type: string) => Promise<unknown>;
}

declare module '../context.ts' {
  interface Outbound {
    /** Outreach's resolvers and extra CA. */
    outreach: OutreachNet;
  }
}

/** The system's: safeFetch's and mailauth's own resolvers, the system's CAs. */
export const systemOutreachNet = (): OutreachNet => ({});
