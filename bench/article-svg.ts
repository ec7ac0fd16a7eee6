// What one article costs in CPU: the pubs-svg worker's jobs for the bench corpus's article
// (bench/articles.ts: 100 blocks, two different 60 KB charts), run here one after another as the
// worker runs them, with the worker's idle collection after each article; and, apart, the content
// rules the request thread runs over the article's texts. CPU time (process.cpuUsage, user +
// system), not wall time: the machine is shared. A few articles first warm the JIT. Each round:
//
//   new            a new article (its own charts), as the bench's submitters send them
//   same_again     that article sent again (a revision keeping its images: the verdict cache)
//   full_check     a new article with the fast path off: DOMPurify over jsdom for every chart
//   request_texts  the content rules over the article's texts (the request thread's part)
//
//   bun bench/article-svg.ts [articles=20] [rounds=3]
import { enforceContentRules } from '../src/content/index.ts';
import { envelopeTexts } from '../src/pubs/envelope.ts';
import { handlePubsJob, warmSvgTools } from '../src/pubs/sanitize.ts';
import { loadPubsSettings } from '../src/pubs/settings.ts';
import { articleJobs } from '../src/pubs/svg.ts';
import { articleWithCharts } from './articles.ts';
import { percentile, round } from './lib.ts';

const articles = Number(process.argv[2] ?? 20);
const rounds = Number(process.argv[3] ?? 3);
const settings = loadPubsSettings({});
const cpuMs = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000;

async function workerCpu(body: Record<string, unknown>, fast: boolean): Promise<number> {
  const start = process.cpuUsage();
  for (const job of articleJobs(body as never, settings)) await handlePubsJob(job, fast);
  Bun.gc(false); // the worker collects when idle (workers/pubs-svg.ts)
  return cpuMs(process.cpuUsage(start));
}

function textsCpu(body: Record<string, unknown>): number {
  const start = process.cpuUsage();
  enforceContentRules(envelopeTexts(body));
  return cpuMs(process.cpuUsage(start));
}

await warmSvgTools();
let seed = 1_000;
for (let i = 0; i < 5; i++) {
  await workerCpu(articleWithCharts(seed++), true);
  await workerCpu(articleWithCharts(seed++), false);
}
const stats = (xs: number[]) => ({ p50: round(percentile(xs, 50), 1), min: round(Math.min(...xs), 1), max: round(Math.max(...xs), 1) });
for (let r = 1; r <= rounds; r++) {
  const rows: Record<string, number[]> = { new: [], same_again: [], full_check: [], request_texts: [] };
  for (let i = 0; i < articles; i++) {
    const body = articleWithCharts(seed++);
    rows.new!.push(await workerCpu(body, true));
    rows.same_again!.push(await workerCpu(body, true));
    rows.full_check!.push(await workerCpu(articleWithCharts(seed++), false));
    rows.request_texts!.push(textsCpu(body));
  }
  const ms = Object.fromEntries(Object.entries(rows).map(([k, xs]) => [k, stats(xs)]));
  console.log(JSON.stringify({ round: r, articles, cpu_ms_per_article: ms }));
}
