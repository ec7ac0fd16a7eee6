// The market reads against local fake servers answering like DexScreener and Solana RPC: every
// failure is a stale reading with null numbers, never an exception and never a 0.
import { afterAll, describe, expect, test } from 'bun:test';
import { loadConfig } from '../../src/compose.ts';
import { readBurned, readMarket } from '../../src/market/client.ts';
import { closedUrl, dexAnswer, fakeServer, MINT, pair, supplyAnswer } from './fakes.ts';

const market = fakeServer();
const rpc = fakeServer();
afterAll(() => {
  market.stop();
  rpc.stop();
});

const config = (env: Record<string, string> = {}) =>
  loadConfig({
    SVC_MINT: MINT,
    SVC_MARKET_URL: market.url,
    SVC_SOLANA_RPC_URL: rpc.url,
    SVC_INITIAL_SUPPLY: '1000000000',
    SVC_MARKET_TIMEOUT_MS: '200',
    ...env,
  });

/** Every market number unknown: null, never 0 (written out so a 0 in the module would fail here). */
const NULLS = {
  price_usd: null,
  market_cap_usd: null,
  price_change_1h_pct: null,
  price_change_6h_pct: null,
  price_change_24h_pct: null,
  volume_1h_usd: null,
  volume_6h_usd: null,
  volume_24h_usd: null,
  liquidity_usd: null,
  buys_1h: null,
  sells_1h: null,
};
const STALE = { ...NULLS, stale: true, pairs: 0 };

describe('readMarket', () => {
  test('asks the token endpoint of the mint', async () => {
    market.answer(() => dexAnswer([pair()]));
    await readMarket(config());
    expect(market.requests).toEqual([{ method: 'GET', path: `/latest/dex/tokens/${MINT}`, body: '' }]);
  });

  test('price, market cap and changes come from the most liquid pair; volume, liquidity, buys and sells are summed', async () => {
    market.answer(() =>
      dexAnswer([
        pair({ priceUsd: '0.0100', marketCap: 100_000, liquidity: { usd: 10_000 }, priceChange: { h1: 1, h6: 2, h24: 3 } }),
        pair({ priceUsd: '0.0120', marketCap: 120_000, liquidity: { usd: 40_000 }, priceChange: { h1: -4, h6: -5, h24: -6 } }),
        pair({ priceUsd: '0.0110', marketCap: 110_000, liquidity: { usd: 20_000 }, volume: { h1: 1, h6: 2, h24: 3 }, txns: { h1: { buys: 1, sells: 2 } } }),
      ]),
    );
    expect(await readMarket(config())).toEqual({
      price_usd: 0.012,
      market_cap_usd: 120_000,
      price_change_1h_pct: -4,
      price_change_6h_pct: -5,
      price_change_24h_pct: -6,
      volume_1h_usd: 201,
      volume_6h_usd: 1202,
      volume_24h_usd: 4803,
      liquidity_usd: 70_000,
      buys_1h: 21,
      sells_1h: 10,
      stale: false,
      pairs: 3,
      error: null,
    });
  });

  test('a pair where the mint is the quote token is left out (its price is the other token)', async () => {
    const other = { address: 'Other1111111111111111111111111111111111111', symbol: 'OTH' };
    market.answer(() =>
      dexAnswer([pair({ liquidity: { usd: 1_000 } }), pair({ baseToken: other, quoteToken: { address: MINT }, priceUsd: '9', liquidity: { usd: 1e9 } })]),
    );
    const r = await readMarket(config());
    expect(r).toMatchObject({ price_usd: 0.0123, liquidity_usd: 1_000, pairs: 1, stale: false });
  });

  test('numbers sent as strings are read; non-numeric strings are null', async () => {
    market.answer(() =>
      dexAnswer([
        pair({
          priceUsd: '0.5',
          marketCap: '250000',
          volume: { h1: '10.5', h6: 'n/a', h24: '' },
          liquidity: { usd: '7000' },
          txns: { h1: { buys: '3', sells: '4' } },
          priceChange: { h1: '-1.25', h6: 'NaN', h24: 'Infinity' },
        }),
      ]),
    );
    expect(await readMarket(config())).toMatchObject({
      price_usd: 0.5,
      market_cap_usd: 250_000,
      volume_1h_usd: 10.5,
      volume_6h_usd: null,
      volume_24h_usd: null,
      liquidity_usd: 7000,
      buys_1h: 3,
      sells_1h: 4,
      price_change_1h_pct: -1.25,
      price_change_6h_pct: null,
      price_change_24h_pct: null,
      stale: false,
    });
  });

  test('a missing field is null, never 0; a sum counts the pairs that report it', async () => {
    const bare = { chainId: 'solana', pairAddress: 'Bare', baseToken: { address: MINT } };
    market.answer(() =>
      dexAnswer([
        { ...bare, liquidity: { usd: 900 } },
        { ...bare, volume: { h1: 5 } },
      ]),
    );
    expect(await readMarket(config())).toEqual({
      ...NULLS,
      volume_1h_usd: 5,
      liquidity_usd: 900,
      stale: false,
      pairs: 2,
      error: null,
    });
  });

  test('the most liquid pair is chosen even when it lacks a price: the price is then null', async () => {
    market.answer(() => dexAnswer([pair({ liquidity: { usd: 10 } }), pair({ priceUsd: undefined, liquidity: { usd: 99 } })]));
    expect((await readMarket(config())).price_usd).toBeNull();
  });

  const failures: [string, () => Response | Promise<Response>, string][] = [
    ['pairs: null (an unknown token)', () => dexAnswer(null), 'no pairs'],
    ['an empty pair list', () => dexAnswer([]), 'no pairs'],
    ['pairs of other tokens only', () => dexAnswer([pair({ baseToken: { address: 'Else' } })]), 'no pairs'],
    ['an answer that is not an object', () => Response.json([1, 2]), 'no pairs'],
    [
      'an HTML page with status 200',
      () => new Response('<!doctype html><title>Just a moment…</title>', { headers: { 'content-type': 'text/html' } }),
      'not json',
    ],
    ['malformed JSON', () => new Response('{"pairs": [', { headers: { 'content-type': 'application/json' } }), 'not json'],
    ['status 500', () => new Response('oops', { status: 500 }), 'status 500'],
    ['status 429', () => new Response('slow down', { status: 429 }), 'status 429'],
  ];
  test.each(failures)('%s is a stale reading with every number null', async (_name, answer, error) => {
    market.answer(answer);
    expect(await readMarket(config())).toEqual({ ...STALE, error });
  });

  test('a failed attempt is tried once more, and only once', async () => {
    market.answer(() => new Response('down', { status: 503 }));
    await readMarket(config());
    expect(market.calls).toBe(2);
  });

  test('an answer without usable pairs is an answer: it is not retried', async () => {
    market.answer(() => dexAnswer(null));
    await readMarket(config());
    expect(market.calls).toBe(1);
  });

  test('a first failure then a good answer gives the good reading', async () => {
    market.answer((_req, call) => (call === 1 ? new Response('busy', { status: 502 }) : dexAnswer([pair()])));
    const r = await readMarket(config());
    expect(r).toMatchObject({ stale: false, price_usd: 0.0123 });
    expect(market.calls).toBe(2);
  });

  test('a server that is down is a stale reading', async () => {
    expect(await readMarket(config({ SVC_MARKET_URL: closedUrl() }))).toEqual({ ...STALE, error: 'unreachable' });
  });

  test('a server slower than the timeout is a stale reading after two attempts', async () => {
    market.answer(async () => {
      await Bun.sleep(1_000);
      return dexAnswer([pair()]);
    });
    expect(await readMarket(config())).toEqual({ ...STALE, error: 'timeout' });
    expect(market.calls).toBe(2);
  });

  test.each([
    ['SVC_MARKET_URL', { SVC_MARKET_URL: '' }],
    ['SVC_MINT', { SVC_MINT: '' }],
  ])('without %s nothing is read and the reading is stale', async (_name, env) => {
    market.answer(() => dexAnswer([pair()]));
    expect(await readMarket(config(env))).toEqual({ ...STALE, error: 'not configured' });
    expect(market.calls).toBe(0);
  });

  test('a fetch that throws synchronously is still a stale reading', async () => {
    const throwing = () => {
      throw new Error('boom');
    };
    expect((await readMarket(config(), throwing)).stale).toBe(true);
  });
});

