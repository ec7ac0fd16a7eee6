// The layering of src/ (issue 13 §3), on the real tree and on near misses of each rule. Every
// folder is checked (NOT_YET_CHECKED in ./layers.ts is empty).
import { describe, expect, test } from 'bun:test';
import { RULES_TOPIC } from '../../src/board/topics.ts';
import { boardStore } from '../../src/board/store.ts';
import { continuityStore } from '../../src/continuity/store.ts';
import { migrate } from '../../src/db/migrate.ts';
import { openMemoryDatabase } from '../../src/db/open.ts';
import { publicStore } from '../../src/public/store.ts';
import {
  connectionOpens,
  isDbLayer,
  isStore,
  livenessConditions,
  NOT_YET_CHECKED,
  sources,
  sqlRuns,
  sqlText,
  storeMayImport,
  valueImports,
  WHOLE_DATABASE,
} from './layers.ts';

const files = sources();
const where = (path: string, found: { line: number; text: string }[]) => found.map((f) => `${path}:${f.line}: ${f.text}`);

describe('the tree', () => {
  test('the checked files include stores, domain modules and the database layer, and leave out the excluded folders', () => {
    const paths = files.map((f) => f.path);
    expect(paths).toContain('board/store.ts');
    expect(paths).toContain('board/events.ts');
    expect(paths).toContain('db/live.ts');
    expect(paths.filter((p) => NOT_YET_CHECKED.some((d) => p.startsWith(d)))).toEqual([]);
  });

  test('SQL runs only in stores and the database layer', () => {
    const outside = files.filter((f) => !isStore(f.path) && !isDbLayer(f.path) && !WHOLE_DATABASE.includes(f.path));
    expect(outside.flatMap((f) => where(f.path, [...sqlRuns(f.source), ...sqlText(f.source)]))).toEqual([]);
  });

  test('every connection is opened by src/db/open.ts, so its statements are planned once (src/db/stable-plan.ts)', () => {
    const opening = files.filter((f) => f.path !== 'db/open.ts').flatMap((f) => where(f.path, connectionOpens(f.source)));
    expect(opening).toEqual([]);
    expect(connectionOpens("const db = new Database(file, { readonly: true });\nconst s = db.query('SELECT 1');")).toHaveLength(1);
  });

  test('only src/db/live.ts says what a deleted row is', () => {
    const others = files.filter((f) => f.path !== 'db/live.ts');
    expect(others.flatMap((f) => where(f.path, livenessConditions(f.source)))).toEqual([]);
  });

  test('a store imports values only from bun:sqlite, the database layer and other stores', () => {
    const bad = files
      .filter((f) => isStore(f.path))
      .flatMap((f) =>
        valueImports(f.source)
          .filter((s) => !storeMayImport(f.path, s))
          .map((s) => `${f.path} imports ${s}`),
      );
    expect(bad).toEqual([]);
  });

  // A domain constant a store writes out instead of importing must still agree with its owner.
  test.each([
    ['public.newest', () => String(publicStore(db()).newest)],
    ['board.activity.first', () => String(boardStore(db()).activity.first)],
    ['continuity.followedTopics', () => String(continuityStore(db()).followedTopics)],
  ])('%s leaves out the rules topic as board/topics.ts names it', (_, sql) => {
    expect(sql()).toMatch(new RegExp(`topic (=|<>|!=) '${RULES_TOPIC}'`));
  });
});

let memo: ReturnType<typeof openMemoryDatabase> | undefined;
function db() {
  if (!memo) {
    memo = openMemoryDatabase();
    migrate(memo);
  }
  return memo;
}

