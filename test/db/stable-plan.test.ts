// Statements planned once (src/db/stable-plan.ts): a unary plus before every parameter, nowhere
// else, and the same answers as the statement without it.
import { Database } from 'bun:sqlite';
import { describe, expect, test } from 'bun:test';
import { openMemoryDatabase } from '../../src/db/open.ts';
import { planOnce, stablePlan } from '../../src/db/stable-plan.ts';

describe('planOnce', () => {
  test('puts a unary plus before every parameter form', () => {
    expect(planOnce('SELECT a FROM t WHERE b = ? ORDER BY c LIMIT ?')).toBe('SELECT a FROM t WHERE b = +? ORDER BY c LIMIT +?');
    expect(planOnce('VALUES (?1, ?2, ?1)')).toBe('VALUES (+?1, +?2, +?1)');
    expect(planOnce('SELECT :a, @b, $c, x=?')).toBe('SELECT +:a, +@b, +$c, x=+?');
    expect(planOnce('SELECT -?, NOT ?, ? || ?')).toBe('SELECT -+?, NOT +?, +? || +?');
  });

  test('leaves string literals, quoted identifiers and comments as they are', () => {
    const untouched = [
      "SELECT 'is it?', 'it''s ?', '$.a' FROM t",
      'SELECT "col?", "a""?" FROM t',
      'SELECT `x?` FROM [odd?name]',
      'SELECT 1 -- why?\n',
      'SELECT 1 /* ? :a $b */',
      'SELECT a$b, x:y FROM t',
      "SELECT x'3f' FROM t",
      "SELECT 'unterminated ?",
      'SELECT 1 /* unterminated ?',
    ];
    for (const sql of untouched) expect(planOnce(sql)).toBe(sql);
    expect(planOnce("SELECT '?' || ? -- ?\n, ?")).toBe("SELECT '?' || +? -- ?\n, +?");
  });

  test('stablePlan answers the same text for the same statement', () => {
    const sql = 'SELECT ? AS v';
    expect(stablePlan(sql)).toBe('SELECT +? AS v');
    expect(stablePlan(sql)).toBe(stablePlan(sql));
  });
});

describe('a statement planned once answers as the one it was written as', () => {
  const setup = (db: Database) => {
    db.exec(`CREATE TABLE t (id INTEGER PRIMARY KEY, n INTEGER, s TEXT, r REAL, b BLOB, x);
      CREATE INDEX t_s ON t (s, n);
      INSERT INTO t (n, s, r, b, x) VALUES (5, 'a', 1.5, x'00ff', '7'), (10, 'A', 2.5, NULL, 7), (7, 'a', NULL, x'01', NULL), (3, 'b', 0, x'', 'text');`);
    return db;
  };
  const plain = setup(new Database(':memory:', { strict: true }));
  const once = setup(openMemoryDatabase());
  const cases: [string, unknown[]][] = [
    ['SELECT id FROM t WHERE s = ? ORDER BY n DESC LIMIT ?', ['a', 1]],
    ['SELECT id FROM t WHERE s = ? ORDER BY n LIMIT ? OFFSET ?', ['a', 5, 1]],
    // Affinity: a text value against an integer column, a number against a text column, the untyped column.
    ['SELECT id FROM t WHERE n = ? ORDER BY id', ['5']],
    ['SELECT id FROM t WHERE s = ? ORDER BY id', [7]],
    ['SELECT id FROM t WHERE x = ? ORDER BY id', ['7']],
    ['SELECT id FROM t WHERE x = ? ORDER BY id', [7]],
    ['SELECT id FROM t WHERE n > ? AND n <= ? ORDER BY id', ['4', 7]],
    ['SELECT id FROM t WHERE s = ? COLLATE NOCASE ORDER BY id', ['a']],
    ['SELECT id FROM t WHERE s IN (?, ?) ORDER BY id', ['a', 'b']],
    ['SELECT id FROM t WHERE s LIKE ? ORDER BY id', ['a%']],
    ['SELECT id FROM t WHERE b = ? ORDER BY id', [new Uint8Array([0, 255])]],
    ['SELECT max(n) AS m FROM t WHERE s = ?', ['a']],
    ['SELECT ? AS v, typeof(?) AS t', [3, 3]],
    ['SELECT ? AS v, typeof(?) AS t', ['3', '3']],
    ['SELECT ? AS v, typeof(?) AS t', [1.25, 1.25]],
    ['SELECT ? AS v, typeof(?) AS t', [null, null]],
    ['SELECT ? AS v, typeof(?) AS t', [new Uint8Array([1, 2]), new Uint8Array([1, 2])]],
    ['SELECT ? AS v, typeof(?) AS t', [2n ** 60n, 2n ** 60n]],
    ['SELECT -? AS v, ? || ? AS c, coalesce(?, 9) AS d', [4, 'x', 'y', null]],
    ['SELECT count(*) AS n FROM t WHERE s = ? GROUP BY n ORDER BY n', ['a']],
  ];
  for (const [sql, args] of cases) {
    test(`${sql} ${JSON.stringify(args, (_k, v) => (typeof v === 'bigint' ? `${v}n` : v))}`, () => {
      const want = plain.query(sql).all(...(args as never[]));
      expect(once.query(sql).all(...(args as never[]))).toEqual(want);
      expect(once.prepare(sql).all(...(args as never[]))).toEqual(want);
    });
  }

  test('named parameters bind by name, and what is stored keeps its column affinity', () => {
    once.query('INSERT INTO t (n, s, x) VALUES ($n, $s, $x)').run({ n: '42', s: 12, x: '12' });
    plain.query('INSERT INTO t (n, s, x) VALUES ($n, $s, $x)').run({ n: '42', s: 12, x: '12' });
    const read = 'SELECT n, typeof(n) AS tn, s, typeof(s) AS ts, x, typeof(x) AS tx FROM t WHERE id = (SELECT max(id) FROM t)';
    expect(once.query(read).get()).toEqual(plain.query(read).get() as never);
    expect(once.query(read).get()).toEqual({ n: 42, tn: 'integer', s: '12', ts: 'text', x: '12', tx: 'text' });
  });

  test("the service's connections prepare the rewritten text", () => {
    expect(once.query('SELECT ? AS v').toString()).toBe('SELECT +NULL AS v');
    expect(once.prepare('SELECT id FROM t LIMIT ?').toString()).toBe('SELECT id FROM t LIMIT +NULL');
  });
});
