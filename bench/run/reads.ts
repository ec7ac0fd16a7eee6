// The per-request reads (the `read` group): one request in flight (BENCH_READ_CONNECTIONS=1), so a
// p99 is the cost of one request, not queueing; at 1M each is judged against its p99 target. A
// round with any answer that was not 2xx is refused (context.ts round()).
import type { Target } from '../harness.ts';
import { TOPIC } from '../text.ts';
import { AGENT, type Ctx, check, key, luaGet, READ_CONNECTIONS, type Row, rounds, selected, summarize } from './context.ts';

const readTarget = (size: string): Target | null => (size === '1m' ? { metric: 'p99', op: '<', value: 10, text: 'p99 < 10 ms at 1M' } : null);

async function readScenario(c: Ctx, name: string, path: string, agentIndex: number | null, target: Target | null = readTarget(c.size)): Promise<Row> {
  const probe = await fetch(`${c.url}${path}`, { headers: agentIndex === null ? {} : { ...AGENT, Authorization: `Bearer ${key(agentIndex)}` } });
  const bytes = (await probe.arrayBuffer()).byteLength;
  if (probe.status !== 200) process.stderr.write(`  ! ${name}: GET ${path} answered ${probe.status}\n`);
  const script = luaGet(path, agentIndex === null ? null : key(agentIndex));
  const rs = await rounds({ url: c.url, pid: c.pid, connections: READ_CONNECTIONS, script }, `${c.size} ${name}: GET ${path}`);
  const row = summarize(c.size, name, `GET ${path.length > 60 ? `${path.slice(0, 57)}…` : path}`, 'svc', rs, { bytes, status: probe.status });
  if (target) check(row, target, row.p99);
  return row;
}

/** The next page of a search answer, from whatever link or cursor it gives. */
async function searchSecondPage(c: Ctx, q: string, agent: number): Promise<string | null> {
  const first = `/v1/search?${new URLSearchParams({ q })}`;
  const r = await fetch(`${c.url}${first}`, { headers: { ...AGENT, Authorization: `Bearer ${key(agent)}` } });
  const j = (await r.json()) as Record<string, unknown>;
  for (const k of ['next', 'next_url', 'links']) {
    const v = k === 'links' ? (j.links as Record<string, unknown> | undefined)?.next : j[k];
    if (typeof v === 'string' && v) return v.startsWith('http') ? new URL(v).pathname + new URL(v).search : v;
  }
  for (const [k, param] of [
    ['next_before', 'before'],
    ['next_cursor', 'cursor'],
    ['next_after', 'after'],
  ] as const) {
    const v = j[k];
    if (typeof v === 'string' && v) return `${first}&${param}=${encodeURIComponent(v)}`;
  }
  return null;
}

export async function readScenarios(c: Ctx): Promise<void> {
  const m = c.meta;
  if (selected('pins', 'read')) await readScenario(c, 'pins', '/pins', null);
  if (selected('resume', 'read')) await readScenario(c, 'resume', '/v1/continuity', m.roles.resume);
  const searchTarget: Target | null = c.size === '1m' ? { metric: 'p99', op: '<', value: 20, text: 'common word p99 < 20 ms at 1M' } : null;
  if (selected('search-common', 'read')) await readScenario(c, 'search-common', `/v1/search?q=${TOPIC[0]}`, m.roles.resume, searchTarget);
  if (selected('search-rare', 'read')) await readScenario(c, 'search-rare', `/v1/search?q=${TOPIC[3000]}`, m.roles.resume);
  if (selected('search-page2', 'read')) {
    const next = await searchSecondPage(c, TOPIC[0]!, m.roles.resume);
    if (next) await readScenario(c, 'search-page2', next, m.roles.resume);
    else process.stderr.write('  ! search-page2: the first page gave no next link\n');
  }
  if (selected('feed', 'read')) await readScenario(c, 'feed', '/v1/posts', m.roles.resume);
  if (selected('activity', 'read')) await readScenario(c, 'activity', '/v1/activity', m.roles.resume);
  if (selected('thread', 'read')) await readScenario(c, 'thread', `/api/thread/${m.big_thread}`, null);
  if (selected('inbox', 'read')) await readScenario(c, 'inbox', '/v1/inbox', m.roles.reader);
  if (selected('me', 'read')) await readScenario(c, 'me', '/v1/me', m.roles.resume);
}
