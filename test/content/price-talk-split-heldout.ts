// A second held-out set for PRICE_TALK (issue 36.4): a call to trade and a prediction split over two
// clauses of one sentence or over two adjacent sentences ("Sell your ETH, it's going to zero."), and
// predictions in the present tense with a time ("ETH drops to 1000 soon."). It was written before
// the rule that reads them (src/content/price-talk-split.ts), from the definition alone: price talk
// is a prediction of a token's price or a call to buy or sell it (01 §8: "promise no profit or
// price"); each half of a split call may look harmless alone ("Sell your ETH", "it's going to
// zero"), the sentence is not. None of it was tuned case by case afterwards.
//
// The near misses share those words and predict nothing about a token's price: ordinary talk about
// prices (a measured price with its source and time, a headline in the present tense), history,
// questions, negations, code, quoted numbers, and "drops"/"zero"/"sell"/"hold" said of services,
// queues, servers and weather. None is a copy of a case in price-talk-cases*.ts or
// price-talk-heldout.ts. price-talk-heldout.test.ts asserts all of them and
// `bun test/content/price-talk-counts.ts <rev>` prints the counts at a revision and in the tree.
//
// Measured with scanContent over { title, body } before that rule: 10 of the 48 predictions caught,
// 1 of the 54 near misses flagged ("Is ETH going to zero?", by the prediction shape). With it: 48
// of 48 and 0 of 54; the shape set (47/47, 0/51) and the case tables (241/241, 0/227) unchanged.
import type { HeldOutCase } from './price-talk-heldout.ts';

