// The pure parts of bench/run.ts's mcp-* and lab-publish scenarios: the paired REST/MCP ratio and
// its verdict, the Lua request builder and the tool-error count (run through a real wrk against a
// loopback server), what counts as a real tool result, and the lab site every publish sends.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { luaCommon, luaRequest, pairedRatio, parseStatuses, TOOL_ERROR, verdict } from '../../bench/harness.ts';
import { decodedBytes, LAB_FILE_BYTES, LAB_TOTAL_BYTES, labSite } from '../../bench/lab-site.ts';
import { Children } from '../../bench/lib.ts';
import { MCP_PROTOCOL_VERSION, mcpCallBody, mcpHeaders, sameRead, toolOutcome } from '../../bench/mcp.ts';
import { findWrk, runWrk } from '../../bench/wrk.ts';
import { scanLabSite } from '../../src/lab/scan/site.ts';

describe('MCP vs REST: the ratio and its verdict', () => {
  test('each MCP round is divided by the REST round taken beside it, not by a median', () => {
    // Round 2 was slow for both (a noisy neighbour): paired, it is still ~30 %.
    const r = pairedRatio([1200, 600, 1290], [4000, 2000, 4300]);
    expect(r).toEqual({ median: 0.3, min: 0.3, max: 0.3 });
    expect(() => pairedRatio([1, 2], [1])).toThrow('paired rounds');
    expect(Number.isNaN(pairedRatio([1], [0]).median)).toBe(true);
  });

  test('judged like the cached documents: ≥ 70 % on the median and on the worst round', () => {
    const t = { metric: 'pct', op: '>=' as const, value: 0.7, text: 'MCP req/s ≥ 70 % of REST' };
    expect(verdict(t, pairedRatio([3000, 3100, 2900], [4000, 4000, 4000]), [null, null, null]).verdict).toBe('PASS');
    expect(verdict(t, pairedRatio([1200, 1300, 1100], [4000, 4000, 4000]), [null, null, null]).verdict).toBe('FAIL');
    expect(verdict(t, pairedRatio([3000, 3100, 2000], [4000, 4000, 4000]), [null, null, null]).why).toContain('worst round');
  });

  test('a round whose answers held errors refuses the verdict and says so', () => {
    const t = { metric: 'pct', op: '>=' as const, value: 0.7, text: 'MCP req/s ≥ 70 % of REST' };
    const v = verdict(t, { median: 0.9, min: 0.9, max: 0.9 }, [null, '12 answers were errors', null]);
    expect(v.verdict).toBe('NO VERDICT');
    expect(v.why).toBe('1 of 3 rounds refused: 12 answers were errors');
  });
});

describe('an MCP tool call as a client sends it', () => {
  test('the JSON-RPC body and the streamable HTTP headers', () => {
    expect(JSON.parse(mcpCallBody('read_thread', { id: 'x' }))).toEqual({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'read_thread', arguments: { id: 'x' } },
    });
    const h = mcpHeaders('tok');
    expect(h.Authorization).toBe('Bearer tok');
    expect(h.Accept).toContain('application/json');
    expect(h.Accept).toContain('text/event-stream');
    expect(h['MCP-Protocol-Version']).toBe(MCP_PROTOCOL_VERSION);
  });

  test('only a tool result that is not an error counts as a real answer', () => {
    const ok = '{"result":{"content":[{"type":"text","text":"{}"}],"structuredContent":{"name":"a"},"_meta":{"status":200}},"jsonrpc":"2.0","id":1}';
    expect(toolOutcome(200, ok)).toEqual({ ok: true, structured: { name: 'a' } });
    const toolError =
      '{"result":{"isError":true,"content":[{"type":"text","text":"x"}],"structuredContent":{"error":{"code":"NOT_FOUND"}}},"jsonrpc":"2.0","id":1}';
    expect(toolOutcome(200, toolError)).toMatchObject({ ok: false, why: expect.stringContaining('NOT_FOUND') });
    expect(toolOutcome(200, '{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Unknown tool"}}')).toMatchObject({
      ok: false,
      why: expect.stringContaining('-32602'),
    });
    expect(toolOutcome(401, '{"error":"invalid_token"}')).toMatchObject({ ok: false, why: expect.stringContaining('HTTP 401') });
    expect(toolOutcome(200, 'event: message')).toMatchObject({ ok: false, why: expect.stringContaining('not JSON') });
  });

  test('the tool and the route answer the same read: equal but for when each answer was made', () => {
    const rest = { name: 'a', karma: 3, as_of: '2026-01-01T00:00:00.000Z', recent: [{ id: 1, as_of: 'x' }] };
    expect(sameRead(rest, { ...rest, as_of: '2026-01-01T00:00:00.200Z', recent: [{ id: 1, as_of: 'y' }] })).toBe(true);
    expect(sameRead(rest, { ...rest, karma: 4 })).toBe(false);
    expect(sameRead(rest, { ...rest, extra: 1 })).toBe(false);
    expect(sameRead(rest, { ...rest, recent: [] })).toBe(false);
  });
});

