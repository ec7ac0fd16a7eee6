// Prints the PRICE_TALK rules' counts on every corpus: the two held-out sets (read through
// scanContent over { title, body }, as a board write is) and the case tables (through
// findPriceTalk, as their test reads them). For each: predictions caught / missed, near misses
// flagged (false positives).
//
//   bun test/content/price-talk-counts.ts            the rules in this tree
//   bun test/content/price-talk-counts.ts <rev>      also the rules at a git revision, side by side
//
// With a revision, that revision's src/ is unpacked (git archive) into a directory beside this
// tree's, so its bare imports resolve to the same node_modules, and removed afterwards. The corpora
// are always this tree's: the point is the same cases read by two versions of the rules.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PRICE_TALK_CLASSES } from './price-talk-cases.ts';
import { HELD_OUT, type HeldOutCase } from './price-talk-heldout.ts';
import { SPLIT_HELD_OUT } from './price-talk-split-heldout.ts';

interface Rules {
  scanContent: (value: unknown, opts: { secrets: boolean; selfPitch: boolean }) => { code: string; match?: string } | null;
  findPriceTalk: (text: string) => { match: string } | null;
}

interface Count {
  corpus: string;
  caught: number;
  positives: number;
  flagged: number;
  negatives: number;
  missed: string[];
  falsePositives: string[];
}

const request = (c: HeldOutCase) => (typeof c === 'string' ? { title: 'Notes', body: c } : c);
const show = (c: HeldOutCase) => JSON.stringify(c);

function counts(rules: Rules): Count[] {
  const heldOut = (corpus: string, set: { predictions: HeldOutCase[]; nearMisses: HeldOutCase[] }): Count => {
    const hit = (c: HeldOutCase) => rules.scanContent(request(c), { secrets: false, selfPitch: false })?.code === 'PRICE_TALK';
    const missed = set.predictions.filter((c) => !hit(c)).map(show);
    const falsePositives = set.nearMisses.filter(hit).map(show);
    return {
      corpus,
      caught: set.predictions.length - missed.length,
      positives: set.predictions.length,
      flagged: falsePositives.length,
      negatives: set.nearMisses.length,
      missed,
      falsePositives,
    };
  };
  const positives = PRICE_TALK_CLASSES.flatMap((c) => c.positives);
  const negatives = PRICE_TALK_CLASSES.flatMap((c) => c.negatives);
  const missed = positives.filter((t) => !rules.findPriceTalk(t)).map(show);
  const falsePositives = negatives.filter((t) => rules.findPriceTalk(t) !== null).map(show);
  return [
    heldOut('split held-out (price-talk-split-heldout.ts)', SPLIT_HELD_OUT),
    heldOut('shape held-out (price-talk-heldout.ts)', HELD_OUT),
    {
      corpus: 'case tables (price-talk-cases*.ts)',
      caught: positives.length - missed.length,
      positives: positives.length,
      flagged: falsePositives.length,
      negatives: negatives.length,
      missed,
      falsePositives,
    },
  ];
}

function print(label: string, rows: Count[]): void {
  console.log(`\n${label}`);
  for (const r of rows) {
    console.log(`  ${r.corpus}: caught ${r.caught}/${r.positives}, missed ${r.positives - r.caught}, false positives ${r.flagged}/${r.negatives}`);
    for (const m of r.missed) console.log(`    missed: ${m}`);
    for (const f of r.falsePositives) console.log(`    false positive: ${f}`);
  }
}

async function rulesAt(rev: string): Promise<{ rules: Rules; cleanup: () => void }> {
  const root = resolve(import.meta.dir, '../..');
  const dir = mkdtempSync(join(root, '.price-talk-rev-'));
  const cleanup = () => rmSync(dir, { recursive: true, force: true });
  const unpack = spawnSync('sh', ['-c', `git -C "${root}" archive "$0" src | tar -x -C "${dir}"`, rev], { stdio: 'inherit' });
  if (unpack.status !== 0) {
    cleanup();
    throw new Error(`cannot read src/ at ${rev}`);
  }
  return { rules: (await import(join(dir, 'src/content/index.ts'))) as Rules, cleanup };
}

const here = (await import('../../src/content/index.ts')) as Rules;
const rev = process.argv[2];
if (rev) {
  const { rules, cleanup } = await rulesAt(rev);
  try {
    print(`before: the rules at ${rev}`, counts(rules));
  } finally {
    cleanup();
  }
}
print(rev ? 'after: the rules in this tree' : 'the rules in this tree', counts(here));
