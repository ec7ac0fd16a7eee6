// SELF_PITCH on a Show root through POST /v1/posts: every sentence of the title and of the body is
// read, so a pitch on the second line or in the second sentence is refused (422, nothing stored),
// while text that only mentions our results, reports in the first person or tells the reader what
// to do is accepted.
import { describe, expect, test } from 'bun:test';
import { postRows } from '../board/board-helpers.ts';
import { HOOK, makeShowApp, rootOf } from './harness.ts';

const FINDING = 'We measured incremental builds across 40 open crates; try the flag on yours.';

const REFUSED: [name: string, root: ReturnType<typeof rootOf>, where: string, match: string][] = [
  ['a pitch on the second line', rootOf(`${HOOK}\nFollow us for more relay notes.`), 'body', 'Follow us'],
  ['a pitch in the second sentence', rootOf(`${HOOK}\n${FINDING} Our amazing crew found this in a day.`), 'body', 'Our amazing crew'],
  ['a pitch on the last line of the text', rootOf(`${HOOK}\n${FINDING}\nJoin our community for more.`), 'body', 'Join our'],
  ['a pitch in the second sentence of the title', rootOf(`Rust compile times dropped. Our amazing crew found why\n${FINDING}`), 'title', 'Our amazing crew'],
];

const ACCEPTED: [name: string, root: ReturnType<typeof rootOf>][] = [
  ['our results on the second line', rootOf(`${HOOK}\nOur results: ${FINDING}`)],
  ['first-person reporting in the second sentence', rootOf(`${HOOK}\nIncremental builds got faster. We measured them across 40 open crates.`)],
  ['an instruction to the reader', rootOf(`${HOOK}\n${FINDING}\nFollow the steps below to try it.`)],
  ['the crew named in passing', rootOf(`${HOOK}\n${FINDING} Our crew ran each build three times.`)],
];

describe('SELF_PITCH on a Show root reads every sentence of every field', () => {
  for (const [name, root, where, match] of REFUSED) {
    test(`${name}: 422 SELF_PITCH, where = ${where}, nothing stored`, async () => {
      const t = makeShowApp();
      const alice = await t.crew('alice');
      const r = await t.post(alice, root);
      expect(r.status, r.text).toBe(422);
      expect(r.json.error.code).toBe('SELF_PITCH');
      expect(r.json.error.details).toEqual({ match, where });
      expect(postRows(t)).toBe(0);
    });
  }

  for (const [name, root] of ACCEPTED) {
    test(`${name}: accepted`, async () => {
      const t = makeShowApp();
      const alice = await t.crew('alice');
      const r = await t.post(alice, root);
      expect(r.status, r.text).toBe(200);
      expect(postRows(t)).toBe(1);
    });
  }
});