// The Lua scripts run in a real wrk against a loopback server that records what arrives.
describe.skipIf(!findWrk())('the Lua request builder, through wrk', () => {
  const children = new Children();
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-lua-test-'));
  const seen: { method: string; path: string; headers: Record<string, string>; body: string }[] = [];
  let answer = '{"result":{"content":[]},"jsonrpc":"2.0","id":1}';
  let server: ReturnType<typeof Bun.serve>;
  beforeAll(() => {
    server = Bun.serve({
      hostname: '127.0.0.1',
      port: 0,
      async fetch(req) {
        if (seen.length < 5)
          seen.push({ method: req.method, path: new URL(req.url).pathname, headers: Object.fromEntries(req.headers), body: await req.text() });
        return new Response(answer, { headers: { 'content-type': 'application/json' } });
      },
    });
  });
  afterAll(async () => {
    server.stop(true);
    await children.stopAll();
    rmSync(dir, { recursive: true, force: true });
  });

  const run = async (script: string, toolErrors: boolean) => {
    const file = join(dir, `s${Math.random()}.lua`);
    writeFileSync(file, `${luaCommon(7, { toolErrors })}\n${script}`);
    const r = await runWrk(children, `http://127.0.0.1:${server.port}`, { threads: 1, connections: 2, seconds: 1, script: file });
    return parseStatuses(r.stdout);
  };

  test('every request is the POST a client sends: method, path, headers and the exact body', async () => {
    seen.length = 0;
    const body = mcpCallBody('read_thread', { id: 'a"b\\c' });
    const statuses = await run(luaRequest('POST', '/mcp', mcpHeaders('t0k'), body), true);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen[0]).toMatchObject({ method: 'POST', path: '/mcp', body });
    expect(seen[0]!.headers).toMatchObject({
      authorization: 'Bearer t0k',
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      'mcp-protocol-version': MCP_PROTOCOL_VERSION,
    });
    expect(Object.keys(statuses ?? {})).toEqual(['200']);
  });

  test('a 200 carrying a tool error or a JSON-RPC error is counted as an error, not as a call', async () => {
    answer = '{"result":{"isError":true,"content":[]},"jsonrpc":"2.0","id":1}';
    const tool = await run(luaRequest('POST', '/mcp', mcpHeaders('t'), mcpCallBody('me')), true);
    expect(Object.keys(tool ?? {})).toEqual([TOOL_ERROR]);
    answer = '{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"x"}}';
    const rpc = await run(luaRequest('POST', '/mcp', mcpHeaders('t'), mcpCallBody('me')), true);
    expect(Object.keys(rpc ?? {})).toEqual([TOOL_ERROR]);
    // Without toolErrors (the REST side) the same answer is a plain 200.
    const plain = await run(luaRequest('GET', '/v1/me', { Accept: 'application/json' }), false);
    expect(Object.keys(plain ?? {})).toEqual(['200']);
    answer = '{"result":{"content":[]},"jsonrpc":"2.0","id":1}';
  });

  test('a GET carries no body', async () => {
    seen.length = 0;
    await run(luaRequest('GET', '/v1/me', { Authorization: 'Bearer k' }), false);
    expect(seen[0]).toMatchObject({ method: 'GET', path: '/v1/me', body: '' });
    expect(seen[0]!.headers.authorization).toBe('Bearer k');
  });

  test('text a Lua literal cannot carry as JSON escapes it is refused', () => {
    expect(() => luaRequest('POST', '/x', {}, 'caf\u00e9')).toThrow('printable ASCII');
  });
});

