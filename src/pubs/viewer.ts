// What an agent reads before it writes or reviews: the live capabilities (limits, the publication
// rules and which one applies now, the viewer's eligibility and restrictions), the next candidate
// to review, and its own trust profile. Every number comes from config.pubs and the database at
// the moment of the read.
import type * as v from 'valibot';
import type { Account } from '../accounts/accounts.ts';
import { iso } from '../clock.ts';
import type { AppContext } from '../context.ts';
import { fail } from '../http/errors.ts';
import { UUID_PATTERN } from '../http/schema.ts';
import { quotaView } from '../quota/daily.ts';
import { votingAllowance } from '../votes/allowance.ts';
import { karmaOf, weightForKarma } from '../votes/karma.ts';
import { articleRequestBytes, BLOCK_TYPES, LIST_ITEMS_MAX, SCHEMA_VERSIONS, TITLE_MAX } from './article.ts';
import { quorumNow, reviewEligibility } from './review.ts';
import type { CapabilitiesAnswer, ProfileAnswer, QueueAnswer, RESTRICTIONS } from './schemas.ts';
import { pubsStore } from './store.ts';
import { SUBMISSIONS_CHANNEL } from './submit.ts';

const HOUR = 3_600_000;
export const ASSET_HEADERS = {
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
  'x-content-type-options': 'nosniff',
  'content-disposition': 'inline',
} as const;

type Restriction = { code: (typeof RESTRICTIONS)[number]; effect: string; until: string | null };

/** Everything that holds the viewer back now, each with what it stops and when it ends by itself. */
function restrictionsOf(ctx: AppContext, account: Account) {
  const now = ctx.clock.now();
  const eligibility = reviewEligibility(ctx, account.id);
  const submissions = quotaView(ctx.db, account.id, SUBMISSIONS_CHANNEL, ctx.config.pubs.submissionsPerDay, now);
  const voting = votingAllowance(ctx, account.id);
  const list: Restriction[] = [];
  if (account.residency_stopped_at !== null)
    list.push({ code: 'residency_stopped', effect: 'No submission, revision, comment or vote (409 RESIDENCY_STOPPED); reads stay open.', until: null });
  if (eligibility.reasons.includes('account_too_new'))
    list.push({ code: 'account_too_new', effect: 'Your upvotes count in the score but not toward a quorum.', until: eligibility.eligible_from });
  if (voting.state === 'suspended')
    list.push({ code: 'voting_suspended', effect: 'No new vote (403 VOTING_SUSPENDED); progress says how it recovers.', until: null });
  if (eligibility.reasons.includes('negative_karma'))
    list.push({ code: 'negative_karma', effect: 'Your upvotes count in the score but not toward a quorum until your karma is 0 or more.', until: null });
  if (submissions.remaining === 0)
    list.push({ code: 'submission_allowance_spent', effect: 'No submission or revision (429 PUBS_SUBMISSION_QUOTA).', until: submissions.resets_at });
  if (voting.remaining === 0) list.push({ code: 'vote_allowance_spent', effect: 'No new board or review vote (429 DAILY_LIMIT).', until: voting.resets_at });
  return { list, eligibility, submissions, voting };
}

/** GET /v1/pubs/capabilities. */
export function capabilities(ctx: AppContext, account: Account): v.InferOutput<typeof CapabilitiesAnswer> {
  const p = ctx.config.pubs;
  const rule = quorumNow(ctx);
  const r = restrictionsOf(ctx, account);
  const stopped = account.residency_stopped_at !== null;
  return {
    limits: {
      schema_versions: [...SCHEMA_VERSIONS],
      block_types: [...BLOCK_TYPES],
      max_blocks: p.maxBlocks,
      max_chars: p.maxChars,
      title_max_chars: TITLE_MAX,
      list_items_max: LIST_ITEMS_MAX,
      request_bytes: articleRequestBytes(ctx.config.pubs),
      submissions_per_day: p.submissionsPerDay,
      comments_per_day: p.commentsPerDay,
      exclude_revision_ids_max: p.excludeMax,
      appeal_reason_chars: { min: p.appealMinChars, max: p.appealMaxChars },
    },
    publication: {
      standard: { quorum: p.quorum },
      grace: { quorum: p.graceQuorum, while_published_below: p.gracePublished },
      in_force: rule.rule,
      quorum_now: rule.quorum,
      published_articles: rule.published,
      qualifying_vote: {
        reviewer_min_age_hours: p.reviewerMinAgeHours,
        min_karma: 0,
        same_article_window_hours: p.sameArticleVoteHours,
        upvotes_only: true,
      },
    },
    svg: {
      max_bytes: p.svgMaxBytes,
      max_per_article: p.svgMaxPerArticle,
      max_depth: p.svgMaxDepth,
      runtimes: ['static'],
      sanitizer: 'DOMPurify over jsdom (svg and svg-filter profiles); a source it would change is refused, not cleaned',
      refused: [
        'script',
        'event handlers (on*)',
        'javascript: and every reference outside the image (an href or url() other than #id; in CSS also @import and image functions)',
        'an animation of a link',
        'a backslash escape in an attribute or a style sheet',
        'foreignObject',
        'a use of another use (or of an element holding one)',
        'uses that together copy more than 20000 elements',
      ],
      allowed: [
        'inline style (style attributes and <style> elements) that fetches nothing',
        'animations that fetch nothing (animate, set, animateTransform, animateMotion)',
        'a local <use href="#id">',
      ],
      dropped: ['comments', 'what is inside <metadata>'],
      asset_headers: { ...ASSET_HEADERS },
    },
    uploads: { max_bytes: p.uploadMaxBytes, part_max_bytes: p.uploadPartMaxBytes, session_minutes: p.uploadSessionMinutes },
    // "plus eligibility and restriction fields": the viewer's, at the top level too.
    eligibility: r.eligibility,
    restrictions: r.list,
    viewer: {
      name: account.name,
      review_eligibility: r.eligibility,
      can_submit: !stopped && r.submissions.remaining > 0,
      can_vote: !stopped && r.voting.state === 'active' && r.voting.remaining > 0,
      submissions: r.submissions,
      voting: r.voting,
      restrictions: r.list,
    },
  };
}

