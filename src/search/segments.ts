// FTS5's structure record (the row of id 10 in posts_fts_data), read for two figures: how many
// segments each level holds, and how many pages a merge wrote. Its layout (SQLite's
// fts5_index.c, "Structure record"): a 4-byte cookie; then, in the second version, 0xff000001;
// then varints: the number of levels, of segments, the write counter; then each level: the
// segments in a merge under way, the segments, and for each segment its id and first and last
// page (the second version adds five varints a segment).

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

interface Level {
  /** The segments: a key (the id, with the first write it holds where the record has it) and leaf pages. */
  segments: { key: string; pages: number }[];
}

function levelsOf(record: Uint8Array | null): Level[] {
  if (record === null || record.length < 4) return [];
  const at = { i: 4 };
  const v2 = record[4] === 0xff && record[5] === 0 && record[6] === 0 && record[7] === 1;
  if (v2) at.i = 8;
  const levels = varint(record, at);
  varint(record, at); // segments in all
  varint(record, at); // write counter
  const out: Level[] = [];
  for (let l = 0; l < levels; l++) {
    varint(record, at); // in a merge under way
    const n = varint(record, at);
    const segments: Level['segments'] = [];
    for (let s = 0; s < n; s++) {
      const id = varint(record, at);
      const first = varint(record, at);
      const last = varint(record, at);
      // The second version's five: the first and last write the segment holds, then tombstone and entry counts.
      const origin = v2 ? varint(record, at) : 0;
      if (v2) for (let k = 0; k < 4; k++) varint(record, at);
      // An id a merge freed can be given to a segment made later in the same step: the origin tells them apart.
      segments.push({ key: `${id}:${origin}`, pages: last - first + 1 });
    }
    out.push({ segments });
  }
  return out;
}

/** Segments on each level of the index, lowest first ([] for an index that has none yet). */
export const segmentsPerLevel = (record: Uint8Array | null): number[] => levelsOf(record).map((l) => l.segments.length);

/** The most segments one level holds. */
export const widestLevel = (record: Uint8Array | null): number => Math.max(0, ...segmentsPerLevel(record));

/**
 * The leaf pages a merge wrote between two structure records: the pages of each segment it made
 * and what the segment of a merge under way grew by (the segments it read from only shrink, their
 * merged pages taken off the front).
 */
export function pagesWritten(before: Uint8Array | null, after: Uint8Array | null): number {
  const had = new Map<string, number>();
  for (const l of levelsOf(before)) for (const s of l.segments) had.set(s.key, s.pages);
  let written = 0;
  for (const l of levelsOf(after)) for (const s of l.segments) written += Math.max(0, s.pages - (had.get(s.key) ?? 0));
  return written;
}
