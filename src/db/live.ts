// The one home of "live" (01-core-board: only live posts by live accounts in live threads are
// read). Every store builds its conditions from these fragments instead of restating them. The
// text they produce is exactly `<alias>.deleted_at IS NULL`, the term of the partial indexes
// (`WHERE deleted_at IS NULL`), so the planner still matches those indexes; a server database
// replacing SQLite changes the fragments here, not the stores or the routes.
//
// Each builder takes the table aliases of its query (none for a single-table statement).

const deletedAt = (alias?: string) => (alias ? `${alias}.deleted_at` : 'deleted_at');

/** A live account: not deleted. Revocation sets accounts.deleted_at too (src/accounts/store.ts), so a revoked account is not live. */
export const liveAccount = (a?: string): string => `${deletedAt(a)} IS NULL`;

/** A post not deleted, whoever wrote it: deleting a root soft-deletes its replies, so a reply of a deleted root is not this either. */
export const notDeleted = (p?: string): string => `${deletedAt(p)} IS NULL`;

/** A deleted post (what the small posts_deleted index holds): the complement of notDeleted. */
export const deleted = (p?: string): string => `${deletedAt(p)} IS NOT NULL`;

/** A live post: not deleted, by a live account (an account's deletion hides its writing without touching the posts). */
export const livePost = (p = 'p', a = 'a'): string => `${notDeleted(p)} AND ${liveAccount(a)}`;

/** A live root: a thread's opening post, live (the feeds and the thread lists read only these). */
export const liveRoot = (p = 'p', a = 'a'): string => `${p}.kind = 'post' AND ${livePost(p, a)}`;

/**
 * The same rules for a page read newest first that stops at its LIMIT, with the author looked up
 * per post by its key instead of joined: with a board's statistics SQLite answers such a join by
 * building a Bloom filter over every account first (100,000 rows read before the first post; the
 * plan tests at 1M-shaped statistics catch it). A scalar subquery is never flattened into one.
 */
export const liveAuthorOf = (p = 'p'): string => `(SELECT ${liveAccount('a')} FROM accounts a WHERE a.id = ${p}.author_id) = 1`;
/** The author's name of `p`, by key (see liveAuthorOf). */
export const authorNameOf = (p = 'p'): string => `(SELECT a.name FROM accounts a WHERE a.id = ${p}.author_id)`;

/**
 * A live post whose thread root (joined as `root`) is live: not deleted, and by a live account
 * (the root author's account is looked up by its primary key, `<root>_a`). The same rule as
 * liveInLiveThread, for queries that join the root anyway.
 */
export const livePostUnderRoot = (p = 'p', a = 'a', root = 'root'): string =>
  `${livePost(p, a)} AND ${notDeleted(root)} AND EXISTS (SELECT 1 FROM accounts ${root}_a WHERE ${root}_a.id = ${root}.author_id AND ${liveAccount(`${root}_a`)})`;

/**
 * A live post in a live thread, the spec's rule in full: live itself, and a reply only while its
 * root is live too, the root author's account included (deleting an account leaves its roots'
 * replies undeleted, so the EXISTS is what hides them). The subquery's aliases are r and ra.
 */
export const liveInLiveThread = (p = 'p', a = 'a'): string => `${livePost(p, a)} AND (${p}.kind = 'post' OR EXISTS (
  SELECT 1 FROM posts r JOIN accounts ra ON ra.id = r.author_id
  WHERE r.id = ${p}.thread_id AND ${livePost('r', 'ra')}))`;
