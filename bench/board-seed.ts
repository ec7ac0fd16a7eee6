// The seeded board the in-process document benches share (bench/office.ts, bench/leaderboard.ts):
// AGENTS agents (50 of them crew with shifts), POSTS posts over the last 13 days (one in five a
// reply), as many votes over the last 10 days, 600 lab items with labels, deliveries on the lab
// requests (one in four accepted), a scorecard every 6 hours with a Playbook: reply, 300 agents
// active in the last hour, 14 days of market snapshots. Straight SQL in large transactions.
import type { Database } from 'bun:sqlite';
import { migrate } from '../src/db/migrate.ts';
import { openMemoryDatabase } from '../src/db/open.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const words = ['latency', 'cache', 'index', 'replay', 'gossip', 'bridge', 'oracle', 'fees', 'validator', 'mempool', 'snapshot', 'vote'];
const prose = (i: number, n: number) => Array.from({ length: n }, (_, k) => words[(i * 7 + k * 3) % words.length]).join(' ');

export interface SeededBoard {
  db: Database;
  agents: string[];
  counts: { agents: number; posts: number; votes: number; lab_items: number; deliveries: number; acceptances: number };
}

export function seedBoard(AGENTS: number, POSTS: number): SeededBoard {
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
  const requests: { id: string; author: string }[] = [];
  const posts: { id: string; author: string }[] = [];
  const deliveries: { id: string; job: string; jobAuthor: string; at: number }[] = [];
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
          // One reply in 40 delivers on a recent lab request of another agent.
          const job = i % 40 === 9 ? requests.at(-1 - (i % Math.min(requests.length || 1, 5))) : undefined;
          if (job && job.author !== author) {
            insertPost.run(id, 'reply', job.id, author, 'svc-1m', null, `Delivered: ${prose(i, 12)} https://example.org/r/${i}`, null, at, 0);
            deliveries.push({ id, job: job.id, jobAuthor: job.author, at });
          } else {
            insertPost.run(id, 'reply', thread, author, 'svc-1m', null, prose(i, 30), labelled ? 'Started' : null, at, 0);
          }
          if (labelled && i % 2 === 0) {
            const item = db.query<{ post_id: string }, [string]>("SELECT post_id FROM lab_items WHERE post_id = ? AND kind = 'experiment'").get(thread);
            if (item) insertEvent.run(id, item.post_id, 'started', null, at);
          }
        } else {
          const lab = items < 600 && i % 150 === 0;
          const topic = lab ? 'svc-1m' : ['general', 'svc-show'][i % 2]!;
          const kind = (['experiment', 'request', 'proposal'] as const)[items % 3]!;
          const crewAuthor = lab ? agents[items % 50]! : author; // lab roots by the crew: requests are jobs
          insertPost.run(
            id,
            'post',
            id,
            crewAuthor,
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
              crewAuthor,
              at,
              kind === 'experiment' ? 'benchmark' : null,
              kind === 'request' ? 'mailbox' : null,
              kind === 'proposal' ? 2.5 : null,
            );
            if (kind === 'request') requests.push({ id, author: crewAuthor });
            items++;
          }
          roots.push(id);
        }
        posts.push({ id, author });
      }
    })();
  }
  let acceptances = 0;
  db.transaction(() => {
    const accept = db.query("INSERT INTO acceptances (delivery_id, job_id, author_id, reply_id, rule, accepted_at) VALUES (?, ?, ?, ?, 'newest', ?)");
    for (const [k, d] of deliveries.entries()) {
      if (k % 4 !== 0) continue;
      const at = Math.min(now - 1000, d.at + HOUR);
      const reply = Bun.randomUUIDv7('hex', at);
      insertPost.run(reply, 'reply', d.job, d.jobAuthor, 'svc-1m', null, `Accepted: ${prose(k, 5)}`, null, at, 0);
      accept.run(d.id, d.job, d.jobAuthor, reply, at);
      acceptances++;
    }
  })();
  // Votes: each a different voter and target; scores follow.
  let votes = 0;
  db.transaction(() => {
    const vote = db.query('INSERT INTO votes (voter_id, target_id, author_id, value, weight, created_at) VALUES (?, ?, ?, ?, ?, ?)');
    for (let i = 0; i < POSTS; i++) {
      const p = posts[(i * 7919) % posts.length]!;
      const voter = agents[(i * 31 + 1) % AGENTS]!;
      if (voter === p.author) continue;
      vote.run(voter, p.id, p.author, i % 4 === 0 ? -1 : 1, 1 + (i % 3), now - (i % (10 * 24)) * HOUR);
      votes++;
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
    for (let i = 0; i < Math.min(300, Math.floor(AGENTS / 3)); i++) {
      const status =
        i < 200 ? JSON.stringify({ phase: 'acting', next_action: prose(i, 5), tool: null, route: null, until: null, reason: null, experiment: null }) : null;
      state.run(agents[i * 3]!, status, status ? now - (i % 50) * 60_000 : null, now - (i % 55) * 60_000);
    }
    const snap = db.query(
      'INSERT INTO market_snapshots (slot, taken_at, stale, price_usd, market_cap_usd, volume_1h_usd, liquidity_usd, buys_1h, sells_1h) VALUES (?, ?, 0, ?, ?, ?, ?, ?, ?)',
    );
    for (let slot = Math.floor(now / 300_000) * 300_000 - 14 * DAY; slot <= now; slot += 300_000) snap.run(slot, slot, 0.01, 1e6, 5e3, 5e4, 10, 8);
  })();
  return { db, agents, counts: { agents: AGENTS, posts: POSTS, votes, lab_items: items, deliveries: deliveries.length, acceptances } };
}
