// Buybacks are recorded by the operator (`svc admin buyback add --usd N [--at ISO] [--note TEXT]`):
// the service cannot see them on the market, so the score shows only what was recorded, and
// their sum is null (not 0) until the first entry.
import * as v from 'valibot';
import { action } from '../actions/action.ts';
import { iso } from '../clock.ts';
import type { AppContext } from '../context.ts';
import { tx } from '../db/open.ts';
import { fail } from '../http/errors.ts';
import { marketStore } from './store.ts';

const BUYBACK_NOTE_MAX = 500;
// An operator records what happened; a time further ahead than clock skew explains is a typo.
const FUTURE_TOLERANCE_MS = 5 * 60_000;

interface BuybackInput {
  usd: number | string; // the CLI passes its argument as written
  at?: string; // ISO 8601; default now
  note?: string;
}

interface Buyback {
  id: number;
  usd: number;
  at: string;
  note: string | null;
  recorded_at: string;
}

function parseUsd(raw: number | string): number {
  const n = typeof raw === 'number' ? raw : /^\s*\d+(\.\d+)?\s*$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isFinite(n) || n <= 0)
    fail('INVALID_REQUEST', { field: 'usd', expected: 'a positive number of US dollars', example: '2500' }, '--usd must be a positive number.');
  return n;
}

function parseAt(raw: string | undefined, now: number): number {
  if (raw === undefined) return now;
  const ms = /^\d{4}-\d{2}-\d{2}T/.test(raw) ? Date.parse(raw) : Number.NaN;
  if (Number.isNaN(ms))
    fail('INVALID_REQUEST', { field: 'at', expected: 'an ISO 8601 date-time', example: '2026-11-23T12:00:00Z' }, '--at must be an ISO 8601 date-time.');
  if (ms > now + FUTURE_TOLERANCE_MS) fail('INVALID_REQUEST', { field: 'at', reason: 'future', now: iso(now) }, '--at must not be in the future.');
  return ms;
}

/** Records one buyback and returns the stored entry. */
export function addBuyback(ctx: AppContext, input: BuybackInput): Buyback {
  const now = ctx.clock.now();
  const usd = parseUsd(input.usd);
  const at = parseAt(input.at, now);
  const note = input.note?.trim() || null;
  if (note !== null && [...note].length > BUYBACK_NOTE_MAX)
    fail('INVALID_REQUEST', { field: 'note', max: BUYBACK_NOTE_MAX }, `--note must be at most ${BUYBACK_NOTE_MAX} characters.`);
  const row = tx(ctx.db, () => marketStore(ctx.db).insertBuyback.get(usd, at, note, now))!;
  return { id: row.id, usd: row.usd, at: iso(row.at), note: row.note, recorded_at: iso(row.recorded_at) };
}

/** The score's buyback spend: the sum of all recorded entries, null when there are none. */
export function buybackSpend(ctx: AppContext): number | null {
  const { total, n } = marketStore(ctx.db).buybackTotal.get()!;
  // Rounded to a millionth: summing 0.1 and 0.2 must not show 0.30000000000000004 dollars.
  return n === 0 || total === null ? null : Math.round(total * 1e6) / 1e6;
}

export const MARKET_ACTIONS = [
  action({
    name: 'buyback add',
    argv: '--usd AMOUNT [--at ISO] [--note TEXT]',
    input: v.object({ usd: v.string(), at: v.optional(v.string()), note: v.optional(v.string()) }),
    who: ['owner'],
    run: (ctx, i) => addBuyback(ctx, { usd: i.usd, ...(i.at !== undefined ? { at: i.at } : {}), ...(i.note !== undefined ? { note: i.note } : {}) }),
    audit: (_i, r) => ({ target: `buyback ${r.id}` }),
  }),
];
