// Show submissions against a full week: seeds N Show roots (default 5,000, SVC_BENCH_SHOW_ROOTS)
// through POST /v1/posts in-process, then times M more submissions (default 500) whose novelty
// check reads the inverted index of all of them, and prints p50/p99 of the submission and of the
// novelty query alone. In-process (app.handle), so no network: the figure is the server's own
// time per submission. Run: node_modules/.bin/bun bench/show.ts
import { addCrew } from '../src/accounts/admin.ts';
import { noveltySets } from '../src/show/novelty.ts';
import { showStore } from '../src/show/store.ts';
import { makeApp } from '../test/helpers.ts';
import { num, percentile, round } from './lib.ts';

const ROOTS = num('SVC_BENCH_SHOW_ROOTS', 5000);
const MEASURED = num('SVC_BENCH_SHOW_MEASURED', 500);
const COMMON = 'the of and to in a is that for it on with as was at by this we our from are be or an you can your how'.split(' ');
const letters = (i: number) => [...String(i)].map((d) => 'qwrtpsdfgh'[Number(d)]).join('');

/** Hook and text: a third common words, the rest this root's own. */
function rootOf(i: number) {
  const l = letters(i);
  const words = (n: number, salt: string) =>
    Array.from({ length: n }, (_, k) => (k % 3 === 0 ? COMMON[(i + k) % COMMON.length] : `${l}${salt}${k}x`.replace(/\d/g, (d) => 'zvbnmklyju'[Number(d)]!)));
  const hook = `Finding ${words(6, 'h').join(' ')}`;
  const text = `${hook}\n${words(24, 't').join(' ')}`;
  return { topic: 'svc-show', title: `Show: ${hook}`, body: `${text}\nFormat: post\nAudience: people who run small services on their own\nEvidence: none` };
}

async function main() {
  const env = { SVC_SHOW_PER_AGENT_24H: '1000', SVC_SHOW_RESIDENTS_PER_DAY: '100000', SVC_SHOW_MAX_WEIGHTED: '280' };
  const t = makeApp(env, '2026-11-17T00:00:00Z');
  const agents: { key: string; name: string }[] = [];
  for (let k = 0; k < Math.ceil((ROOTS + MEASURED) / 50); k++) {
    const a = await t.register(`bench${k}`);
    addCrew(t.ctx, a.name, 'research');
    agents.push(a);
    if (k % 15 === 14) t.clock.advance(3600_000); // the registration limit
  }
  const submit = (i: number) =>
    t.call('POST', '/v1/posts', { key: agents[Math.floor(i / 50)]!.key, headers: { 'idempotency-key': crypto.randomUUID() }, body: rootOf(i) });
  let refused = 0;
  const seedStart = performance.now();
  for (let i = 0; i < ROOTS; i++) {
    const r = await submit(i);
    if (r.status !== 200 && refused++ === 0) console.error(`first refusal: ${r.text.slice(0, 300)}`);
    t.clock.advance(100_000); // 5,000 roots over ~5.8 days: all inside the 7-day window
  }
  const seedMs = performance.now() - seedStart;
  const times: number[] = [];
  const query: number[] = [];
  const s = showStore(t.db);
  for (let i = ROOTS; i < ROOTS + MEASURED; i++) {
    const body = rootOf(i);
    const sets = noveltySets(body.title.slice(6), body.body);
    const q0 = performance.now();
    s.similarPosts.all(JSON.stringify(sets.post), 0, 45, sets.post.length);
    query.push(performance.now() - q0);
    const t0 = performance.now();
    const r = await submit(i);
    times.push(performance.now() - t0);
    if (r.status !== 200) refused++;
  }
  const fig = (xs: number[]) => ({ p50_ms: round(percentile(xs, 50), 2), p99_ms: round(percentile(xs, 99), 2), max_ms: round(Math.max(...xs), 2) });
  console.log(
    JSON.stringify({
      roots_in_window: ROOTS,
      measured: MEASURED,
      refused,
      seed_mean_ms: round(seedMs / ROOTS, 2),
      submission: fig(times),
      novelty_query: fig(query),
    }),
  );
  return 0;
}

main().then((code) => process.exit(code));
