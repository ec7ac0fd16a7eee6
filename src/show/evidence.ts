// Where a Show root's link and evidence may point: host allowlists from the lists data file
// (src/show/lists.json), plus the one own-service exception for evidence (the office and
// buyback data routes of this service's own base address).
import type { ShowLists } from './settings.ts';

/**
 * The own-service routes an evidence URL may name: 02-extensions says the exception "covers only
 * the office and buyback data routes". This service serves its buyback data (the buyback spend and
 * the burned amount) in the public office document's `score`, so one route is both. GET /v1/office
 * needs a key (no reader can open it), and every other own route (score history, threads,
 * articles, lab pages) is no exception. The lists file's own_evidence_paths may narrow this set,
 * never widen it.
 */
export const OWN_EVIDENCE_ROUTES: readonly string[] = ['/api/office'];

export type UrlVerdict = 'ok' | 'not_https' | 'not_a_url' | 'host_not_allowed' | 'paper_host';

const hostIn = (host: string, hosts: readonly string[]) => hosts.some((h) => host === h || host.endsWith(`.${h}`));

function parse(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

/** A link in the text to publish: a full https URL on a link host. */
export function linkVerdict(written: string, lists: ShowLists): UrlVerdict {
  if (!/^https:\/\//i.test(written)) return 'not_https';
  const u = parse(written);
  if (!u || u.username || u.password) return 'not_a_url';
  return hostIn(u.hostname.toLowerCase(), lists.linkHosts) ? 'ok' : 'host_not_allowed';
}

/**
 * One of OWN_EVIDENCE_ROUTES exactly, at this service's own address: the same host and port as the
 * base URL and the route under its path. Nothing below or beside a route counts, whatever its spelling.
 */
function ownEvidence(u: URL, lists: ShowLists, baseUrl: string): boolean {
  const own = parse(baseUrl);
  if (!own || u.host !== own.host) return false;
  const prefix = own.pathname.replace(/\/+$/, '');
  return OWN_EVIDENCE_ROUTES.some((route) => lists.ownEvidencePaths.includes(route) && u.pathname === `${prefix}${route}`);
}

/** An evidence URL: a full https URL on a data host, or one of this service's own data routes. */
export function evidenceVerdict(written: string, lists: ShowLists, baseUrl: string): UrlVerdict {
  if (!/^https:\/\//i.test(written)) return 'not_https';
  const u = parse(written);
  if (!u || u.username || u.password) return 'not_a_url';
  if (ownEvidence(u, lists, baseUrl)) return 'ok';
  const host = u.hostname.toLowerCase();
  // A paper is a claim, not data: refused even if a list names the host twice by mistake.
  if (hostIn(host, lists.paperHosts)) return 'paper_host';
  return hostIn(host, lists.evidenceHosts) ? 'ok' : 'host_not_allowed';
}

export interface EvidenceEntry {
  text: string;
  url: string | null;
  date: string | null;
  name: string;
}

const URL_RE = /\b(?:https?:\/\/)?[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+(?:\/[^\s;,]*)?/i;
const FULL_URL_RE = /https?:\/\/[^\s;]+/i;
/**
 * ISO dates (2026-11-23, 2026-11, 2026-11-23T10:00Z), numeric ones (2026/11/23, 23.11.2026,
 * 23/11/2026, 11/23/2026) and written ones (23 Nov 2026, November 2026, Nov 23, 2026): the spec
 * asks for "its date" in no particular form.
 */
const MONTH = '(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\\.?';
const DATE_RE = new RegExp(
  `\\b(?:\\d{4}-\\d{2}(?:-\\d{2})?|\\d{4}[/.]\\d{1,2}[/.]\\d{1,2}|\\d{1,2}[/.]\\d{1,2}[/.]\\d{4}|\\d{1,2}\\s+${MONTH},?\\s+\\d{4}|${MONTH}\\s+(?:\\d{1,2}(?:st|nd|rd|th)?,?\\s+)?\\d{4})\\b`,
  'i',
);

/**
 * One Evidence line holds one or more entries separated by ";": each a named source, its date and
 * its URL, in any order ("World Bank WDI, 2026-10-01, https://data.worldbank.org/…").
 */
export function evidenceEntries(value: string): EvidenceEntry[] {
  return value
    .split(';')
    .map((t) => t.trim())
    .filter((t) => t !== '')
    .map((text) => {
      const url = (FULL_URL_RE.exec(text) ?? URL_RE.exec(text))?.[0]?.replace(/[.,)]+$/, '') ?? null;
      const rest = url ? text.replace(url, ' ') : text;
      const date = DATE_RE.exec(rest)?.[0] ?? null;
      const name = (date ? rest.replace(date, ' ') : rest)
        .replace(/[^\p{L}\p{N}&' -]+/gu, ' ')
        .replace(/\s+/g, ' ')
        .trim();
      return { text, url, date, name };
    });
}

/** A source is named when two or more letters remain besides its date and URL. */
export const namedSource = (e: EvidenceEntry): boolean => (e.name.match(/\p{L}/gu) ?? []).length >= 2;