describe('the checks catch what they are for', () => {
  test.each([
    ['a query on the context database', "const r = ctx.db.query('SELECT 1').get();", true],
    ['a typed query', 'db.query<{ n: number }, []>(sql)', true],
    ['a prepared statement', 'const s = db.prepare(sql);', true],
    ['exec on a database', "db.exec('PRAGMA wal_checkpoint(TRUNCATE)');", true],
    ['run on the context database', "ctx.db.run('DELETE FROM x');", true],
    ['a store statement run', 's.insertInbox.run(accountId, post.id);', false],
    ['a regular expression exec', 'const m = LABEL.exec(body);', false],
    ['a worker pool run', 'finding = await pool.run(files);', false],
    ['a request query property', '(c as { query: unknown }).query = queryOf(url);', false],
  ])('running SQL: %s', (_, line, caught) => {
    expect(sqlRuns(line).length > 0).toBe(caught);
  });

  test.each([
    ['a SELECT', "'SELECT kind FROM posts WHERE id = ?'", true],
    ['an INSERT OR IGNORE', '`INSERT OR IGNORE INTO mentions (post_id) VALUES (?)`', true],
    ['an UPDATE', "'UPDATE job_runs SET status = ?'", true],
    ['a DELETE', "'DELETE FROM pins WHERE account_id = ?'", true],
    ['a route name', "name: 'DELETE /v1/posts/:id'", false],
    ['a lower-case word', '// select the newest page', false],
    ['an HTTP method', "if (upper !== 'GET' && upper !== 'DELETE') codes.push(x);", false],
  ])('SQL text: %s', (_, line, caught) => {
    expect(sqlText(line).length > 0).toBe(caught);
  });

  test.each([
    ['an aliased condition', "'WHERE p.deleted_at IS NULL'", true],
    ['a bare column', "'AND deleted_at IS NULL'", true],
    ['lower case and spacing', 'where deleted_at is  null', true],
    ['the deleted side', 'd.deleted_at IS NOT NULL', true],
    ['setting the column', 'UPDATE accounts SET deleted_at = coalesce(deleted_at, ?1)', false],
    ['reading the column in code', 'a.deleted_at === null && a.revoked_at === null', false],
    ['another column', 'AND revoked_at IS NULL', false],
  ])('a liveness condition: %s', (_, line, caught) => {
    expect(livenessConditions(line).length > 0).toBe(caught);
  });

  test.each([
    ['a rules module', "import { SYSTEM_ACCOUNT_ID } from '../board/posts.ts';", ['../board/posts.ts']],
    ['a package', "import * as v from 'valibot';", ['valibot']],
    ['a mixed list', "import { type Db, perDatabase } from '../db/open.ts';", ['../db/open.ts']],
    ['a type import', "import type { MarketNumbers } from './client.ts';", []],
    ['an all-type list', "import { type A, type B } from './client.ts';", []],
    ['a multi-line type list', "import {\n  type A,\n  type B,\n} from './client.ts';", []],
    ['a re-export', "export { x } from './rules.ts';", ['./rules.ts']],
    ['a side-effect import', "import './register.ts';", ['./register.ts']],
  ])('value imports: %s', (_, source, specs) => {
    expect(valueImports(source)).toEqual(specs);
  });

  test.each([
    ['board/store.ts', '../db/open.ts', true],
    ['lab/conventions/store.ts', '../../db/live.ts', true],
    ['scorekeeper/store.ts', '../accounts/store.ts', true],
    ['http/idempotency.ts', './idempotency-store.ts', true],
    ['pages/store.ts', 'bun:sqlite', true],
    ['leaderboard/store.ts', '../board/posts.ts', false],
    ['public/store.ts', '../board/topics.ts', false],
    ['market/store.ts', './client.ts', false],
    ['board/store.ts', '../db-rules.ts', false],
    ['board/store.ts', 'valibot', false],
  ])('%s may import %s: %p', (path, spec, allowed) => {
    expect(storeMayImport(path, spec)).toBe(allowed);
  });

  test.each([
    ['board/store.ts', true],
    ['http/idempotency-store.ts', true],
    ['board/restore.ts', false],
    ['board/store-helpers.ts', false],
  ])('%s is a store: %p', (path, store) => {
    expect(isStore(path)).toBe(store);
  });
});
