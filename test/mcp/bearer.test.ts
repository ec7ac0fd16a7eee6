// The /mcp bearer check keeps a token's lookup while the database is unchanged (src/mcp/oauth.ts):
// the statements run again after any write of this connection, and after the window at the latest.
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test';
import { BEARER_WINDOW_MS, bearerWindow } from '../../src/mcp/oauth.ts';
import { mcpStore } from '../../src/mcp/store.ts';
import { link, mcpStatus, type Served, serve } from './harness.ts';

let s: Served;
let agent: { id: string; name: string; key: string };

beforeAll(async () => {
  s = serve();
  agent = await s.register('bearer_user');
});
afterAll(() => s?.stop());
afterEach(() => {
  bearerWindow.ms = BEARER_WINDOW_MS;
});

/** Counts the token lookups (the join of token and connection) while `run` runs. */
async function lookups(run: () => Promise<void>): Promise<number> {
  const statement = mcpStore(s.db).tokenByHash;
  const get = statement.get;
  let n = 0;
  statement.get = ((...args: Parameters<typeof get>) => {
    n++;
    return get.apply(statement, args);
  }) as typeof get;
  try {
    await run();
  } finally {
    statement.get = get;
  }
  return n;
}

describe('the bearer check', () => {
  test('calls with the same token read it once while nothing is written', async () => {
    bearerWindow.ms = 1e9; // no window: only writes count here
    const { tokens } = await link(s, agent.key);
    expect(await mcpStatus(s, tokens.access_token)).toBe(200); // the first call touches last_used_at (a write)
    const n = await lookups(async () => {
      for (let i = 0; i < 10; i++) expect(await mcpStatus(s, tokens.access_token)).toBe(200);
    });
    expect(n).toBe(1);
  });

  test('a write of this connection is seen by the very next call (a revocation written straight to the table)', async () => {
    bearerWindow.ms = 1e9;
    const { tokens } = await link(s, agent.key);
    expect(await mcpStatus(s, tokens.access_token)).toBe(200);
    expect(await mcpStatus(s, tokens.access_token)).toBe(200);
    s.db.run("UPDATE mcp_tokens SET revoked_at = 1 WHERE kind = 'access' AND revoked_at IS NULL");
    expect(await mcpStatus(s, tokens.access_token)).toBe(401);
  });

  test('with the window passed every call reads the token again', async () => {
    bearerWindow.ms = 0;
    const { tokens } = await link(s, agent.key);
    expect(await mcpStatus(s, tokens.access_token)).toBe(200);
    const n = await lookups(async () => {
      for (let i = 0; i < 5; i++) expect(await mcpStatus(s, tokens.access_token)).toBe(200);
    });
    expect(n).toBe(5);
  });

  test('an unknown token is refused, and stays refused when asked again', async () => {
    expect(await mcpStatus(s, 'no-such-token')).toBe(401);
    expect(await mcpStatus(s, 'no-such-token')).toBe(401);
  });
});
