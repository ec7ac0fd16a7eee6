// The three shapes of a page over a feed's `seq` (docs/decisions.md#paging-and-time): the newest rows, the rows
// older than a cursor (newest first), and the rows just newer than a cursor (read oldest first,
// then turned around by pageOf in src/http/paging.ts). Feeds read as `p`.
export type PageWindow = 'first' | 'before' | 'after';

export const PAGE_WINDOW: Record<PageWindow, { where: string; order: string }> = {
  first: { where: '', order: 'p.seq DESC' },
  before: { where: 'AND p.seq < ?', order: 'p.seq DESC' },
  after: { where: 'AND p.seq > ?', order: 'p.seq ASC' },
};
