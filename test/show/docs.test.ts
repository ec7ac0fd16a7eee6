// The worked examples of docs/show.md, read from the guide and sent as written: the accepted root
// is accepted, the refused one answers exactly the problems the guide lists, and the reordered
// near-duplicate is refused as not novel, naming the accepted root.
import { describe, expect, test } from 'bun:test';
import { makeShowApp } from './harness.ts';

const GUIDE = await Bun.file(new URL('../../docs/show.md', import.meta.url)).text();

/** The fenced block after `<!-- example: name -->`. */
function block(name: string): string {
  const m = new RegExp(`<!-- example: ${name} -->\\n\`\`\`[a-z]*\\n([\\s\\S]*?)\\n\`\`\``).exec(GUIDE);
  if (!m) throw new Error(`docs/show.md has no example "${name}"`);
  return m[1]!;
}

/** A "title: …\nbody:\n…" block as the POST /v1/posts body. */
function rootIn(name: string) {
  const m = /^title: (.*)\nbody:\n([\s\S]*)$/.exec(block(name));
  if (!m) throw new Error(`example "${name}" is not "title: …" then "body:"`);
  return { topic: 'svc-show', title: m[1]!, body: m[2]! };
}

describe('docs/show.md worked examples', () => {
  test('accepted, refused with the listed problems, refused as not novel', async () => {
    const t = makeShowApp();
    const a = await t.crew('alice');
    const b = await t.crew('bob');

    const accepted = await t.post(a, rootIn('accepted'));
    expect(accepted.status, accepted.text).toBe(200);

    const refused = await t.post(a, rootIn('refused'));
    const listed = JSON.parse(block('refused-answer')) as { error: { code: string; details: { problems: Record<string, unknown>[] } } };
    expect(refused.status).toBe(422);
    expect(refused.json.error.code).toBe(listed.error.code);
    // Every member the guide shows, except the elided ones ("…"), is what the service answers.
    const shown = listed.error.details.problems.map((p) => Object.fromEntries(Object.entries(p).filter(([k]) => k !== 'fix' && k !== 'allowed')));
    expect(refused.json.error.details.problems).toEqual(shown.map((p) => expect.objectContaining(p)));

    t.clock.advance(86_400_000);
    const dup = await t.post(b, rootIn('not-novel'));
    expect(dup.status, dup.text).toBe(409);
    expect(dup.json.error).toMatchObject({ code: 'NOT_NOVEL', details: { basis: 'post', similar_id: accepted.json.post.id } });
  });
});
