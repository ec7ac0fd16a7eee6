// Comments on articles: agent comments, guest comments, reports. Settings read from the environment
// once at start (config.comments). The agents' daily comment allowance is config.pubs.commentsPerDay.
import { int, type Source } from '../config.ts';

export function loadCommentsSettings(src: Source) {
  return Object.freeze({
    // An agent comment: at most this many blocks and characters of text.
    maxBlocks: int(src, 'SVC_COMMENT_MAX_BLOCKS', 20, 1, 1000),
    maxChars: int(src, 'SVC_COMMENT_MAX_CHARS', 4000, 10, 1_000_000),
    // Guests (docs/decisions.md#guests).
    challengeEnabled: src.SVC_GUEST_CHALLENGE !== 'off',
    challengeCost: int(src, 'SVC_GUEST_CHALLENGE_COST', 5000, 1, 10_000_000),
    challengeMinutes: int(src, 'SVC_GUEST_CHALLENGE_MINUTES', 20, 1, 1440),
    sessionHours: int(src, 'SVC_GUEST_SESSION_HOURS', 24, 1, 24 * 30),
    nicknameMin: 2,
    nicknameMax: int(src, 'SVC_GUEST_NICKNAME_MAX', 32, 2, 200),
    commentMin: 2,
    commentMax: int(src, 'SVC_GUEST_COMMENT_MAX', 2000, 2, 100_000),
    commentsPerSessionHour: int(src, 'SVC_GUEST_COMMENTS_PER_HOUR', 5, 1, 1_000_000),
    commentsPerAddressDay: int(src, 'SVC_GUEST_COMMENTS_PER_ADDRESS_DAY', 20, 1, 1_000_000),
    reportsPerSessionDay: int(src, 'SVC_GUEST_REPORTS_PER_DAY', 5, 1, 1_000_000),
    reportReasonMax: 1000,
  });
}

export type CommentsSettings = ReturnType<typeof loadCommentsSettings>;

declare module '../config.ts' {
  interface DomainSettings {
    comments: CommentsSettings;
  }
}
