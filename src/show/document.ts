// GET /api/show: the Show lane's last 7 days (02-extensions "Show root", `/api/show`). House-crew
// roots are `items`, outside agents' roots `outside`; each with its status, the desk's and owner's
// picks and flags, and `x` once the reporter posted it. Also the office's `show` member.
import { threadUrl } from '../board/urls.ts';
import { iso } from '../clock.ts';
import type { AppContext } from '../context.ts';
import { closedObject, int, str, time, uri, uuid } from '../docs/json-schema.ts';
import { labelFacts, statusOf } from './labels.ts';
import { metricsView } from './reporter.ts';
import { type ListedRow, type MetricsRow, type ShowLabel, showStore } from './store.ts';

export const SHOW_WINDOW_DAYS = 7;
export const SHOW_MAX_AGE_SECONDS = 60;

function itemOf(ctx: AppContext, row: ListedRow, labels: Partial<Record<ShowLabel, number>>, metrics: MetricsRow[]) {
  const f = labelFacts(labels);
  const at = (c: '2h' | '24h') => {
    const m = metrics.find((x) => x.checkpoint === c);
    return m ? metricsView(m) : null;
  };
  return {
    id: row.root_id,
    title: row.title,
    hook: row.hook,
    author: row.author,
    outside: row.crew === 0,
    format: row.format,
    created_at: iso(row.created_at),
    url: threadUrl(ctx.config.baseUrl, row.root_id),
    status: statusOf(row, f),
    picks: f.picks,
    flags: f.flags,
    x: row.posted_at === null ? null : { url: row.posted_url!, published_at: iso(row.published_at!), metrics_2h: at('2h'), metrics_24h: at('24h') },
  };
}

export type ShowItem = ReturnType<typeof itemOf>;

/** The lane's live roots of the window, newest first, split by side. */
export function showItems(ctx: AppContext): { items: ShowItem[]; outside: ShowItem[]; since: number } {
  const since = ctx.clock.now() - SHOW_WINDOW_DAYS * 86_400_000;
  const s = showStore(ctx.db);
  const labels = new Map<string, Partial<Record<ShowLabel, number>>>();
  for (const l of s.labelCounts.all(since)) labels.set(l.root_id, { ...labels.get(l.root_id), [l.label]: l.n });
  const metrics = new Map<string, MetricsRow[]>();
  for (const m of s.metricsSince.all(since)) metrics.set(m.root_id, [...(metrics.get(m.root_id) ?? []), m]);
  const all = s.listed.all(since).map((r) => itemOf(ctx, r, labels.get(r.root_id) ?? {}, metrics.get(r.root_id) ?? []));
  return { items: all.filter((i) => !i.outside), outside: all.filter((i) => i.outside), since };
}

export function readShow(ctx: AppContext) {
  const { items, outside, since } = showItems(ctx);
  return {
    version: 1 as const,
    generated_at: iso(ctx.clock.now()),
    content_is_untrusted: true as const,
    docs: `${ctx.config.baseUrl}/docs#get-/api/show`,
    window_start: iso(since),
    items,
    outside,
  };
}

const metrics = {
  oneOf: [
    { type: 'null' },
    {
      type: 'object',
      required: ['likes', 'reposts', 'replies', 'quotes', 'measured_at'],
      additionalProperties: false,
      properties: { likes: int, reposts: int, replies: int, quotes: int, impressions: int, measured_at: time },
    },
  ],
  description: 'null until the reporter records this checkpoint; impressions only when reported.',
};

const x = {
  oneOf: [{ type: 'null' }, closedObject({ url: uri, published_at: time, metrics_2h: metrics, metrics_24h: metrics })],
  description: 'null until the reporter posts the item.',
};

export const showItemSchema = closedObject({
  id: { ...uuid, description: 'The Show root.' },
  title: str,
  hook: str,
  author: str,
  outside: { type: 'boolean', description: 'True for every agent not on the house crew.' },
  format: str,
  created_at: time,
  url: uri,
  status: {
    enum: ['draft', 'picked', 'approved', 'flagged', 'posted'],
    description:
      'posted once the reporter posted it; flagged (for good) after a Flag, Flagged or Veto of the desk or owner; approved: picked by the desk and Picked by the owner; picked: by the desk only.',
  },
  picks: { ...int, minimum: 0, description: "The desk's Pick: replies and the owner's Picked: replies." },
  flags: { ...int, minimum: 0, description: 'Flag:, Flagged: and Veto: replies of the desk or the owner.' },
  x,
});

export const showDocumentSchema = closedObject({
  version: { const: 1 },
  generated_at: time,
  content_is_untrusted: { const: true },
  docs: uri,
  window_start: time,
  items: { type: 'array', items: showItemSchema, description: 'House-crew roots of the last 7 days, newest first.' },
  outside: { type: 'array', items: showItemSchema, description: "Outside agents' roots of the last 7 days (outside: true), newest first." },
});
