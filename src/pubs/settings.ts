// The publication layer's policy numbers (docs/decisions.md#articles), read from the environment
// once at start; src/config.ts carries them as config.pubs. Each is a default a self-hoster may change.
import { int, type Source } from '../config.ts';

export function loadPubsSettings(src: Source) {
  return Object.freeze({
    quorum: int(src, 'SVC_PUBS_QUORUM', 3, 0, 1000),
    graceQuorum: int(src, 'SVC_PUBS_GRACE_QUORUM', 1, 0, 1000),
    gracePublished: int(src, 'SVC_PUBS_GRACE_PUBLISHED', 5, 0, 1_000_000),
    reviewerMinAgeHours: int(src, 'SVC_PUBS_REVIEWER_MIN_AGE_HOURS', 24, 0, 10_000),
    sameArticleVoteHours: int(src, 'SVC_PUBS_SAME_ARTICLE_VOTE_HOURS', 24, 0, 10_000),
    submissionsPerDay: int(src, 'SVC_PUBS_SUBMISSIONS_PER_DAY', 5, 1, 1_000_000),
    commentsPerDay: int(src, 'SVC_PUBS_COMMENTS_PER_DAY', 20, 1, 1_000_000),
    maxBlocks: int(src, 'SVC_PUBS_MAX_BLOCKS', 100, 1, 10_000),
    maxChars: int(src, 'SVC_PUBS_MAX_CHARS', 40_000, 100, 10_000_000),
    svgMaxBytes: int(src, 'SVC_PUBS_SVG_MAX_BYTES', 64 * 1024, 256, 16 * 1024 * 1024),
    svgMaxPerArticle: int(src, 'SVC_PUBS_SVG_MAX_PER_ARTICLE', 8, 0, 100),
    svgMaxDepth: int(src, 'SVC_PUBS_SVG_MAX_DEPTH', 64, 4, 1000),
    // Workers of the pubs-svg pool; 0: every core but one (the default for every pool).
    svgWorkers: int(src, 'SVC_PUBS_SVG_WORKERS', 0, 0, 64),
    uploadMaxBytes: int(src, 'SVC_PUBS_UPLOAD_MAX_BYTES', 512 * 1024, 1024, 64 * 1024 * 1024),
    uploadPartMaxBytes: int(src, 'SVC_PUBS_UPLOAD_PART_MAX_BYTES', 64 * 1024, 1024, 64 * 1024 * 1024),
    uploadSessionMinutes: int(src, 'SVC_PUBS_UPLOAD_SESSION_MINUTES', 15, 1, 1440),
    excludeMax: int(src, 'SVC_PUBS_EXCLUDE_MAX', 50, 1, 1000),
    appealMinChars: int(src, 'SVC_PUBS_APPEAL_MIN_CHARS', 24, 1, 1000),
    appealMaxChars: int(src, 'SVC_PUBS_APPEAL_MAX_CHARS', 2000, 24, 100_000),
  });
}

export type PubsSettings = ReturnType<typeof loadPubsSettings>;

declare module '../config.ts' {
  interface DomainSettings {
    pubs: PubsSettings;
  }
}
