// The Show lane's settings (docs/decisions.md#show-lane, 02-extensions "Show lane" limits), read once
// at start; src/config.ts carries them as config.show. The host allowlists and token names are a
// data file (lists.json beside this one), replaceable whole with SVC_SHOW_LISTS_FILE.
import { readFileSync } from 'node:fs';
import { ConfigError, int, type Source } from '../config.ts';
import DEFAULT_LISTS from './lists.json';

export interface ShowLists {
  linkHosts: readonly string[];
  evidenceHosts: readonly string[];
  paperHosts: readonly string[];
  ownEvidencePaths: readonly string[];
  tokens: readonly string[];
}

const HOST = /^(?=.{1,253}$)([a-z0-9-]{1,63}\.)+[a-z]{2,63}$/;

function stringList(data: Record<string, unknown>, member: string, file: string, check?: RegExp): string[] {
  const list = data[member];
  if (!Array.isArray(list) || !list.every((x) => typeof x === 'string' && x.trim() !== '')) {
    throw new ConfigError(`${file}: ${member} must be an array of non-empty strings`);
  }
  const out = list.map((x: string) => x.trim().toLowerCase());
  const bad = check ? out.find((x) => !check.test(x)) : undefined;
  if (bad !== undefined) throw new ConfigError(`${file}: ${member} holds ${JSON.stringify(bad)}, which is not a host name`);
  return out;
}

/** The lists from parsed JSON, validated (a typo in a host would silently refuse every root). */
export function parseLists(data: unknown, file: string): ShowLists {
  if (!data || typeof data !== 'object') throw new ConfigError(`${file} must hold a JSON object`);
  const d = data as Record<string, unknown>;
  const paths = stringList(d, 'own_evidence_paths', file);
  if (!paths.every((p) => p.startsWith('/'))) throw new ConfigError(`${file}: own_evidence_paths must start with /`);
  return Object.freeze({
    linkHosts: stringList(d, 'link_hosts', file, HOST),
    evidenceHosts: stringList(d, 'evidence_hosts', file, HOST),
    paperHosts: stringList(d, 'paper_hosts', file, HOST),
    ownEvidencePaths: paths,
    tokens: stringList(d, 'tokens', file),
  });
}

function loadLists(src: Source): ShowLists {
  const file = src.SVC_SHOW_LISTS_FILE?.trim();
  if (!file) return parseLists(DEFAULT_LISTS, 'src/show/lists.json');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new ConfigError(`SVC_SHOW_LISTS_FILE: cannot read ${file} (${(e as Error).message})`);
  }
  try {
    return parseLists(JSON.parse(text), file);
  } catch (e) {
    if (e instanceof ConfigError) throw e;
    throw new ConfigError(`SVC_SHOW_LISTS_FILE: ${file} is not valid JSON`);
  }
}

export function loadShowSettings(src: Source) {
  return Object.freeze({
    perAgent24h: int(src, 'SVC_SHOW_PER_AGENT_24H', 2, 1, 1000),
    residentsPerDay: int(src, 'SVC_SHOW_RESIDENTS_PER_DAY', 30, 0, 100_000),
    outsidePerDay: int(src, 'SVC_SHOW_OUTSIDE_PER_DAY', 10, 0, 100_000),
    publishPerDay: int(src, 'SVC_SHOW_PUBLISH_PER_DAY', 8, 1, 1000),
    maxWeighted: int(src, 'SVC_SHOW_MAX_WEIGHTED', 230, 50, 280),
    noveltyDays: int(src, 'SVC_SHOW_NOVELTY_DAYS', 7, 1, 60),
    noveltyPostPercent: int(src, 'SVC_SHOW_NOVELTY_POST_PERCENT', 45, 1, 100),
    noveltyHookPercent: int(src, 'SVC_SHOW_NOVELTY_HOOK_PERCENT', 60, 1, 100),
    lists: loadLists(src),
  });
}

export type ShowSettings = ReturnType<typeof loadShowSettings>;

/** Fixed by the spec, not settings. */
export const SHOW_TOPIC = 'svc-show';
export const HOOK_MIN = 12;
export const HOOK_MAX = 140;
export const BODY_MIN = 80;
export const BODY_MAX = 2500;
export const PART_MAX = 280;
export const THREAD_PARTS_MAX = 8;
export const NOVELTY_CHARS = 400;
export const FORMATS = ['post', 'thread', 'meme', 'chart', 'data', 'dataset', 'tool', 'story', 'challenge'] as const;
/** Moscow midnight is 21:00 UTC (docs/decisions.md#show-lane): the Moscow day starts then. */
export const MOSCOW_OFFSET_MS = 3 * 3600_000;

declare module '../config.ts' {
  interface DomainSettings {
    show: ShowSettings;
  }
}
