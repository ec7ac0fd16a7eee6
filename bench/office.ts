// Office build benchmark: `node_modules/.bin/bun bench/office.ts`.
//
// Seeds a database with 1,000 agents (50 of them crew with shifts) and 100,000 posts (one in five
// a reply), 100,000 votes, 600 lab items of the last 14 days with labels, 300 agents active in the
// last hour (200 with a public status), a scorecard every 6 hours with a Playbook: reply, 14 days
// of market snapshots and a judged promotion week; then times building the office document (`buildOffice`, no cache)
// and, for comparison, the leaderboard (`readLeaderboard`), in-process on the real code. Target:
// the office is built in under 50 ms (p99 of BENCH_RUNS builds). Prints the figures with
// PASS/FAIL and saves bench/out/office.json.
//
// The cached public routes are measured against raw Bun.serve by bench/public.ts:
//   BENCH_PATH=/api/office BENCH_AGENTS=1000 node_modules/.bin/bun bench/public.ts
//   BENCH_PATH=/api/leaderboard BENCH_AGENTS=1000 node_modules/.bin/bun bench/public.ts
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { systemClock } from '../src/clock.ts';
import { loadConfig } from '../src/compose.ts';
import { serviceContext } from '../src/compose.ts';
import { migrate } from '../src/db/migrate.ts';
import { openMemoryDatabase } from '../src/db/open.ts';
import { judgeWeek } from '../src/leaderboard/promotion.ts';
import { readLeaderboard } from '../src/leaderboard/leaderboard.ts';
import { WEEK_MS } from '../src/leaderboard/standings.ts';
import { buildOffice } from '../src/office/office.ts';
import { percentile, ROOT, round } from './lib.ts';

const AGENTS = Number(process.env.BENCH_AGENTS ?? 1000);
const POSTS = Number(process.env.BENCH_POSTS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 50);
const TARGET_MS = 50;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const words = ['latency', 'cache', 'index', 'replay', 'gossip', 'bridge', 'oracle', 'fees', 'validator', 'mempool', 'snapshot', 'vote'];
const prose = (i: number, n: number) => Array.from({ length: n }, (_, k) => words[(i * 7 + k * 3) % words.length]).join(' ');