describe('readBurned', () => {
  test('posts getTokenSupply for the mint and answers initial supply minus current supply', async () => {
    rpc.answer(() => supplyAnswer('999999000.123456'));
    expect(await readBurned(config())).toBe(999.876544);
    expect(rpc.requests).toHaveLength(1);
    expect(rpc.requests[0]!.method).toBe('POST');
    expect(JSON.parse(rpc.requests[0]!.body)).toEqual({ jsonrpc: '2.0', id: 1, method: 'getTokenSupply', params: [MINT] });
  });

  test('without uiAmountString the supply is amount scaled by decimals', async () => {
    rpc.answer(() => Response.json({ jsonrpc: '2.0', id: 1, result: { value: { amount: '999000000000000', decimals: 6 } } }));
    expect(await readBurned(config())).toBe(1_000_000);
  });

  test.each([
    ['SVC_SOLANA_RPC_URL', { SVC_SOLANA_RPC_URL: '' }],
    ['SVC_INITIAL_SUPPLY', { SVC_INITIAL_SUPPLY: '' }],
    ['SVC_MINT', { SVC_MINT: '' }],
  ])('without %s it is null and nothing is asked', async (_name, env) => {
    rpc.answer(() => supplyAnswer('1'));
    expect(await readBurned(config(env))).toBeNull();
    expect(rpc.calls).toBe(0);
  });

  const failures: [string, () => Response | Promise<Response>][] = [
    ['an RPC error', () => Response.json({ jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'Invalid param' } })],
    ['status 500', () => new Response('no', { status: 500 })],
    ['HTML', () => new Response('<html></html>')],
    ['a supply above the initial one', () => supplyAnswer('1000000001')],
    ['a non-numeric amount', () => Response.json({ result: { value: { uiAmountString: 'lots' } } })],
  ];
  test.each(failures)('%s gives null', async (_name, answer) => {
    rpc.answer(answer);
    expect(await readBurned(config())).toBeNull();
  });

  test('a slow node gives null after two attempts', async () => {
    rpc.answer(async () => {
      await Bun.sleep(1_000);
      return supplyAnswer('1');
    });
    expect(await readBurned(config())).toBeNull();
    expect(rpc.calls).toBe(2);
  });

  test('a node that is down gives null', async () => {
    expect(await readBurned(config({ SVC_SOLANA_RPC_URL: closedUrl() }))).toBeNull();
  });
});
