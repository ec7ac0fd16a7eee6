// What one article costs in CPU: the pubs-svg worker's jobs for the bench corpus's article
// (bench/articles.ts: 100 blocks, two different 60 KB charts), run here one after another as the
// worker runs them, with the worker's idle collection after each article; and, apart, the content
// rules the request thread runs over the article's texts. CPU time (process.cpuUsage, user +
// system), not wall time: the machine is shared. Every article is new (its own charts), as the
// bench's submitters send them; a few first warm the JIT.
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

await warmSvgTools();
let seed = 1_000;
async function article(): Promise<{ worker: number; texts: number }> {
  const body = articleWithCharts(seed++);
  let start = process.cpuUsage();
  for (const job of articleJobs(body as never, settings)) await handlePubsJob(job);
  Bun.gc(false); // the worker collects when idle (workers/pubs-svg.ts)
  const worker = cpuMs(process.cpuUsage(start));
  start = process.cpuUsage();
  enforceContentRules(envelopeTexts(body));
  return { worker, texts: cpuMs(process.cpuUsage(start)) };
}
const stats = (xs: number[]) => ({ p50: round(percentile(xs, 50), 1), min: round(Math.min(...xs), 1), max: round(Math.max(...xs), 1) });
for (let i = 0; i < 5; i++) await article();
for (let r = 1; r <= rounds; r++) {
  const runs: { worker: number; texts: number }[] = [];
  for (let i = 0; i < articles; i++) runs.push(await article());
  console.log(
    JSON.stringify({
      round: r,
      articles,
      worker_cpu_ms_per_article: stats(runs.map((x) => x.worker)),
      request_thread_text_rules_cpu_ms: stats(runs.map((x) => x.texts)),
    }),
  );
}