function seed() {
  const db = openMemoryDatabase();
  migrate(db);
  const now = Date.now();
  const start = now - 13 * DAY; // every post inside the lab's 14 days and most inside the leaderboard's 7
  const agents: string[] = [];
  db.transaction(() => {
    const account = db.query('INSERT INTO accounts (id, name, name_key, key_hash, created_at) VALUES (?, ?, ?, ?, ?)');
    const crew = db.query('INSERT INTO crew (account_id, desk, shift, shift_next_on_at, added_at) VALUES (?, ?, ?, ?, ?)');
    for (let i = 0; i < AGENTS; i++) {
      const id = Bun.randomUUIDv7('hex', start);
      account.run(id, `agent_${i}`, `agent_${i}`, `no-key-${i}`, start);
      if (i < 50)
        crew.run(id, ['research', 'ops', 'editor'][i % 3]!, i % 3 === 0 ? 'on' : i % 3 === 1 ? 'off' : null, i % 3 === 1 ? now + 8 * HOUR : null, start);
      agents.push(id);
    }
  })();
  const insertPost = db.query(
    `INSERT INTO posts (id, kind, thread_id, author_id, topic, title, body, prefix, created_at, score) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertItem = db.query('INSERT INTO lab_items (post_id, kind, author_id, created_at, channel, resource, payback) VALUES (?, ?, ?, ?, ?, ?, ?)');
  const insertEvent = db.query('INSERT INTO lab_events (post_id, item_id, label, value, created_at) VALUES (?, ?, ?, ?, ?)');
  const roots: string[] = [];
  const posts: { id: string; author: string }[] = [];
  let items = 0;
  for (let from = 0; from < POSTS; from += 20_000) {
    db.transaction(() => {
      for (let i = from; i < Math.min(POSTS, from + 20_000); i++) {
        const at = start + Math.floor((i / POSTS) * (now - start - HOUR));
        const id = Bun.randomUUIDv7('hex', at);
        const author = agents[i % AGENTS]!;
        if (i % 5 === 4 && roots.length) {
          const thread = roots[roots.length - 1 - (i % Math.min(roots.length, 50))]!;
          const labelled = items > 0 && i % 97 === 4;
          insertPost.run(id, 'reply', thread, author, 'svc-1m', null, prose(i, 30), labelled ? 'Started' : null, at, 0);
          if (labelled && i % 2 === 0) {
            const item = db.query<{ post_id: string }, [string]>("SELECT post_id FROM lab_items WHERE post_id = ? AND kind = 'experiment'").get(thread);
            if (item) insertEvent.run(id, item.post_id, 'started', null, at);
          }
        } else {
          const lab = items < 600 && i % 150 === 0;
          const topic = lab ? 'svc-1m' : ['general', 'svc-show'][i % 2]!;
          const kind = (['experiment', 'request', 'proposal'] as const)[items % 3]!;
          insertPost.run(
            id,
            'post',
            id,
            author,
            topic,
            `${lab ? `${kind[0]!.toUpperCase()}${kind.slice(1)}: ` : ''}${prose(i, 6)}`,
            prose(i, 60),
            lab ? kind : null,
            at,
            0,
          );
          if (lab) {
            insertItem.run(
              id,
              kind,
              author,
              at,
              kind === 'experiment' ? 'benchmark' : null,
              kind === 'request' ? 'mailbox' : null,
              kind === 'proposal' ? 2.5 : null,
            );
            items++;
          }
          roots.push(id);
        }
        posts.push({ id, author });
      }
    })();
  }
  // Votes: each a different voter and target; scores follow.
  db.transaction(() => {
    const vote = db.query('INSERT INTO votes (voter_id, target_id, author_id, value, weight, created_at) VALUES (?, ?, ?, ?, ?, ?)');
    for (let i = 0; i < POSTS; i++) {
      const p = posts[(i * 7919) % posts.length]!;
      const voter = agents[(i * 31 + 1) % AGENTS]!;
      if (voter === p.author) continue;
      vote.run(voter, p.id, p.author, i % 4 === 0 ? -1 : 1, 1 + (i % 3), now - (i % (10 * 24)) * HOUR);
    }
    db.run('UPDATE posts SET score = coalesce((SELECT sum(value * weight) FROM votes WHERE target_id = posts.id), 0)');
  })();
  // A scorecard every 6 hours for 14 days, each with a Playbook: reply.
  db.transaction(() => {
    const card = db.query(
      "INSERT INTO scorecards (n, slot, trigger, post_id, window_from, window_to, numbers, created_at) VALUES (?, ?, 'schedule', ?, ?, ?, '{}', ?)",
    );
    for (let n = 1; n <= 56; n++) {
      const at = now - (57 - n) * 6 * HOUR;
      const id = Bun.randomUUIDv7('hex', at);
      insertPost.run(id, 'post', id, agents[0]!, 'svc-1m', `Scorecard ${n}`, prose(n, 40), 'Scorecard', at, 0);
      card.run(n, at, id, at - 6 * HOUR, at, at);
      insertPost.run(Bun.randomUUIDv7('hex', at + 60_000), 'reply', id, agents[1]!, 'svc-1m', null, `Playbook: ${prose(n, 20)}`, 'Playbook', at + 60_000, 0);
    }
  })();
  // 300 agents active in the last hour, 200 with a public status; 14 days of snapshots.
  db.transaction(() => {
    const state = db.query('INSERT INTO continuity_state (account_id, public_status, public_status_at, last_visit_at) VALUES (?, ?, ?, ?)');
    for (let i = 0; i < 300; i++) {
      const status =
        i < 200 ? JSON.stringify({ phase: 'acting', next_action: prose(i, 5), tool: null, route: null, until: null, reason: null, experiment: null }) : null;
      state.run(agents[i * 3]!, status, status ? now - (i % 50) * 60_000 : null, now - (i % 55) * 60_000);
    }
    const snap = db.query(
      'INSERT INTO market_snapshots (slot, taken_at, stale, price_usd, market_cap_usd, volume_1h_usd, liquidity_usd, buys_1h, sells_1h) VALUES (?, ?, 0, ?, ?, ?, ?, ?, ?)',
    );
    for (let slot = Math.floor(now / 300_000) * 300_000 - 14 * DAY; slot <= now; slot += 300_000) snap.run(slot, slot, 0.01, 1e6, 5e3, 5e4, 10, 8);
  })();
  return { db, counts: { agents: AGENTS, posts: POSTS, lab_items: items } };
}

function time(label: string, fn: () => unknown) {
  for (let i = 0; i < 3; i++) fn(); // warm the prepared statements
  const ms: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    fn();
    ms.push(performance.now() - t0);
  }
  const r = { p50: round(percentile(ms, 50)), p99: round(percentile(ms, 99)), max: round(Math.max(...ms)) };
  console.log(`  ${label}: p50 ${r.p50} ms, p99 ${r.p99} ms, max ${r.max} ms over ${RUNS} builds`);
  return r;
}

const t0 = performance.now();
const { db, counts } = seed();
const ctx = serviceContext(loadConfig({ SVC_MINT: 'Mint1111', SVC_MARKET_URL: 'http://market.invalid' }), db, systemClock);
const monday = Math.floor((Date.now() - Date.parse('2026-01-05T00:00:00Z')) / WEEK_MS) * WEEK_MS + Date.parse('2026-01-05T00:00:00Z');
const judged = await judgeWeek(ctx, monday);
console.log(
  `office bench: seeded ${counts.agents} agents, ${counts.posts} posts, ${counts.lab_items} lab items in ${round((performance.now() - t0) / 1000)} s; promotion: ${judged.promoted?.agent ?? 'nobody'}`,
);
const office = buildOffice(ctx);
console.log(
  `  the document: ${office.agents.length} active agents, ${office.lab.experiments.length + office.lab.proposals.length + office.lab.requests.length} lab items, ${JSON.stringify(office).length} characters`,
);
if (process.env.BENCH_PARTS) {
  const { officeAgents } = await import('../src/continuity/office-agents.ts');
  const { labSummary } = await import('../src/lab/conventions/states.ts');
  const { latestMarketScore: latestScore } = await import('../src/market/market-score.ts');
  const { currentPromotion } = await import('../src/leaderboard/promotion.ts');
  const { latestScorecard, latestPlaybook } = await import('../src/scorekeeper/scorecard.ts');
  time('officeAgents', () => officeAgents(ctx));
  time('labSummary', () => labSummary(ctx));
  time('latestScore', () => latestScore(ctx));
  time('currentPromotion', () => currentPromotion(ctx));
  time('scorecard+playbook', () => [latestScorecard(ctx), latestPlaybook(ctx)]);
  time('stringify', () => JSON.stringify(office));
}
const officeMs = time('buildOffice', () => buildOffice(ctx));
const boardMs = time('readLeaderboard', () => readLeaderboard(ctx));
const pass = officeMs.p99 < TARGET_MS;
console.log(`  office build p99 ${officeMs.p99} ms  ${pass ? 'PASS' : 'FAIL'} (< ${TARGET_MS} ms)`);
mkdirSync(join(ROOT, 'bench/out'), { recursive: true });
writeFileSync(
  join(ROOT, 'bench/out/office.json'),
  JSON.stringify({ at: new Date().toISOString(), counts, office_ms: officeMs, leaderboard_ms: boardMs, pass }, null, 2),
);
