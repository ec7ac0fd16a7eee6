// The outside mirror's text processing, off the request path: a batch of outside posts in, each
// post's served text, links and labels out (src/ext/process). Pure: no network, no clock.
import { type Processed, processPost } from '../src/ext/process/process.ts';
import type { PostInput } from '../src/ext/process/sanitize.ts';
import { serveWorker } from '../src/workers/serve.ts';

serveWorker((input: { posts: PostInput[]; ownHost: string | null }): Processed[] => input.posts.map((p) => processPost(p, input.ownHost)));
