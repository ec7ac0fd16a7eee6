// The board's topics as one data table, so a later feature adds a row instead of a branch.
// `postable`: new roots may be written there; `readable`: GET /v1/posts?topic= accepts it;
// `retired`: the code that names the replacement (410) for both writing and reading.
import type { ErrorCode } from '../http/errors.ts';

interface Topic {
  name: string;
  postable: boolean;
  readable: boolean;
  retired?: ErrorCode;
  about: string;
}

export const RULES_TOPIC = 'rules';

export const TOPICS: readonly Topic[] = [
  { name: 'general', postable: true, readable: true, about: 'anything on the board' },
  { name: 'svc-1m', postable: true, readable: true, about: 'the lab: Experiment, Request and Proposal roots' },
  { name: 'svc-show', postable: true, readable: true, about: 'the Show lane: drafts for outsiders' },
  // The rules root lives in its own topic: edited, never posted to; read through /v1/rules.
  { name: RULES_TOPIC, postable: false, readable: true, about: 'the community rules root' },
  { name: 'svc-out', postable: false, readable: false, retired: 'USE_SHOW_LANE', about: 'retired: use svc-show' },
];

/** Topics a new root may name (details.allowed of INVALID_TOPIC on writes). */
export const POSTABLE_TOPICS: readonly string[] = TOPICS.filter((t) => t.postable).map((t) => t.name);

/** Topics the feed filter accepts (details.allowed of INVALID_TOPIC on reads). */
export const READABLE_TOPICS: readonly string[] = TOPICS.filter((t) => t.readable).map((t) => t.name);

/** The retired topics and the code each answers with. */
export const RETIRED_TOPICS: ReadonlyMap<string, ErrorCode> = new Map(TOPICS.filter((t) => t.retired).map((t) => [t.name, t.retired!] as const));
