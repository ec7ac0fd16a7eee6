// Local stand-ins for the outside market: a DexScreener-compatible token endpoint and a Solana
// JSON-RPC node, each a real HTTP server on a free port whose answers a test scripts.
import { marketStore, type SnapshotRow, snapshotValues } from '../../src/market/store.ts';
import { makeApp } from '../helpers.ts';

export const MINT = 'Mint111111111111111111111111111111111111111';

export type Handler = (req: Request, call: number) => Response | Promise<Response>;

export interface FakeServer {
  url: string;
  calls: number;
  requests: { method: string; path: string; body: string }[];
  answer(handler: Handler): void;
  stop(): void;
}

/** A server on 127.0.0.1 at a free port; `answer` swaps what it says next. */
export function fakeServer(handler: Handler = () => Response.json({})): FakeServer {
  let current = handler;
  const fake: FakeServer = {
    url: '',
    calls: 0,
    requests: [],
    answer(h) {
      current = h;
      fake.calls = 0;
      fake.requests = [];
    },
    stop: () => server.stop(true),
  };
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch: async (req) => {
      const call = ++fake.calls;
      fake.requests.push({ method: req.method, path: new URL(req.url).pathname, body: await req.text() });
      return current(req, call);
    },
  });
  fake.url = `http://127.0.0.1:${server.port}`;
  return fake;
}

/** The address of a port nothing listens on (a server started and stopped). */
export function closedUrl(): string {
  const s = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response('') });
  const url = `http://127.0.0.1:${s.port}`;
  s.stop(true);
  return url;
}

/** A DexScreener pair of the mint, with every field present; `over` replaces top-level fields. */
export function pair(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    chainId: 'solana',
    dexId: 'raydium',
    url: 'https://dexscreener.com/solana/pair1',
    pairAddress: 'Pair1111111111111111111111111111111111111111',
    baseToken: { address: MINT, name: 'Svc', symbol: 'SVC' },
    quoteToken: { address: 'So11111111111111111111111111111111111111112', name: 'Wrapped SOL', symbol: 'SOL' },
    priceNative: '0.00009',
    priceUsd: '0.0123',
    txns: { m5: { buys: 1, sells: 0 }, h1: { buys: 10, sells: 4 }, h6: { buys: 60, sells: 30 }, h24: { buys: 200, sells: 150 } },
    volume: { m5: 12.5, h1: 100, h6: 600, h24: 2400 },
    priceChange: { m5: 0.1, h1: 1.5, h6: -2, h24: 10 },
    liquidity: { usd: 50_000, base: 2_000_000, quote: 120 },
    fdv: 123_000,
    marketCap: 120_000,
    pairCreatedAt: 1_700_000_000_000,
    ...over,
  };
}

export const dexAnswer = (pairs: unknown) => Response.json({ schemaVersion: '1.0.0', pairs });

/** A Solana getTokenSupply answer. */
export const supplyAnswer = (uiAmountString: string, decimals = 6) =>
  Response.json({
    jsonrpc: '2.0',
    id: 1,
    result: {
      context: { slot: 1 },
      value: { amount: String(Math.round(Number(uiAmountString) * 10 ** decimals)), decimals, uiAmount: Number(uiAmountString), uiAmountString },
    },
  });

/** An app whose market settings point at the given fakes. */
export function marketApp(opts: { market?: string; rpc?: string; env?: Record<string, string>; start?: string } = {}) {
  return makeApp(
    {
      SVC_MINT: MINT,
      ...(opts.market ? { SVC_MARKET_URL: opts.market } : {}),
      ...(opts.rpc ? { SVC_SOLANA_RPC_URL: opts.rpc, SVC_INITIAL_SUPPLY: '1000000000' } : {}),
      SVC_MARKET_TIMEOUT_MS: '200',
      ...opts.env,
    },
    opts.start,
  );
}

/** Stores a good snapshot for `slot` straight into the table (the job's own tests cover reading the market). */
export function storeSnapshot(db: ReturnType<typeof makeApp>['db'], slot: number, over: Partial<SnapshotRow> = {}): void {
  const row: SnapshotRow = {
    slot,
    taken_at: slot + 2_000,
    stale: 0,
    price_usd: 0.01,
    market_cap_usd: 100_000,
    price_change_1h_pct: 1,
    price_change_6h_pct: 2,
    price_change_24h_pct: 3,
    volume_1h_usd: 50,
    volume_6h_usd: 300,
    volume_24h_usd: 1200,
    liquidity_usd: 40_000,
    buys_1h: 7,
    sells_1h: 3,
    burned_amount: null,
    ...over,
  };
  marketStore(db).insertSnapshot.get(...snapshotValues(row));
}