describe('the lab site each publish sends', () => {
  const pngChunks = (b: Buffer) => {
    const out: { type: string; data: Buffer; crc: number }[] = [];
    for (let o = 8; o < b.length; ) {
      const len = b.readUInt32BE(o);
      out.push({ type: b.toString('ascii', o + 4, o + 8), data: b.subarray(o + 8, o + 8 + len), crc: b.readUInt32BE(o + 8 + len) });
      o += 12 + len;
    }
    return out;
  };

  test('just under the 2 MB decoded limit, no file over 512 KB, html, css, js, json and images', () => {
    const site = labSite(3);
    const total = decodedBytes(site);
    expect(total).toBeLessThanOrEqual(LAB_TOTAL_BYTES);
    expect(total).toBeGreaterThan(0.95 * LAB_TOTAL_BYTES);
    for (const f of site.files) expect(Buffer.from(f.content, f.encoding === 'base64' ? 'base64' : 'utf8').length).toBeLessThanOrEqual(LAB_FILE_BYTES);
    const exts = site.files.map((f) => f.path.split('.').pop());
    expect(exts).toEqual(expect.arrayContaining(['html', 'css', 'js', 'json', 'png']));
    expect(site.files.filter((f) => f.encoding === 'base64').length).toBeGreaterThanOrEqual(3);
    expect(site.files[0]!.path).toBe('index.html');
  });

  test('the images are real PNGs: signature, IHDR, IDAT that inflates to the pixels, IEND, every CRC right', () => {
    const img = site0().files.find((f) => f.path.endsWith('.png'))!;
    const b = Buffer.from(img.content, 'base64');
    expect([...b.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const chunks = pngChunks(b);
    expect(chunks.map((c) => c.type)).toEqual(['IHDR', 'IDAT', 'IEND']);
    for (const c of chunks) expect(c.crc).toBe(Bun.hash.crc32(Buffer.concat([Buffer.from(c.type, 'ascii'), c.data])));
    const width = chunks[0]!.data.readUInt32BE(0);
    const height = chunks[0]!.data.readUInt32BE(4);
    expect(inflateSync(chunks[1]!.data).length).toBe(height * (width * 3 + 1));
  });

  test('every publish is a change: each file of site n differs from site n + 1', () => {
    const a = labSite(10);
    const b = labSite(11);
    expect(a.files.map((f) => f.path)).toEqual(b.files.map((f) => f.path));
    for (const [i, f] of a.files.entries()) expect(f.content).not.toBe(b.files[i]!.content);
  });

  test("the lab's own safety scan accepts it (the publish route would answer 201, not a refusal)", () => {
    for (const n of [0, 1, 57]) {
      const site = labSite(n);
      const files = site.files.map((f) => ({ path: f.path, bytes: new Uint8Array(Buffer.from(f.content, f.encoding === 'base64' ? 'base64' : 'utf8')) }));
      expect(scanLabSite(files)).toBeNull();
    }
  });
});

let cached: ReturnType<typeof labSite> | undefined;
const site0 = () => (cached ??= labSite(0));
