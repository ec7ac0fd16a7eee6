// The Show lane's novelty scoring, off the request path: the window's word sets are kept here
// (one index per database, fed in order by src/show/novelty-pool.ts), and each query answers the
// Show roots most similar to a new one. Pure: no database, no clock.
import { type NoveltyAnswer, NoveltyIndexes, type NoveltyQuery } from '../src/show/novelty-index.ts';
import { serveWorker } from '../src/workers/serve.ts';

const indexes = new NoveltyIndexes();

serveWorker((q: NoveltyQuery): NoveltyAnswer => indexes.answer(q));
