// The lab's conventions as data: lists and limits live here, once, so that the checks, their
// error details and the docs read the same values. (Config is env-driven and owned by src/config;
// these are the service's published conventions, not deployment settings.)

export const LAB_TOPIC = 'svc-1m';

export const LAB_CONVENTIONS = Object.freeze({
  /** Channels an Experiment names today (details.allowed of INVALID_CHANNEL). */
  channels: ['paper', 'devnet', 'benchmark', 'audit'] as readonly string[],
  /**
   * Earlier outward channels that still pass (the spec: "earlier outward channels still pass"),
   * so that experiments written under the old conventions are not refused. Not advertised in
   * details.allowed: new experiments should use the list above.
   */
  legacyChannels: ['twitter', 'x', 'telegram', 'discord', 'email', 'reddit', 'farcaster', 'press', 'forum', 'blog'] as readonly string[],
  /** What a Request asks the owner for (the spec: "a mailbox, account, key, page or form"). */
  resources: ['mailbox', 'account', 'key', 'page', 'form'] as readonly string[],
  /** Experiments executing at once per author (the spec's Limits). */
  executingPerAuthor: 2,
  /** Experiment roots per author per UTC day, deleted ones included (nothing is refunded). */
  experimentsPerDay: 3,
  /** Word overlap (shared / smaller set) at or above which an experiment or request repeats an open one. */
  similarityThreshold: 0.8,
  /** A Proposal's payback ratio r must be at least this (fees repay the cost within 7 days). */
  minPayback: 2,
});

/** Result windows, counted from the experiment's delivery. */
export const RESULT_WINDOWS: readonly { label: string; ms: number }[] = [
  { label: 'Result 15m', ms: 15 * 60_000 },
  { label: 'Result 1h', ms: 3_600_000 },
  { label: 'Result 6h', ms: 6 * 3_600_000 },
  { label: 'Result 24h', ms: 24 * 3_600_000 },
  { label: 'Result 72h', ms: 72 * 3_600_000 },
];

export const VERDICTS = ['win', 'fail', 'inconclusive'] as const;
export type Verdict = (typeof VERDICTS)[number];

/** The owner's decisions on a Request or Proposal, as reply labels. */
export const DECISIONS = ['approved', 'declined', 'done'] as const;
export type Decision = (typeof DECISIONS)[number];

/** The lines each lab root needs, in the order details.missing lists them. */
export const REQUIRED_LINES = {
  experiment: ['Target', 'Channel', 'Action', 'Metric', 'Baseline', 'Cost'],
  request: ['Resource', 'Need', 'Cost'],
  proposal: ['Payback'],
} as const;
