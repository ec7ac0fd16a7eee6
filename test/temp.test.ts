// test/temp.ts and test/end.ts: the folders every file of a run made are removed once the run ends
// (not when the first file that imported the module ends), after the atEnd functions ran. Checked
// on a run of its own: `bun test` with the same preload on two generated files.
import { expect, test } from 'bun:test';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const TEMP = join(import.meta.dir, 'temp.ts');
const END = join(import.meta.dir, 'end.ts');

const fileMaking = (tag: string, log: string) => `
import { expect, test } from 'bun:test';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { atEnd, tempDir } from ${JSON.stringify(TEMP)};
test('${tag}', () => {
  const d = tempDir('svc-temp-test-');
  appendFileSync(${JSON.stringify(log)}, 'made ' + d + '\\n');
  atEnd(() => appendFileSync(${JSON.stringify(log)}, 'end ${tag} ' + existsSync(d) + '\\n'));
  // A folder an earlier file made is still there while a later file runs.
  for (const line of readFileSync(${JSON.stringify(log)}, 'utf8').split('\\n'))
    if (line.startsWith('made ')) expect(existsSync(line.slice(5))).toBe(true);
});
`;

test('the folders each file of a run made are there until the run ends, then gone, after the atEnd functions', async () => {
  const work = mkdtempSync(join(tmpdir(), 'svc-temp-run-'));
  try {
    const log = join(work, 'log');
    writeFileSync(log, '');
    writeFileSync(join(work, 'a.test.ts'), fileMaking('a', log));
    writeFileSync(join(work, 'b.test.ts'), fileMaking('b', log));
    const p = Bun.spawn([process.execPath, 'test', '--preload', END, join(work, 'a.test.ts'), join(work, 'b.test.ts')], {
      cwd: work,
      stdout: 'pipe',
      stderr: 'pipe',
    });
    const err = await new Response(p.stderr).text();
    expect(await p.exited, err).toBe(0);
    const lines = readFileSync(log, 'utf8').trim().split('\n');
    const made = lines.filter((l) => l.startsWith('made ')).map((l) => l.slice(5));
    expect(made).toHaveLength(2);
    // Both atEnd functions ran once, each while its folder was still there.
    expect(lines.filter((l) => l.startsWith('end ')).sort()).toEqual(['end a true', 'end b true']);
    for (const d of made) expect(existsSync(d)).toBe(false);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});
