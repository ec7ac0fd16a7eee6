// How the full-text index cuts text into words, asked of SQLite itself. posts_fts keeps no word
// positions (detail = none, schema/0040_posts_fts_detail_none.sql), so a quoted string that FTS5
// cuts into two or more words (a phrase) is an error there, not a narrower match. What the index
// calls a word is decided by its unicode61 tokenizer with SQLite's own Unicode tables, which no
// JavaScript class reproduces exactly (a letter newer than SQLite's tables is a separator to it), so
// a query's words are cut here by the same tokenizer, without the porter stemmer: the pieces come
// back case-folded and without diacritics, and each is one word to the index's tokenizer again.
import { openFile } from '../db/open.ts';

/**
 * The index's tokenizer arguments after `porter` (schema/0040_posts_fts_detail_none.sql): combining
 * marks (Mn, Mc) belong to their word, so a word in Devanagari or Bengali stays one word.
 */
export const INDEX_TOKENIZER = "unicode61 remove_diacritics 2 categories 'L* N* Co Mn Mc'";

interface Piece {
  doc: number;
  term: string;
  offset: number;
}

function build() {
  // A private in-memory database per thread: one table that is filled and emptied per call,
  // keeping word positions (detail = full) so the pieces come back in order.
  const db = openFile(':memory:', { readwrite: true, create: true });
  db.exec(`CREATE VIRTUAL TABLE probe USING fts5 (w, tokenize = "${INDEX_TOKENIZER}")`);
  db.exec("CREATE VIRTUAL TABLE probe_words USING fts5vocab (probe, 'instance')");
  const put = db.query<void, [number, string]>('INSERT INTO probe (rowid, w) VALUES (?, ?)');
  const pieces = db.query<Piece, []>('SELECT doc, term, offset FROM probe_words ORDER BY doc, offset');
  const clear = db.query<void, []>('DELETE FROM probe');
  return db.transaction((words: string[]): string[][] => {
    for (const [i, w] of words.entries()) put.run(i + 1, w);
    const out: string[][] = words.map(() => []);
    for (const p of pieces.all()) out[p.doc - 1]!.push(p.term);
    clear.run();
    return out;
  });
}

let cut: ((words: string[]) => string[][]) | null = null;

/** Each of `words` as the index's tokenizer cuts it (no stemming): none, one or several pieces. */
export function indexPieces(words: string[]): string[][] {
  cut ??= build();
  return words.length === 0 ? [] : cut(words);
}
