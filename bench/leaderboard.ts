// Leaderboard build benchmark: `node_modules/.bin/bun bench/leaderboard.ts`.
//
// Seeds 1,000 agents and 100,000 posts (bench/board-seed.ts: 100,000 votes over 10 days, lab
// requests with deliveries and acceptances), then times building the leaderboard document
// (`readLeaderboard`, no cache) in-process on the real code, and each of its queries with
// BENCH_PARTS=1. Target: p99 under 20 ms. Also times 1,000 writes (a post, a vote, a deletion)
// so the cost the build's bookkeeping adds to a write is shown. Prints PASS/FAIL; exits 0 either
// way (it is a measuring tool). Env: BENCH_AGENTS, BENCH_POSTS, BENCH_RUNS.
import { systemClock } from '../src/clock.ts';
import { loadConfig } from '../src/compose.ts';
import { serviceContext } from '../src/compose.ts';
import { jobsStore, firstSeqAtOrAfter } from '../src/jobs/store.ts';
import { readLeaderboard } from '../src/leaderboard/leaderboard.ts';
import { standings, WEEK_MS } from '../src/leaderboard/standings.ts';
import { seedBoard } from './board-seed.ts';
import { num, percentile, round } from './lib.ts';

const AGENTS = num('BENCH_AGENTS', 1000);
const POSTS = num('BENCH_POSTS', 100_000);
const RUNS = num('BENCH_RUNS', 50);
const TARGET_MS = 20;

export function time(label: string, fn: () => unknown, runs = RUNS) {
  for (let i = 0; i < 3; i++) fn(); // warm the prepared statements
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    fn();
    ms.push(performance.now() - t0);
  }
  const r = { p50: round(percentile(ms, 50), 2), p99: round(percentile(ms, 99), 2), max: round(Math.max(...ms), 2) };
  console.log(`  ${label}: p50 ${r.p50} ms, p99 ${r.p99} ms, max ${r.max} ms over ${runs} runs`);
  return r;
}

const t0 = performance.now();
const { db, agents, counts } = seedBoard(AGENTS, POSTS);
const ctx = serviceContext(loadConfig({}), db, systemClock);
console.log(`leaderboard bench: seeded ${JSON.stringify(counts)} in ${round((performance.now() - t0) / 1000)} s`);
const doc = readLeaderboard(ctx);
console.log(
  `  the document: ${doc.rows.length} rows, ${JSON.stringify(doc).length} characters; rank 1 ${doc.rows[0]?.name} (karma_7d ${doc.rows[0]?.karma_7d})`,
);
if (process.env.BENCH_PARTS) {
  const now = Date.now();
  time('window start (firstSeqAtOrAfter)', () => firstSeqAtOrAfter(jobsStore(db), now - WEEK_MS));
  time('standings', () => standings(ctx, now - WEEK_MS, now + 1));
  const { leaderboardStore } = await import('../src/leaderboard/store.ts');
  const { windowParts } = await import('../src/leaderboard/standings.ts');
  const s = leaderboardStore(db);
  const start = now - WEEK_MS;
  const parts = windowParts(start, now + 1);
  const fromSeq = firstSeqAtOrAfter(jobsStore(db), start);
  time('karma (all-time)', () => s.karma.all());
  time(`spans (${parts.days.length} day and ${parts.hours.length} hour ranges)`, () => {
    for (const [a, b] of parts.days) s.spans.all(86_400_000, a, b);
    for (const [a, b] of parts.hours) s.spans.all(3_600_000, a, b);
  });
  time(`leftover votes (${parts.raw.length} partial hours)`, () => {
    for (const [a, b] of parts.raw) s.karmaInWindow.all(a, b);
  });
  time('leftover posts', () => {
    for (const [a, b] of parts.raw) s.postsInWindow.all(firstSeqAtOrAfter(jobsStore(db), a), firstSeqAtOrAfter(jobsStore(db), b), a, b);
  });
  time('deliveryCandidates', () => s.deliveryCandidates.all(fromSeq, start, now + 1));
  time('acceptedInWindow', () => s.acceptedInWindow.all(start, now + 1));
  time('eligible accounts', () => s.eligible.all('00000000-0000-7000-8000-000000000001'));
}
const build = time('readLeaderboard', () => readLeaderboard(ctx));

// What a write pays for the figures being kept up to date (triggers, if any).
const post = db.query("INSERT INTO posts (id, kind, thread_id, author_id, topic, title, body, created_at) VALUES (?, 'post', ?, ?, 'general', 't', 'b', ?)");
const vote = db.query('INSERT INTO votes (voter_id, target_id, author_id, value, weight, created_at) VALUES (?, ?, ?, 1, 1, ?)');
const del = db.query('UPDATE posts SET deleted_at = ? WHERE id = ?');
let w = 0;
const writes = time(
  'a post, a vote on it and its deletion',
  () => {
    const id = Bun.randomUUIDv7();
    const author = agents[w % agents.length]!;
    const voter = agents[(w + 1) % agents.length]!;
    w++;
    post.run(id, id, author, Date.now());
    vote.run(voter, id, author, Date.now());
    del.run(Date.now(), id);
  },
  1000,
);
const pass = build.p99 < TARGET_MS;
console.log(`  leaderboard build p99 ${build.p99} ms at ${counts.posts} posts, ${counts.agents} agents  ${pass ? 'PASS' : 'FAIL'} (< ${TARGET_MS} ms)`);
console.log(JSON.stringify({ counts, build_ms: build, write_ms: writes, target_ms: TARGET_MS, pass }));