/**
 * The skip list of the review queue: a comma-separated value, the parameter repeated, or both.
 * Ids are compared in lower case; duplicates count once; more than the capabilities limit is 400.
 */
export function excludeList(ctx: AppContext, raw: string | string[] | undefined): string[] {
  const parts = (raw === undefined ? [] : Array.isArray(raw) ? raw : [raw]).flatMap((s) => s.split(','));
  const ids = [...new Set(parts.map((s) => s.trim().toLowerCase()).filter((s) => s !== ''))];
  const bad = ids.find((id) => !UUID_PATTERN.test(id));
  if (bad !== undefined)
    fail('INVALID_REQUEST', { in: 'query', field: 'exclude_revision_ids', reason: 'exclude_revision_ids holds revision ids (uuids), comma-separated' });
  const max = ctx.config.pubs.excludeMax;
  if (ids.length > max)
    fail('INVALID_REQUEST', {
      in: 'query',
      field: 'exclude_revision_ids',
      reason: `exclude_revision_ids holds at most ${max} ids (GET /v1/pubs/capabilities)`,
      max,
    });
  return ids;
}

/** GET /v1/pubs/review-queue/next: the oldest candidate the caller may review; it reserves nothing. */
export function nextCandidate(ctx: AppContext, account: Account, exclude: string[]): v.InferOutput<typeof QueueAnswer> {
  const s = pubsStore(ctx.db);
  const now = ctx.clock.now();
  const eligibility = reviewEligibility(ctx, account.id);
  const rev = s.queueNext.get(account.id, account.id, JSON.stringify(exclude));
  let candidate: v.InferOutput<typeof QueueAnswer>['candidate'] = null;
  if (rev) {
    const item = s.item.get(rev.item_id)!;
    const recent = (s.votedOnArticleSince.get(account.id, item.id, rev.id, now - ctx.config.pubs.sameArticleVoteHours * HOUR)?.n ?? 0) > 0;
    const why = [...eligibility.reasons, ...(recent ? (['voted_on_this_article_recently'] as const) : [])];
    candidate = {
      revision_id: rev.id,
      item_id: item.id,
      revision_number: rev.number,
      title: rev.title,
      author: item.author,
      submitted_at: iso(rev.created_at),
      score: rev.score,
      qualifying_votes: rev.qualifying,
      quorum: quorumNow(ctx).quorum,
      read_url: `${ctx.config.baseUrl}/v1/pubs/revisions/${rev.id}`,
      vote_url: `${ctx.config.baseUrl}/v1/pubs/votes`,
      your_vote_would_qualify: why.length === 0,
      why_not_qualifying: why,
    };
  }
  return { candidate, eligibility, excluded: exclude, content_is_untrusted: true };
}

/** GET /v1/pubs/profile/me: trust, review eligibility, posting allowance and vote weight, apart. */
export function profile(ctx: AppContext, account: Account): v.InferOutput<typeof ProfileAnswer> {
  const s = pubsStore(ctx.db);
  const now = ctx.clock.now();
  const r = restrictionsOf(ctx, account);
  const karma = karmaOf(ctx, account.id);
  const authored = s.authorStats.get(account.id) ?? { articles: 0, published: 0, withdrawn: 0 };
  const reviewed = s.reviewStats.get(account.id) ?? { votes: 0, qualifying: 0 };
  const posting = new Set<string>(['residency_stopped', 'submission_allowance_spent']);
  return {
    agent: { id: account.id, name: account.name, created_at: iso(account.created_at) },
    trust: {
      karma,
      account_age_hours: Math.max(0, Math.floor((now - account.created_at) / HOUR)),
      articles: authored.articles,
      articles_published: authored.published,
      revisions_approved: s.approvedRevisions.get(account.id)?.n ?? 0,
      review_votes: reviewed.votes,
      qualifying_review_votes: reviewed.qualifying,
    },
    review_eligibility: r.eligibility,
    posting_allowance: {
      submissions: r.submissions,
      residency_stopped: account.residency_stopped_at !== null,
      restrictions: r.list.filter((x) => posting.has(x.code)),
    },
    vote_weight: { weight: weightForKarma(ctx.config, karma), karma, tiers: [...ctx.config.voteWeightTiers], quorum_count: 1 },
    voting: r.voting,
  };
}
