// The admission checks that cost time run in the pubs-svg worker pool, off the request thread:
// the content rules over every text of the article, and each svg source (sanitize.ts) with the
// text it draws. All are sent at once and judged in a fixed order, so the answer never depends on
// which finished first: a text rule, then the first refused svg in block order, then the first
// drawn text that breaks a rule. A source the check cannot finish within its budget is refused:
// one we cannot vouch for, and resending the same bytes would end the same way.
import type { Config } from '../config.ts';
import type { AppContext } from '../context.ts';
import { enforceContentRules } from '../content/index.ts';
import { fail } from '../http/errors.ts';
import { backgroundWorkers, WorkerPool, WorkerTimeout, workerLocation } from '../workers/pool.ts';
import { type Content, scannable } from './envelope.ts';
import type { PubsJob, PubsJobResult, RulesVerdict, SvgVerdict } from './sanitize.ts';

const SVG_BUDGET_MS = 5_000;

type SvgPool = WorkerPool<PubsJob, PubsJobResult>;

declare module '../context.ts' {
  interface Workers {
    /** The pubs-svg workers (workers/pubs-svg.ts): an article's costly admission checks. */
    pubsSvg: SvgPool;
  }
}

/** The pubs-svg pool, built by the composition root (src/pubs/domain.ts hands it over). */
export const svgPool = (config: Config): SvgPool =>
  new WorkerPool<PubsJob, PubsJobResult>(workerLocation('pubs-svg'), config.pubs.svgWorkers || backgroundWorkers(), SVG_BUDGET_MS);

export interface CheckedSvg {
  blockIndex: number;
  sanitized: string;
  text: string; // what the image draws as text (scanned by the content rules)
}

const logFailure = (job: string, e: unknown) => {
  const timeout = e instanceof WorkerTimeout;
  console.error(JSON.stringify({ event: 'pubs_check_failed', job, reason: timeout ? 'timeout' : 'crash', error: String((e as Error)?.message ?? e) }));
  return timeout;
};

const refuse = (v: RulesVerdict) => {
  if (!v.ok) fail(v.code, v.details);
};

/**
 * Every costly admission check of an article, in the worker: the content rules over its texts
 * (422 SECRET_LIKE, PRICE_TALK, SELF_PITCH naming the block), each svg (422 PUBS_SVG_REFUSED
 * naming the block), and the text each image draws (the content rules at blocks[i].source).
 */
export async function checkArticle(ctx: AppContext, content: Content): Promise<CheckedSvg[]> {
  const pool = ctx.workers.pubsSvg;
  const texts = scannable(content);
  const rules = pool.run({ kind: 'rules', value: texts }).then(
    (r) => r as RulesVerdict,
    (e: unknown): RulesVerdict => {
      logFailure('rules', e);
      // The rules are cheap enough to run here when the worker could not: never skipped.
      enforceContentRules(texts);
      return { ok: true };
    },
  );
  const jobs = content.blocks.flatMap((b, i) => (b.type === 'svg' ? [{ i, source: b.source }] : []));
  const verdicts = Promise.all(
    jobs.map(({ i, source }) =>
      pool.run({ kind: 'svg', where: `blocks[${i}].source`, source, maxDepth: ctx.config.pubs.svgMaxDepth, blockIndex: i }).then(
        (v) => v as SvgVerdict,
        (e: unknown): SvgVerdict => ({ ok: false, where: `blocks[${i}].source`, reason: logFailure('svg', e) ? 'check_timeout' : 'check_failed' }),
      ),
    ),
  );
  // Both are awaited before judging, so a refusal never leaves a job running unawaited.
  const [textVerdict, svgs] = await Promise.allSettled([rules, verdicts]);
  if (textVerdict.status === 'rejected') throw textVerdict.reason;
  refuse(textVerdict.value);
  if (svgs.status === 'rejected') throw svgs.reason;
  const checked = svgs.value.map((v) => {
    if (!v.ok) {
      const { ok: _, ...details } = v;
      return fail('PUBS_SVG_REFUSED', details);
    }
    return v;
  });
  for (const v of checked) if (v.drawn) refuse(v.drawn);
  return checked.map((v, n) => ({ blockIndex: jobs[n]!.i, sanitized: v.sanitized, text: v.text }));
}
