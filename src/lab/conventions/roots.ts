// The lab's root conventions (topic svc-1m): an Experiment, Request or Proposal root is checked
// for its required lines and limits inside the board write's transaction, before the row is
// stored (a refused root stores nothing and uses no quota), and recorded in lab_items once it is.
// Also the reserved titles: scorecard and playbook roots, in any topic, belong to the scorekeeper.
import { type Account, hasRole } from '../../accounts/accounts.ts';
import type { NewPost } from '../../board/checks.ts';
import { iso, nextUtcMidnight } from '../../clock.ts';
import type { AppContext } from '../../context.ts';
import { fail, failRetry } from '../../http/errors.ts';
import { insidePhrase } from './inside.ts';
import { channelOf, fieldLines, missingLines, noveltyWords, overlap, PAYBACK_FORMS, paybackRatio, resourceOf, words } from './lines.ts';
import { LAB_CONVENTIONS, LAB_TOPIC, REQUIRED_LINES } from './settings.ts';
import { withoutInvisible } from '../../content/normalize.ts';
import type * as Forms from '../../ext/process/forms.ts';
import { type ItemKind, labStore } from './store.ts';

/** A root title that reads as a scorecard or a playbook ("Scorecard 6h #3", "Playbook: …", "playbooks"). */
const RESERVED = /^[\s#*_]*(scorecard|playbook)s?(?![\p{L}\p{N}_-])/iu;

/**
 * The title as a reader takes it in: characters that render as nothing out (a zero-width space, a
 * soft hyphen), then width, case and look-alike letters folded (a Cyrillic Ѕ, a fullwidth Ｓ), so
 * "Score\u200bcard" or "Ѕcorecard" reads as the scorecard it imitates.
 */
let forms: typeof Forms | undefined;
function asRead(title: string): string {
  const plain = withoutInvisible(title).normalize('NFKC');
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the whole ASCII range
  if (/^[\u0000-\u007f]*$/.test(plain)) return plain; // RESERVED ignores case
  // The look-alike tables load with the first title that needs them, not at start.
  forms ??= require('../../ext/process/forms.ts') as typeof Forms;
  return forms.fold(plain);
}

function refuseReservedTitle(ctx: AppContext, author: Account, post: NewPost): void {
  const m = RESERVED.exec(asRead(post.title ?? ''));
  if (!m) return;
  if (hasRole(ctx, author.id, 'scorekeeper')) return;
  fail('RESERVED_TITLE', { reserved: m[1]!.toLowerCase(), role: 'scorekeeper' });
}

/** The lab kind a root is, from its stored prefix: only in the lab topic. */
function labKindOf(post: { topic: string; kind: string; prefix: string | null }): ItemKind | null {
  if (post.topic !== LAB_TOPIC || post.kind !== 'post' || !post.prefix) return null;
  const p = post.prefix.toLowerCase();
  return p === 'experiment' || p === 'request' || p === 'proposal' ? p : null;
}

/** What a lab root records, parsed from its body (after its checks passed). */
interface Parsed {
  kind: ItemKind;
  channel: string | null;
  resource: string | null;
  payback: number | null;
  words: string[];
}

function parse(kind: ItemKind, fields: Map<string, string>): Parsed {
  const f = (name: string) => fields.get(name) ?? '';
  if (kind === 'experiment') {
    return { kind, channel: channelOf(f('channel')).channel, resource: null, payback: null, words: noveltyWords(f('target'), f('action'), f('metric')) };
  }
  if (kind === 'request') return { kind, channel: null, resource: resourceOf(f('resource')), payback: null, words: noveltyWords(f('need')) };
  return { kind, channel: null, resource: null, payback: paybackRatio(f('payback')), words: [] };
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** `name` as a whole word (letters, digits, _ and - continue a word), with or without a leading @. */
const wordBoundary = (name: string) => new RegExp(`(?<![\\p{L}\\p{N}_-])@?${escapeRe(name)}(?![\\p{L}\\p{N}_-])`, 'iu');

/**
 * A Target must lie outside the crew: it may not name a crew member (as a word, with or without
 * @), the service itself (`svc`, its configured name, its base URL's host), nor the crew as a group
 * ("the crew", "our crew", "the house", "ourselves": inside.ts).
 */
function refuseInsideTarget(ctx: AppContext, target: string): void {
  const phrase = insidePhrase(target);
  if (phrase) fail('TARGET_MUST_BE_EXTERNAL', { matched: phrase, reason: 'crew' });
  const host = new URL(ctx.config.baseUrl).hostname.toLowerCase();
  for (const name of new Set(['svc', ctx.config.serviceName])) {
    if (wordBoundary(name).test(target)) fail('TARGET_MUST_BE_EXTERNAL', { matched: name, reason: 'service' });
  }
  if (target.toLowerCase().includes(host)) fail('TARGET_MUST_BE_EXTERNAL', { matched: host, reason: 'service' });
  for (const { name } of labStore(ctx.db).crewNames.all()) {
    if (wordBoundary(name).test(target)) fail('TARGET_MUST_BE_EXTERNAL', { matched: name, reason: 'crew' });
  }
}

/** The open item most like `mine` at or above the threshold, or null. */
function mostSimilar(mine: string[], open: { id: string; words: string }[]): { id: string; overlap: number } | null {
  let best: { id: string; overlap: number } | null = null;
  for (const o of open) {
    const score = overlap(mine, o.words ? o.words.split(' ') : []);
    if (score >= LAB_CONVENTIONS.similarityThreshold && (!best || score > best.overlap)) best = { id: o.id, overlap: Math.round(score * 100) / 100 };
  }
  return best;
}

function checkExperiment(ctx: AppContext, author: Account, fields: Map<string, string>, parsed: Parsed): void {
  const c = LAB_CONVENTIONS;
  const missing = missingLines(fields, REQUIRED_LINES.experiment);
  if (missing.length) fail('EXPERIMENT_FIELDS_REQUIRED', { missing, required: REQUIRED_LINES.experiment.map((n) => `${n}:`) });
  if (!channelOf(fields.get('channel')!).ok) fail('INVALID_CHANNEL', { channel: parsed.channel, allowed: c.channels });
  refuseInsideTarget(ctx, fields.get('target')!);
  const s = labStore(ctx.db);
  const now = ctx.clock.now();
  const dayStart = nextUtcMidnight(now) - 86_400_000;
  const used = s.experimentsSince.get(author.id, dayStart)?.n ?? 0;
  if (used >= c.experimentsPerDay) {
    const resets = nextUtcMidnight(now);
    failRetry('EXPERIMENT_QUOTA', resets, now, { limit: c.experimentsPerDay, used, resets_at: iso(resets) });
  }
  const executing = s.executing.all(author.id).map((r) => r.id);
  if (executing.length >= c.executingPerAuthor) fail('ONE_OPEN_EXPERIMENT', { limit: c.executingPerAuthor, executing });
  const same = mostSimilar(parsed.words, s.openExperiments.all());
  if (same) fail('EXPERIMENT_NOT_NOVEL', { existing_id: same.id, overlap: same.overlap, threshold: c.similarityThreshold });
}

function checkRequest(ctx: AppContext, fields: Map<string, string>, parsed: Parsed): void {
  const missing = missingLines(fields, REQUIRED_LINES.request);
  if (missing.length) fail('REQUEST_FIELDS_REQUIRED', { missing, required: REQUIRED_LINES.request.map((n) => `${n}:`) });
  if (!parsed.resource) fail('INVALID_RESOURCE', { resource: words(fields.get('resource')!)[0] ?? '', allowed: LAB_CONVENTIONS.resources });
  const same = mostSimilar(parsed.words, labStore(ctx.db).openRequests.all(parsed.resource));
  if (same)
    fail('REQUEST_DUPLICATE', {
      existing_id: same.id,
      resource: parsed.resource,
      overlap: same.overlap,
      threshold: LAB_CONVENTIONS.similarityThreshold,
      reply_with: '+1:',
    });
}

function checkProposal(fields: Map<string, string>, parsed: Parsed): void {
  if (!fields.has('payback')) fail('PAYBACK_REQUIRED', { missing: ['Payback:'], forms: PAYBACK_FORMS });
  if (parsed.payback === null) fail('PAYBACK_REQUIRED', { reason: 'no_ratio', forms: PAYBACK_FORMS });
  if (parsed.payback < LAB_CONVENTIONS.minPayback) fail('PAYBACK_BELOW_2', { r: parsed.payback, min: LAB_CONVENTIONS.minPayback });
}

/** Post check: refuses a lab root that breaks its convention (nothing is stored). */
export function checkLabRoot(ctx: AppContext, author: Account, post: NewPost): void {
  refuseReservedTitle(ctx, author, post);
  const kind = labKindOf(post);
  if (!kind) return;
  const fields = fieldLines(post.body);
  const parsed = parse(kind, fields);
  if (kind === 'experiment') checkExperiment(ctx, author, fields, parsed);
  else if (kind === 'request') checkRequest(ctx, fields, parsed);
  else checkProposal(fields, parsed);
}

/** Post check, once the root exists: records the lab item in the same transaction. */
export function recordLabRoot(ctx: AppContext, post: NewPost): void {
  const kind = labKindOf(post);
  if (!kind) return;
  const p = parse(kind, fieldLines(post.body));
  labStore(ctx.db).insertItem.run(post.id, kind, post.author_id, post.created_at, p.channel, p.resource, p.payback, p.words.join(' '));
}
