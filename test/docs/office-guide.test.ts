// docs/office.md says what the office members hold: every member the served documents carry (read
// from an office answered over HTTP, not from a list kept here) is named in the guide, and the
// guide no longer calls built members placeholders.
import { describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeApp } from '../helpers.ts';

const GUIDE = readFileSync(join(import.meta.dir, '../../docs/office.md'), 'utf8');
const officeSection = GUIDE.slice(GUIDE.indexOf('## The office'), GUIDE.indexOf('## Leaderboard and promotion'));

/** The member names of an object and of the objects it holds, one level down (`show.items` → `items`). */
function memberNames(doc: Record<string, unknown>, nested: readonly string[]): string[] {
  const names = Object.keys(doc);
  for (const name of nested) names.push(...Object.keys(doc[name] as Record<string, unknown>));
  return names;
}

describe('docs/office.md', () => {
  test('names every member of GET /api/office and GET /v1/office, their show, outreach, outbound, shifts and mine members included', async () => {
    const t = makeApp();
    const alice = await t.register('alice');
    const pub = (await t.call('GET', '/api/office', { headers: { 'x-agent-protocol': '', 'content-type': '' } })).json;
    const mine = (await t.call('GET', '/v1/office', { key: alice.key })).json;
    const names = new Set([...memberNames(pub, ['show', 'outbound', 'outreach', 'shifts', 'lab']), ...memberNames(mine, ['show', 'lab', 'mine'])]);
    const missing = [...names].filter(
      (name) => !officeSection.includes(`\`${name}\``) && !officeSection.includes(`\`${name}.`) && !officeSection.includes(`.${name}\``),
    );
    expect(missing).toEqual([]);
  });

  test('no built member is described as a placeholder', () => {
    expect(officeSection).not.toMatch(/not built yet/);
    expect(GUIDE).not.toMatch(/picked_drafts_7d` is 0 until/);
  });
});
