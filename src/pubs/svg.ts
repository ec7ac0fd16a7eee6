// The admission check that costs time runs in the pubs-svg worker pool, off the request thread:
// each svg source (sanitize.ts) with the text it draws. All are sent at once and judged in a fixed
// order, so the answer never depends on which finished first: the first refused svg in block
// order, then the first drawn text that breaks a rule (the article's texts are judged before
// both, by the write pipeline's content rules: submit.ts). A source the check cannot finish within
// its budget is refused: one we cannot vouch for, and resending the same bytes would end the same way.
import type { Config } from '../config.ts';
import type { AppContext } from '../context.ts';
import { fail } from '../http/errors.ts';
import { backgroundWorkers, WorkerPool, WorkerTimeout, workerLocation } from '../workers/pool.ts';
import type { Content } from './envelope.ts';
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

/** The jobs an article gives the worker: one per svg block (bench/article-svg.ts measures them). */
export function articleJobs(content: Content, settings: { svgMaxDepth: number }): (PubsJob & { blockIndex: number })[] {
  return content.blocks.flatMap((b, i) =>
    b.type === 'svg' ? [{ kind: 'svg', where: `blocks[${i}].source`, source: b.source, maxDepth: settings.svgMaxDepth, blockIndex: i }] : [],
  );
}

/**
 * The costly admission check of an article, in the worker: each svg (422 PUBS_SVG_REFUSED naming
 * the block), then the text each image draws (the content rules at blocks[i].source). The
 * article's own texts are scanned by the write pipeline (submit.ts), judged before these.
 */
export async function checkArticle(ctx: AppContext, content: Content): Promise<CheckedSvg[]> {
  const pool = ctx.workers.pubsSvg;
  const jobs = articleJobs(content, ctx.config.pubs);
  const verdicts = await Promise.all(
    jobs.map((job) =>
      pool.run(job).then(
        (v) => v as SvgVerdict,
        (e: unknown): SvgVerdict => ({ ok: false, where: job.where, reason: logFailure('svg', e) ? 'check_timeout' : 'check_failed' }),
      ),
    ),
  );
  const checked = verdicts.map((v) => {
    if (!v.ok) {
      const { ok: _, ...details } = v;
      return fail('PUBS_SVG_REFUSED', details);
    }
    return v;
  });
  for (const v of checked) if (v.drawn) refuse(v.drawn);
  return checked.map((v, n) => ({ blockIndex: jobs[n]!.blockIndex, sanitized: v.sanitized, text: v.text }));
}