export const SPLIT_HELD_OUT: { predictions: HeldOutCase[]; nearMisses: HeldOutCase[] } = {
  predictions: [
    // a call, then a prediction about "it" in the next clause of the same sentence
    "Sell your ETH, it's going to zero.",
    'Dump your DOGE, it is headed for zero.',
    'Buy ETH, it will double.',
    'Grab some SOL because it is going to 1000.',
    'Get out of ETH before it goes to zero.',
    'Sell your bitcoin since it will crash to 10k.',
    "Short DOGE, it's going to dump.",
    'Take profits on SOL, it will tank soon.',
    "Don't sell your ETH, it's going to 20k.",
    "Accumulate XRP, it's heading to 10.",
    'You should sell your ETH, it will go to zero.',
    "I'd buy BTC here, it will go up.",
    'Buy some $BONK, it will explode.',
    'Sell the $PEPE you hold, it goes to zero this week.',
    'Buy Solana and wait, it will triple.',
    // a call and a prediction in adjacent sentences, in either order
    "Sell your ETH. It's going to zero.",
    'Buy bitcoin. It will hit a million.',
    'Get rid of your DOGE. It will crash.',
    'Buy SOL. Trust me, it will double.',
    "It's going to zero. Sell your ETH.",
    'It will double by summer. Buy SOL.',
    'This is going to 1000. Buy ETH now or later, but buy it.',
    'Dump your XRP! It drops to zero by Friday.',
    'Sell BTC today. It is going to crash.',
    'Hold your ETH. It will recover to 4k.',
    // predictions in the present tense with a time, said of a token
    'ETH drops to 1000 soon.',
    'BTC falls to 20k by March.',
    'SOL climbs to 500 next week.',
    'DOGE dips to 5 cents tomorrow.',
    'Bitcoin crashes to 10,000 this year.',
    '$PEPE pumps to 0.0001 by Friday.',
    'XRP sinks to zero soon.',
    'The token dumps to zero tomorrow.',
    'ETH is dropping to 1000 soon.',
    'Soon ETH drops to 1000.',
    'By Friday BTC falls to 50k.',
    'ETH rallies to 8k in Q1, calling it now.',
    'Litecoin jumps to $300 next month.',
    { title: 'ETH drops to 1000 soon', body: 'Notes from the week.' },
    { title: 'Weekly notes', body: 'Builds were green. Sell your SOL, it is going to zero.' },
    { title: 'Sell your ETH, it is going to zero', body: 'That is all.' },
    // other languages, where their vocabulary exists: a plain call, then a rise
    'Compra SOL porque va a subir.',
    'Compra BTC que va a explotar.',
    'Compre ETH porque vai subir.',
    'Compre SOL que vai explodir.',
    'Compra SOL perché salirà.',
    'Kauf BTC, denn er wird steigen.',
    'Achète du SOL car il va exploser.',
  ],
  nearMisses: [
    // ordinary talk about prices: measured, sourced, or a headline with no time ahead
    'ETH drops to $1,800 after the exploit, per CoinGecko at 14:00 UTC.',
    'SOL falls to 120 in the 14:00 UTC snapshot (CoinGecko).',
    'BTC climbs to 97k on the ETF news, according to the 09:00 UTC read.',
    'We sell ETH from the treasury every Friday and publish the fills.',
    'Buy and sell counts for ETH: 1,204 and 980 in the last hour.',
    'Buy-side depth on SOL thinned out. It drops to zero at 03:00 UTC on weekends.',
    // history
    'We sold our ETH in 2022. It went to 1,000 that summer.',
    'In 2018 bitcoin fell to 3k; it took a year to recover.',
    'DOGE dropped to 5 cents in 2019, and nobody noticed.',
    'Someone bought SOL at 8 dollars and it went to 250, which is history now.',
    // questions
    'Should I sell my ETH? Is it going to zero?',
    'Will ETH drop to 1000 soon?',
    'Is ETH going to zero?',
    'Why did SOL fall to 100 last year, and will the same thing happen to our queue?',
    'Do you buy ETH when it drops? We never do.',
    // negations
    'ETH is not going to zero, and nobody here will say when it moves.',
    "I won't sell my ETH, and it is not going anywhere: it pays the gas.",
    'We never tell anyone to buy SOL; whether it goes up is not our topic.',
    "Don't buy SOL for the tests. It is not needed on devnet.",
    // code and commands
    'Run `sell(eth)` in the mock; it goes to zero after the sweep.',
    'buy SOL --devnet --amount 1 && echo done; it will fail if the faucet is dry.',
    'The test calls `buy SOL` twice. It goes to zero retries after the fix.',
    'if (price.eth < 1000) alert(); // the balance drops to 0 when the sweep runs',
    // quotes of numbers
    'The dashboard says "ETH 1,000" and "SOL 120" for the 14:00 UTC read.',
    'Our sheet lists BTC at 97,000 and ETH at 3,400, both from CoinGecko at 09:00 UTC.',
    // sell, buy, hold, short and drop said of something that is not a token's price
    'Sell the old server racks, they are going to be obsolete.',
    'Buy SOL on devnet first. It is going to fail without fees.',
    'Hold the ETH deploy, it will crash the node.',
    'Buy SOL for the validator stake test; it will double the load.',
    'Stop the ETH indexer, it is going to crash.',
    'Restart the SOL validator. It will crash otherwise.',
    'Drain the ETH test wallet before the sweep; its balance goes to zero anyway.',
    'Hold SOL transfers until Monday; the queue will drop to zero by then.',
    'Short the BTC benchmark to ten runs. It will finish sooner.',
    "Sell your idea to the team first, it's going to take a while.",
    "Don't buy ETH for the demo. It is going to be slow on testnet.",
    'Sell the car. It is going to need new tyres by spring.',
    // "drops", "falls" and "zero" said of services, queues and weather
    'Latency drops to 10 ms soon after the cache warms.',
    'Traffic falls to zero tonight during the freeze.',
    'The error count drops to zero by Friday.',
    "Our ETH node's peer count drops to 5 tomorrow during maintenance.",
    'The temperature drops to zero tonight, so the rack fans slow down.',
    'ETH gas drops to 5 gwei next week after the upgrade.',
    'The SOL faucet limit falls to 1 per day next week.',
    'Memory climbs to 2 GB soon after start, then settles.',
    'It drops to zero soon after the lease expires.',
    'The queue is going to zero. Sell-side alerts stay on.',
    { title: 'Latency drops to 5 ms soon', body: 'The p99 after the cache change.' },
    { title: 'Weekly notes', body: 'Buy SOL on devnet for the test. The test is going to take an hour.' },
    // other languages: a plain call and a rise said of something else, or no call at all
    'Compra SOL en devnet para la prueba porque la latencia va a subir.',
    'Compra servidores porque el tráfico va a subir.',
    'Compre ETH na testnet porque o tempo de build vai subir.',
    'Compra SOL per il test perché il carico salirà domani.',
    'Kauf BTC für den Test, denn die Last wird steigen.',
  ],
};
