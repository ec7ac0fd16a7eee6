// The bench corpus's text (bench/corpus.ts, bench/search.ts): sentences over a Zipf-distributed
// vocabulary, a few domain words everywhere and a long tail of rare made-up words (identifiers,
// project names), plus the function words of real sentences. Deterministic: the same seed gives
// the same text on every run.
import { seededRandom } from '../test/content/fixtures.ts';

/** A small deterministic PRNG (mulberry32): the tests' own seeded generator. */
export const rng = seededRandom;

export const NOUNS = (
  'relay latency benchmark wallet liquidity validator snapshot throughput mempool signature index query cache endpoint token holder ' +
  'volume pool swap route fee slot block epoch leader stake reward market spread depth order feed thread reply inbox cursor page search ' +
  'report experiment result verdict scorecard playbook lab scan crawler mirror outreach draft request proposal commitment decision ' +
  'checkpoint residency operator editor quota limit retry timeout error failure outage incident alert metric dashboard chart window ' +
  'sample baseline regression variance median percentile histogram rpc node cluster region server client socket connection packet ' +
  'header payload schema migration backup restore disk memory cpu core process worker queue job schedule parser tokenizer ranking ' +
  'stemmer excerpt digest summary changelog release build deploy rollback config flag toggle budget allowance vote karma pin topic'
).split(' ');
export const VERBS = (
  'measured ran tested compared observed found fixed deployed dropped rose fell stalled recovered retried logged tracked scanned indexed ' +
  'cached benchmarked profiled traced verified confirmed reproduced doubled halved replaced rebuilt migrated paged ranked'
).split(' ');
export const ADJS = 'slow fast stable flaky noisy cold warm stale fresh partial full daily hourly public median worst best steady sudden quiet busy'.split(' ');
export const GLUE = 'the a of to and in is we it for on with that this was at from by as are but after before per each over under while'.split(' ');
const SYLLABLES = 'ka lo mi ne ru ta vex dor lin qua sen tor bri zel fa mun dal rik so pe jor nal tev'.split(' ');

// Topic words: the domain words first, then 6,000 rare made-up words, drawn with Zipf weights.
const vocabRand = rng(20261123);
const RARE = new Set<string>();
while (RARE.size < 6000)
  RARE.add(Array.from({ length: 2 + Math.floor(vocabRand() * 3) }, () => SYLLABLES[Math.floor(vocabRand() * SYLLABLES.length)]!).join(''));
/** Every topic word, most frequent first: NOUNS, then the rare tail. */
export const TOPIC: readonly string[] = [...NOUNS, ...[...RARE].filter((w) => !NOUNS.includes(w))];
const cumulative: number[] = [];
TOPIC.reduce((sum, _w, i) => {
  cumulative.push(sum + 1 / (i + 1) ** 1.05);
  return cumulative.at(-1)!;
}, 0);

export interface TextGen {
  rand: () => number;
  pick: <T>(xs: readonly T[]) => T;
  topicWord: () => string;
  sentence: () => string;
  /** 1–3 paragraphs of 1–4 sentences. */
  body: () => string;
  title: () => string;
}

/** A text generator over its own deterministic stream. */
export function textGen(seed: number): TextGen {
  const rand = rng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const topicWord = (): string => {
    const x = rand() * cumulative.at(-1)!;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return TOPIC[lo]!;
  };
  const sentence = (): string => {
    const parts = [pick(GLUE), pick(ADJS), topicWord(), pick(VERBS), pick(GLUE), topicWord()];
    if (rand() < 0.6) parts.push(pick(GLUE), pick(GLUE), topicWord());
    if (rand() < 0.4) parts.push(`p99 ${Math.floor(rand() * 400)} ms`);
    if (rand() < 0.3) parts.push(pick(GLUE), pick(ADJS), topicWord(), `${Math.floor(rand() * 100)} %`);
    const s = parts.join(' ');
    return `${s[0]!.toUpperCase()}${s.slice(1)}.`;
  };
  const body = (): string => {
    const paragraphs = 1 + Math.floor(rand() * 3);
    return Array.from({ length: paragraphs }, () => Array.from({ length: 1 + Math.floor(rand() * 4) }, sentence).join(' ')).join('\n\n');
  };
  const title = () => `${pick(['Experiment: ', 'Result: ', 'Request: ', '', '', ''])}${pick(ADJS)} ${topicWord()} ${pick(VERBS)} ${pick(GLUE)} ${topicWord()}`;
  return { rand, pick, topicWord, sentence, body, title };
}
