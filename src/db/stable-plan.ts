// Every statement of the service is planned once, when it is prepared, never again from the values
// bound to it.
//
// SQLite (3.54 in Bun 1.4) plans some statements from their bound values: a `LIMIT ?`, an
// equality (`author_id = ?`) that lets an index serve the ORDER BY, GROUP BY, min() or max(), a
// `LIKE ?` pattern. Binding such a parameter expires the statement, and its next run prepares it
// again: every run of it pays a full prepare. Measured on the bench corpus (bench/stable-plan.ts):
// 3–5 µs more for a one-table read, more for a join; a vote's vote-ring statements spent about
// 45 µs of each vote being prepared again. SQLite's switch against this, the query planner
// stability guarantee (SQLITE_DBCONFIG_ENABLE_QPSG), is a sqlite3_db_config() call that
// bun:sqlite does not offer.
//
// A unary plus before each parameter has the same effect: the planner looks for a bare parameter
// only. And it changes no value: unary plus returns its operand unchanged, and neither a parameter
// nor `+?` has an affinity, so comparisons, conversions and what is stored stay as they were. What
// the planner gives up is a plan chosen for one value: the statements of svc are planned for every
// value anyway (test/db/query-plans.test.ts checks their plans with no value known).

/** Characters that may continue an identifier: a `$`, `:` or `@` after one of them is not a parameter. */
const IDENTIFIER = /[\p{L}\p{N}_$]/u;

/** Where the token that starts at `i` with `quote` ends (a doubled quote stays inside). */
function quotedEnd(sql: string, i: number, quote: string): number {
  let j = i + 1;
  for (;;) {
    const k = sql.indexOf(quote, j);
    if (k < 0) return sql.length;
    if (sql[k + 1] === quote) j = k + 2;
    else return k + 1;
  }
}

/** The end of what `indexOf` looks for from `from`, or of the text when it is not there. */
const endOf = (sql: string, what: string, from: number, past: number) => {
  const k = sql.indexOf(what, from);
  return k < 0 ? sql.length : k + past;
};

/**
 * `sql` with a unary plus before every parameter (`?`, `?NNN`, `:name`, `@name`, `$name`) outside
 * string literals, quoted identifiers and comments.
 */
export function planOnce(sql: string): string {
  let out = '';
  let from = 0;
  for (let i = 0; i < sql.length; ) {
    const c = sql[i]!;
    if (c === "'" || c === '"' || c === '`') i = quotedEnd(sql, i, c);
    else if (c === '[') i = endOf(sql, ']', i, 1);
    else if (c === '-' && sql[i + 1] === '-') i = endOf(sql, '\n', i, 0);
    else if (c === '/' && sql[i + 1] === '*') i = endOf(sql, '*/', i + 2, 2);
    else if (c === '?' || ((c === ':' || c === '@' || c === '$') && IDENTIFIER.test(sql[i + 1] ?? '') && !IDENTIFIER.test(sql[i - 1] ?? ''))) {
      out += `${sql.slice(from, i)}+`;
      from = i;
      i++;
    } else i++;
  }
  return out + sql.slice(from);
}

const rewritten = new Map<string, string>();
/** At most this many texts are remembered: the service prepares a few hundred, a statement built per call is rewritten again. */
const REMEMBERED = 4096;

/** planOnce, remembered by text (a statement's text is rewritten once, however often it is asked for). */
export function stablePlan(sql: string): string {
  let out = rewritten.get(sql);
  if (out === undefined) {
    out = planOnce(sql);
    if (rewritten.size < REMEMBERED) rewritten.set(sql, out);
  }
  return out;
}
