// MCP tool calls against the REST route answering the same read (the `mcp` group).
import { luaRequest, pairedRatio, rotation } from '../harness.ts';
import { mcpCallBody, mcpHeaders, mcpToken, sameRead, toolOutcome } from '../mcp.ts';
import { AGENT, type Ctx, CONNECTIONS, check, key, luaFile, ROUNDS, type Round, round, SECONDS, selected, summarize, WARMUP } from './context.ts';

/**
 * The same read by the same agent, over REST (GET with the board key) and as an MCP tool call
 * (POST /mcp, tools/call, the agent's OAuth token), at CONNECTIONS (64) connections: the figure is
 * throughput (how many calls a busy server answers), which is what a per-call overhead costs; at
 * one connection it would be latency, mostly the round trip. REST and MCP rounds alternate in
 * rotated order (REST, MCP / MCP, REST / …); each MCP answer's body is checked by the Lua script,
 * so a 200 carrying a tool error or a JSON-RPC error counts as an error, never as a call.
 */
export async function mcpScenarios(c: Ctx): Promise<void> {
  const thread = c.meta.recent_roots.at(-1)!;
  const reads = [
    { name: 'mcp-me', tool: 'get_my_account', args: {}, path: '/v1/me' },
    { name: 'mcp-thread', tool: 'read_thread', args: { id: thread }, path: `/v1/posts/${thread}` },
  ].filter((d) => selected(d.name, 'mcp'));
  if (!reads.length) return;
  const agent = c.meta.roles.resume;
  const token = await mcpToken(c.url, key(agent));
  const restHeaders = { ...AGENT, Authorization: `Bearer ${key(agent)}` };
  for (const d of reads) {
    const body = mcpCallBody(d.tool, d.args);
    // Once before measuring: the tool answers a real result, the same the route answers.
    const rest = await fetch(`${c.url}${d.path}`, { headers: restHeaders });
    const restText = await rest.text();
    const mcp = await fetch(`${c.url}/mcp`, { method: 'POST', headers: mcpHeaders(token), body });
    const mcpText = await mcp.text();
    const outcome = toolOutcome(mcp.status, mcpText);
    if (rest.status !== 200 || !outcome.ok) {
      process.stderr.write(`  ! ${d.name}: REST ${rest.status}, MCP ${outcome.ok ? 'ok' : outcome.why}: not measured\n`);
      continue;
    }
    if (!sameRead(outcome.structured, JSON.parse(restText))) {
      process.stderr.write(`  ! ${d.name}: the tool's result is not the read GET ${d.path} answers: not measured\n`);
      continue;
    }
    const peers = [
      { name: 'REST', script: luaFile(luaRequest('GET', d.path, restHeaders)) },
      { name: 'MCP', script: luaFile(luaRequest('POST', '/mcp', mcpHeaders(token), body), { toolErrors: true }) },
    ];
    const byPeer = new Map<string, Round[]>(peers.map((p) => [p.name, []]));
    process.stderr.write(`· ${c.size} ${d.name}: GET ${d.path} vs tools/call ${d.tool}, ${CONNECTIONS} connections, rotated\n`);
    for (const p of peers) await round({ url: c.url, pid: c.pid, connections: CONNECTIONS, script: p.script }, WARMUP);
    for (let r = 0; r < ROUNDS; r++) {
      for (const p of rotation(peers, r)) {
        // A 200 carrying a tool error is counted apart by the script: round() refuses it like any non-2xx.
        byPeer.get(p.name)!.push(await round({ url: c.url, pid: c.pid, connections: CONNECTIONS, script: p.script }, SECONDS));
      }
      const a = byPeer.get('MCP')![r]!;
      const b = byPeer.get('REST')![r]!;
      process.stderr.write(
        `  round ${r + 1}: REST ${b.rps.toFixed(0)}/s, MCP ${a.rps.toFixed(0)}/s = ${((a.rps / b.rps) * 100).toFixed(0)} %; CPU per call MCP ${a.server_cpu_us_per_req.toFixed(0)} µs ÷ REST ${b.server_cpu_us_per_req.toFixed(0)} µs = ${(a.server_cpu_us_per_req / b.server_cpu_us_per_req).toFixed(2)}×\n`,
      );
    }
    const restRounds = byPeer.get('REST')!;
    const mcpRounds = byPeer.get('MCP')!;
    const ratio = pairedRatio(
      mcpRounds.map((x) => x.rps),
      restRounds.map((x) => x.rps),
    );
    const cpuRatio = pairedRatio(
      mcpRounds.map((x) => x.server_cpu_us_per_req),
      restRounds.map((x) => x.server_cpu_us_per_req),
    );
    const what = `${d.tool}: GET ${d.path.length > 40 ? `${d.path.slice(0, 37)}…` : d.path} vs tools/call (${(restText.length / 1024).toFixed(1)} KB / ${(mcpText.length / 1024).toFixed(1)} KB)`;
    summarize(c.size, d.name, what, 'REST', restRounds, { bytes: restText.length });
    const row = summarize(c.size, d.name, what, 'MCP', mcpRounds, {
      bytes: mcpText.length,
      pct_of_rest: ratio,
      pct_of_rest_by_round: mcpRounds.map((x, i) => x.rps / restRounds[i]!.rps),
      cpu_ratio_vs_rest: cpuRatio,
    });
    const refusals = [...restRounds, ...mcpRounds].map((x) => x.refused);
    check(row, { metric: 'pct', op: '>=', value: 0.7, text: 'MCP req/s ≥ 70 % of REST (same read, same agent)' }, ratio, refusals);
    // The same target counted in CPU (the server is the bottleneck in both): 70 % of the calls for the same CPU is ≤ 1/0.7 of REST's CPU a call.
    check(row, { metric: 'cpu', op: '<=', value: 1.43, text: 'MCP CPU/call ≤ 1.43× REST (the same 70 %, counted in CPU)' }, cpuRatio, refusals);
  }
}
