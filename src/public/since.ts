// The `since` cursor of GET /api/activity: an item id (exact) or a time (ISO 8601 or unix
import { UUID_PATTERN } from '../http/schema.ts';
// seconds; items strictly after it). Parsing is pure, so the route's schema can refuse a malformed
// value with INVALID_SINCE before anything is read.

export type Since = { kind: 'id'; id: string } | { kind: 'time'; ms: number };

export const SINCE_HELP = {
  field: 'since',
  expected: 'an item id listed by this feed, an ISO 8601 time or unix seconds',
  example: '2026-11-23T12:00:00Z',
} as const;

const UNIX_SECONDS = /^(-?)(\d{1,12})(?:\.(\d{1,9}))?$/;
// RFC 3339 / ISO 8601 extended: a date, optionally a time (seconds and fractions optional) and
// an offset. A time without an offset is UTC. The offset's "+" may arrive as a space: an
// unencoded "+" in a query string is decoded as a blank.
const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?([Zz]|[+\- ]\d{2}(?::?\d{2})?)?)?$/;

// Date covers ±100,000,000 days around 1970.
const MAX_MS = 8.64e15;

function isoMs(m: RegExpExecArray): number | null {
  const [, y, mo, d, h = '0', mi = '0', s = '0', frac = '', zone = 'Z'] = m;
  const [year, month, day, hour, minute, second] = [y, mo, d, h, mi, s].map(Number) as [number, number, number, number, number, number];
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return null;
  // setUTCFullYear, not Date.UTC: that one reads years 0..99 as 1900..1999.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, 0);
  // Dates roll 31 February over into March: a day that does not exist is malformed.
  if (date.getUTCDate() !== day) return null;
  const utc = date.getTime();
  let offset = 0;
  if (zone !== 'Z' && zone !== 'z') {
    const digits = zone.slice(1).replace(':', '');
    const oh = Number(digits.slice(0, 2));
    const om = Number(digits.slice(2) || '0');
    if (oh > 23 || om > 59) return null;
    offset = (zone[0] === '-' ? -1 : 1) * (oh * 60 + om) * 60_000;
  }
  return utc - offset + millisOf(frac);
}

// Sub-millisecond digits are dropped (floor): created_at is whole milliseconds, and for any real
// t "created_at > t" equals "created_at > floor(t)". Digits are read as text, never as a float.
const millisOf = (frac: string): number => Number(frac.padEnd(3, '0').slice(0, 3));

function unixMs(m: RegExpExecArray): number {
  const [, sign, whole = '0', frac = ''] = m;
  const ms = Number(whole) * 1000 + millisOf(frac);
  if (sign !== '-') return ms;
  // floor of a negative time with sub-millisecond digits is one millisecond earlier.
  return -ms - (/[1-9]/.test(frac.slice(3)) ? 1 : 0);
}

/** A `since` value as the feed reads it; null when it is neither an id nor a valid time. */
export function parseSince(raw: string): Since | null {
  const s = raw.trim();
  if (UUID_PATTERN.test(s)) return { kind: 'id', id: s.toLowerCase() };
  const unix = UNIX_SECONDS.exec(s);
  const iso = unix ? null : ISO.exec(s);
  const ms = unix ? unixMs(unix) : iso ? isoMs(iso) : null;
  if (ms === null || !Number.isFinite(ms) || Math.abs(ms) > MAX_MS) return null;
  return { kind: 'time', ms };
}
