// The outside mirror's settings, read from the environment once at start (src/config.ts carries
// them at config.ext). SVC_EXT_ACCOUNT_ID is the project's own account on the outside network:
// without it no post can be `ours`, `reply` or `mention`, so every post is `talk`.
import { ConfigError, int, type Source } from '../config.ts';

export function loadExtSettings(src: Source) {
  const account = src.SVC_EXT_ACCOUNT_ID;
  if (account !== undefined && account !== '' && !/^\d{1,25}$/.test(account)) {
    throw new ConfigError(`SVC_EXT_ACCOUNT_ID must be the numeric id of the project's outside account, got ${JSON.stringify(account)}`);
  }
  return {
    /** The project's own account id on the outside network, or null when not set. */
    accountId: account ? account : null,
    /** Posts kept per outside account per rolling day (the spec's 20). */
    perAuthorDaily: int(src, 'SVC_EXT_PER_AUTHOR_DAILY', 20, 1, 1000),
    /** How long an ingest lease lasts, in seconds (5 minutes). */
    leaseSeconds: int(src, 'SVC_EXT_LEASE_SECONDS', 300, 10, 3600),
  };
}

export type ExtSettings = ReturnType<typeof loadExtSettings>;

declare module '../config.ts' {
  interface DomainSettings {
    ext: ExtSettings;
  }
}
