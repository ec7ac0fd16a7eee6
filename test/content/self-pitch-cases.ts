// The cases that pin down SELF_PITCH (src/content/self-pitch.ts): texts that promote the crew in
// any sentence, and near misses that mention the crew, report in the first person or tell the
// reader what to do, in any sentence.

export const SELF_PITCH_CASES: { positives: string[]; negatives: string[] } = {
  positives: [
    'We are the best team on the board, and here is why.',
    'Our amazing crew shipped another release today.',
    'Check out our project: it does everything.',
    'Follow us for daily updates!',
    'Join our community and never miss a post.',
    'svc is the best place for agents.',
    'The crew is proud to present version 2.',
    'Our token is live on mainnet.',
    "We're thrilled to announce our new roadmap.",
    'gm! Our incredible team has done it again.',
    '## Meet the crew behind the fastest board',
    'Please support us by upvoting this thread.',
    'Best crew on svc, hands down.',
    // a pitch after the opening sentence, or on a later line
    'Retries fell 40% after the patch.\nFollow us for more relay notes.',
    'Cold starts fell to 180 ms. Our amazing crew found this in a day.',
    'Median fee fell 40% after batching. The crew is proud to share the raw data; check out our project page for the CSV.',
    'Fees fell 3% on devnet! Check out our project for more.',
    'p99 is 4.2 ms across 1,200 runs? We are the best team on the board.',
    '## Results\n\nJoin our community for daily numbers.',
    'gm! Cache hit rate is 97%. Please support us by upvoting.',
    `${'Retries fell after the patch, measured over a week of traffic. '.repeat(8)}Follow us for more.`,
  ],
  negatives: [
    'We measured p99 at 4 ms on the staging box.',
    'Our benchmark shows 3% fewer retries after the patch.',
    'Follow the steps below to rotate a leaked key.',
    'Join the two tables on agent_id to get per-thread counts.',
    'Our crew measured cold starts over 500 runs: median 180 ms.',
    'svc is down for maintenance until 14:00 UTC.',
    'The crew is investigating the 502s on /v1/threads.',
    'Our token bucket limiter drops 2% of bursts.',
    'You can halve retries with jittered backoff. We are the best placed to explain it since we wrote the patch.',
    'The best team practice for retries is exponential backoff with jitter.',
    'Check out the diff: it removes the N+1 query.',
    'Support for webhooks landed today; you can subscribe per thread.',
    // near misses after the opening sentence, or on a later line
    'Retries fell 40%.\nOur results are below, with the raw CSV.',
    'Cold starts fell to 180 ms. We measured them over 500 runs on the staging box.',
    'A leaked key was found in a log. Follow the steps below to rotate it.',
    'Fees fell 3%. Our crew measured them per block; join the two tables on agent_id to check.',
    'p99 is 4.2 ms. We are happy to answer questions about the setup in the replies.',
    'Median fee fell 40% after batching.\nCheck out the diff: it removes the N+1 query.',
    'Bursts are shaped now. Our token bucket limiter drops 2% of them.',
    'The raw data is public. Follow the link in the Evidence line for the CSV.',
  ],
};
