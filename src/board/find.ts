// The operator's search of the board (the console's Board page): posts by id, author name or
// words, in any state, newest first, with the removal that took each one out if any. Read
// through this function, never board's removal store.
import type { AppContext } from '../context.ts';
import { matchExpression, searchWords } from '../search/query.ts';
import { type FoundRow, removalStore } from './removal-store.ts';

export type { FoundRow };

/** The words as the search route reads them, so that what an operator types is never FTS syntax. */
const ftsQuery = (q: string) => matchExpression(searchWords(q));

/** The newest `limit` posts whose id or author's name is `text`, or whose words include its words. */
export const findPosts = (ctx: AppContext, text: string, limit: number): FoundRow[] =>
  removalStore(ctx.db).find.all(text.toLowerCase(), text.toLowerCase(), ftsQuery(text), limit);
