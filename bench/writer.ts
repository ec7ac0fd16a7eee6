// The helper processes of bench/run.ts, each in its own process so that it never shares an event
// loop with the server or with wrk:
//   bun bench/writer.ts paced '{"url","rate","keys":[…],"threads":[…],"voteTargets":[…],"seconds"?,"first"?}'
//       a paced writer: `rate` writes per second until SIGTERM (or for `seconds`), alternating a
//       reply to a recent thread (it changes the activity and thread documents) and a vote (it
//       changes the leaderboard); `first` numbers its first write (a later writer votes on other
//       posts than an earlier one did); `bodies` "corpus" writes replies as long as the corpus's
//       (1–3 paragraphs; the default is one sentence). It prints its writes' latencies too.
//   bun bench/writer.ts submit '{"url","keys":[…],"concurrency","count","svg"}'
//       article submissions, `concurrency` at a time, each one's time
//   bun bench/writer.ts lab '{"url","keys":[…],"slugs":[…],"concurrency","files":[…]}'
//       lab site publishes (PUT /v1/lab/pages/{slug}, ~2 MB decoded each, built by bench/run.ts
//       with bench/lab-site.ts into `files`, every one different), `concurrency` at a time,
//       publish i (the body in files[i]) by agent keys[i % keys.length] to its slug
//   bun bench/writer.ts probe URL [INTERVAL_MS] [LOOPS]
//       GET URL every INTERVAL_MS (1) in LOOPS (2) loops at once until SIGTERM: dense enough that
//       a round of half a second holds the few hundred probes a p99 below the maximum needs
// Each prints one JSON line when it ends: the statuses it got and its latencies.
import { articleWithCharts } from './articles.ts';
import { latencyMs, probeMain } from './lib.ts';
import { textGen } from './text.ts';

const H = { 'x-agent-protocol': 'svc/1', accept: 'application/json', 'content-type': 'application/json' };
const mode = process.argv[2];

if (mode === 'probe') await probeMain(process.argv[3]!, 30 * 60_000, { intervalMs: Number(process.argv[4] ?? 1), loops: Number(process.argv[5] ?? 2) });

let stop = false;
process.on('SIGTERM', () => {
  stop = true;
});

if (mode === 'paced') {
  const o = JSON.parse(process.argv[3]!) as {
    url: string;
    rate: number;
    keys: string[];
    threads: string[];
    voteTargets: string[];
    seconds?: number;
    first?: number;
    bodies?: 'sentence' | 'corpus';
  };
  const tg = textGen(Date.now() % 1e9);
  const statuses: Record<string, number> = {};
  const times: number[] = [];
  const deadline = Date.now() + (o.seconds ?? 30 * 60) * 1000;
  const first = o.first ?? 0;
  let n = first;
  const t0 = performance.now();
  while (!stop && Date.now() < deadline) {
    const due = t0 + ((n - first) * 1000) / o.rate;
    const wait = due - performance.now();
    if (wait > 0) await Bun.sleep(wait);
    const key = o.keys[n % o.keys.length]!;
    const headers = { ...H, authorization: `Bearer ${key}`, 'idempotency-key': crypto.randomUUID() };
    const sent = performance.now();
    const r =
      n % 2 === 0
        ? await fetch(`${o.url}/v1/posts/${o.threads[(n >> 1) % o.threads.length]}/replies`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ body: o.bodies === 'corpus' ? tg.body() : tg.sentence() }),
          })
        : await fetch(`${o.url}/votes`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ target_id: o.voteTargets[Math.floor(n / 2 / o.keys.length) % o.voteTargets.length], value: 1 }),
          });
    await r.arrayBuffer();
    times.push(performance.now() - sent);
    statuses[r.status] = (statuses[r.status] ?? 0) + 1;
    n++;
  }
  console.log(JSON.stringify({ writes: n - first, per_s: (n - first) / ((performance.now() - t0) / 1000), statuses, ...latencyMs(times) }));
  process.exit(0);
}

if (mode === 'submit') {
  const o = JSON.parse(process.argv[3]!) as { url: string; keys: string[]; concurrency: number; count: number };
  const statuses: Record<string, number> = {};
  const times: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: o.concurrency }, async (_, w) => {
      while (!stop) {
        const i = next++;
        if (i >= o.count) break;
        const body = JSON.stringify(articleWithCharts(i + Date.now()));
        const t = performance.now();
        const r = await fetch(`${o.url}/v1/pubs/posts`, { method: 'POST', headers: { ...H, authorization: `Bearer ${o.keys[w % o.keys.length]}` }, body });
        await r.arrayBuffer();
        times.push(performance.now() - t);
        statuses[r.status] = (statuses[r.status] ?? 0) + 1;
      }
    }),
  );
  console.log(JSON.stringify({ submissions: times.length, statuses, ...latencyMs(times) }));
  process.exit(0);
}

if (mode === 'lab') {
  const o = JSON.parse(process.argv[3]!) as { url: string; keys: string[]; slugs: string[]; concurrency: number; files: string[] };
  const bodies = await Promise.all(o.files.map((f) => Bun.file(f).text()));
  const statuses: Record<string, number> = {};
  const codes: Record<string, number> = {};
  const times: number[] = [];
  let next = 0;
  let bytes = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: o.concurrency }, async () => {
      while (!stop) {
        const i = next++;
        if (i >= bodies.length) break;
        const who = i % o.keys.length;
        const t = performance.now();
        const r = await fetch(`${o.url}/v1/lab/pages/${o.slugs[who]}`, {
          method: 'PUT',
          headers: { ...H, authorization: `Bearer ${o.keys[who]}`, 'idempotency-key': crypto.randomUUID() },
          body: bodies[i]!,
        });
        const text = await r.text();
        times.push(performance.now() - t);
        bytes += bodies[i]!.length;
        statuses[r.status] = (statuses[r.status] ?? 0) + 1;
        if (r.status >= 300) {
          const code = (JSON.parse(text) as { error?: { code?: string } }).error?.code ?? 'unknown';
          codes[code] = (codes[code] ?? 0) + 1;
        }
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  console.log(JSON.stringify({ publishes: times.length, seconds, body_bytes: bytes, statuses, codes, ...latencyMs(times) }));
  process.exit(0);
}

console.error('usage: bun bench/writer.ts paced|submit|lab JSON | probe URL');
process.exit(2);
