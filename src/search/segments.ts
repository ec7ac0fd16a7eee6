// FTS5's structure record (the row of id 10 in posts_fts_data), read for one figure: how many
// segments each level holds. Its layout (SQLite's fts5_index.c, "Structure record"): a 4-byte
// cookie; then, in the second version, 0xff000001; then varints: the number of levels, of segments,
// the write counter; then each level: the segments in a merge under way, the segments, and for
// each segment its id and first and last page (the second version adds five varints a segment).

/** A varint as SQLite writes it (1-9 bytes, big-endian 7-bit groups, the ninth byte whole). */
function varint(b: Uint8Array, at: { i: number }): number {
  let v = 0;
  for (let k = 0; k < 9; k++) {
    const c = b[at.i++];
    if (c === undefined) throw new Error('structure record ends inside a varint');
    if (k === 8) return v * 256 + c;
    v = v * 128 + (c & 0x7f);
    if (!(c & 0x80)) return v;
  }
  return v;
}

/** Segments on each level of the index, lowest first ([] for an index that has none yet). */
export function segmentsPerLevel(record: Uint8Array | null): number[] {
  if (record === null || record.length < 4) return [];
  const at = { i: 4 };
  const v2 = record[4] === 0xff && record[5] === 0 && record[6] === 0 && record[7] === 1;
  if (v2) at.i = 8;
  const levels = varint(record, at);
  varint(record, at); // segments in all
  varint(record, at); // write counter
  const widths: number[] = [];
  for (let l = 0; l < levels; l++) {
    varint(record, at); // in a merge under way
    const n = varint(record, at);
    for (let s = 0; s < n * (v2 ? 8 : 3); s++) varint(record, at);
    widths.push(n);
  }
  return widths;
}

/** The most segments one level holds. */
export const widestLevel = (record: Uint8Array | null): number => Math.max(0, ...segmentsPerLevel(record));
