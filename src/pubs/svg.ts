// Runs the SVG admission check (sanitize.ts) in the pubs-svg worker pool, one job per svg block,
// within a time budget. A source the check cannot finish in time is refused: one we cannot vouch
// for, and resending the same bytes would end the same way.
import type { AppContext } from '../context.ts';
import { fail } from '../http/errors.ts';
import { backgroundWorkers, WorkerPool, WorkerTimeout, workerLocation } from '../workers/pool.ts';
import type { Content } from './envelope.ts';
import type { SvgInput, SvgVerdict } from './sanitize.ts';

const SVG_BUDGET_MS = 5_000;

type SvgPool = WorkerPool<SvgInput, SvgVerdict>;

// Worker threads belong to the process: one pool for every context, started on the first svg.
let shared: SvgPool | null = null;
const own = new WeakMap<AppContext, SvgPool>();

/** Tests give a context its own pool (a tiny budget …). */
export function setSvgPool(ctx: AppContext, pool: SvgPool): void {
  own.set(ctx, pool);
}

function svgPool(ctx: AppContext): SvgPool {
  const pool = own.get(ctx);
  if (pool) return pool;
  shared ??= new WorkerPool<SvgInput, SvgVerdict>(workerLocation('pubs-svg'), backgroundWorkers(), SVG_BUDGET_MS);
  return shared;
}

export interface CheckedSvg {
  blockIndex: number;
  sanitized: string;
  text: string; // what the image draws as text: scanned by the content rules
}

/** Checks every svg block of an article; the first refusal (in block order) answers PUBS_SVG_REFUSED. */
export async function checkSvgs(ctx: AppContext, content: Content): Promise<CheckedSvg[]> {
  const jobs = content.blocks.flatMap((b, i) => (b.type === 'svg' ? [{ i, source: b.source }] : []));
  if (jobs.length === 0) return [];
  const pool = svgPool(ctx);
  const verdicts = await Promise.all(
    jobs.map(({ i, source }) =>
      pool.run({ where: `blocks[${i}].source`, source, maxDepth: ctx.config.pubs.svgMaxDepth }).catch((e: unknown): SvgVerdict => {
        const timeout = e instanceof WorkerTimeout;
        console.error(JSON.stringify({ event: 'pubs_svg_failed', reason: timeout ? 'timeout' : 'crash', error: String((e as Error)?.message ?? e) }));
        return { ok: false, where: `blocks[${i}].source`, reason: timeout ? 'check_timeout' : 'check_failed' };
      }),
    ),
  );
  return verdicts.map((v, n) => {
    if (!v.ok) {
      const { ok: _, ...details } = v;
      return fail('PUBS_SVG_REFUSED', details);
    }
    return { blockIndex: jobs[n]!.i, sanitized: v.sanitized, text: v.text };
  });
}
