// Submitting articles and revisions, withdrawing and appealing. The admission checks (envelope,
// size limits, content rules, the SVG check in a worker) all run before the transaction: a refused
// submission stores nothing. A submission takes the write pipeline (src/http/write.ts) once, with
// its key in the body: the replay check, the content rules over the article's texts, the svg check
// as the pipeline's admission stage, then the key's row, the article and its stored 202 in one
// transaction, so 20 submissions racing with one key leave one article.
import type { Context } from 'elysia';
import type { Account } from '../accounts/accounts.ts';
import type { AppContext } from '../context.ts';
import { newId } from '../clock.ts';
import { inTx } from '../db/open.ts';
import { enforceContentRules } from '../content/index.ts';
import { fail } from '../http/errors.ts';
import { CanonicalText, canonicalJson, type PublicationInfo } from '../http/idempotency.ts';
import { type BodyKey, runWrite, type WriteRoute } from '../http/write.ts';
import { consumeDaily, quotaView } from '../quota/daily.ts';
import { type Content, ENVELOPE_KEY, type Envelope, envelopeTexts, parseEnvelope } from './envelope.ts';
import { approveDueCandidates, approveIfDue, quorumNow, websiteStatus } from './review.ts';
import { pubsStore } from './store.ts';
import { type CheckedSvg, checkArticle } from './svg.ts';

export const SUBMISSIONS_CHANNEL = 'pubs_submissions';
export const PUBLICATION_KIND = 'pubs_item';
export const SUBMIT_ROUTE = 'POST /v1/pubs/posts';
export const REVISE_ROUTE = 'POST /v1/pubs/posts/:id/revisions';

export const publicUrl = (ctx: AppContext, itemId: string): string => `${ctx.config.baseUrl}/pubs/${itemId}`;

interface Submission {
  account: Account;
  body: Record<string, unknown>;
  set: Context['set'];
  itemId?: string; // a revision of this article
}

// The key is the envelope's (idempotency_key or its alias request_key). The pipeline's content
// rules read the key members and the texts (envelopeTexts): an svg source is markup, read as the
// text it draws by the svg check (svg.ts).
const WRITES = {
  submit: { name: SUBMIT_ROUTE, key: ENVELOPE_KEY, scan: envelopeTexts },
  revise: { name: REVISE_ROUTE, key: ENVELOPE_KEY, scan: envelopeTexts },
} satisfies Record<string, WriteRoute<BodyKey>>;

/** POST /v1/pubs/posts and …/revisions: checks, then one transaction for the key, the rows and the 202. */
export async function submit(ctx: AppContext, req: Submission): Promise<unknown> {
  const env = parseEnvelope(req.body, ctx.config.pubs, req.itemId !== undefined);
  const route = req.itemId === undefined ? WRITES.submit : WRITES.revise;
  // The content in canonical JSON, once: its content_hash, and its part of the key's fingerprint.
  const canonical = new CanonicalText(canonicalJson(env.content));
  const fingerprint = { target: req.itemId?.toLowerCase() ?? null, resume: env.resume_publication, content: canonical };
  let prepared: Prepared | undefined;
  // Run by the pipeline for a new key only (a retry after a lost answer is replayed without it).
  // What the rows hold is computed here, before the write transaction (hashing and serializing a
  // 150 KB article takes milliseconds that every other writer would wait out).
  const admit = async () => {
    prepared = prepare(env, canonical, await checkArticle(ctx, env.content));
  };
  return runWrite(ctx, route, { account: req.account, set: req.set, body: req.body, key: env.key, fingerprint, admit }, () => {
    const body = store(ctx, req.account, env, prepared!, req.itemId);
    return { status: 202, body, publication: { kind: PUBLICATION_KIND, id: body.revision_id } };
  });
}

interface Prepared {
  hash: string;
  assets: (CheckedSvg & { assetId: string })[];
  blocksJson: string;
}

// content_hash: SHA-256 of the content in canonical JSON (sorted members, no key fields).
function prepare(env: Envelope, canonical: CanonicalText, svgs: CheckedSvg[]): Prepared {
  const assets = svgs.map((svg, n) => ({ ...svg, assetId: `a${n + 1}` }));
  const hash = new Bun.CryptoHasher('sha256').update(canonical.text).digest('hex');
  return { hash, assets, blocksJson: JSON.stringify(storedBlocks(env.content, assets)) };
}

function store(ctx: AppContext, account: Account, env: Envelope, prepared: Prepared, itemId: string | undefined) {
  const s = pubsStore(ctx.db);
  const now = ctx.clock.now();
  let id = itemId?.toLowerCase();
  if (id !== undefined) {
    const item = s.item.get(id);
    if (!item || item.hidden_at !== null) fail('NOT_FOUND', { item_id: id }, 'No article has this id.');
    if (item.author_id !== account.id) fail('NOT_OWNER', { item_id: id }, 'Only the author revises an article.');
    if (item.withdrawn_at !== null) {
      if (!env.resume_publication) fail('PUBS_RESUME_REQUIRED', { item_id: id, withdrawn_at: new Date(item.withdrawn_at).toISOString() });
      s.resume.run(id);
    }
  }
  consumeDaily(ctx.db, { accountId: account.id, channel: SUBMISSIONS_CHANNEL, limit: ctx.config.pubs.submissionsPerDay, now, code: 'PUBS_SUBMISSION_QUOTA' });
  if (id === undefined) {
    id = newId(ctx);
    s.insertItem.run(id, s.nextItemSeq.get()!.seq, account.id, now);
  }
  const revisionId = newId(ctx);
  const { hash, assets, blocksJson } = prepared;
  const number = s.lastNumber.get(id)!.n + 1;
  s.insertRevision.run(revisionId, s.nextRevisionSeq.get()!.seq, id, account.id, number, env.content.title, blocksJson, hash, 'awaiting_votes', now);
  s.supersedeCandidates.run(id, revisionId);
  for (const a of assets) {
    const block = env.content.blocks[a.blockIndex] as { description: string };
    s.insertAsset.run(revisionId, a.assetId, a.blockIndex, 'image/svg+xml', block.description, a.sanitized);
  }
  s.insertActivity.get('submitted', id, revisionId, account.id, now);
  const rev = approveIfDue(ctx, s.revision.get(revisionId)!, account.id);
  const rule = quorumNow(ctx);
  const website = websiteStatus(ctx, id);
  const published = s.item.get(id)!.published_revision_id === revisionId;
  return {
    item_id: id,
    revision_id: revisionId,
    revision_number: number,
    revision_status: rev.status === 'approved' ? ('approved' as const) : ('awaiting_votes' as const),
    website_status: website,
    checks: {
      content: 'not_checked' as const,
      format: 'passed' as const,
      language: 'passed' as const,
      runtime_safety: 'passed' as const,
      performance: 'passed' as const,
    },
    content_hash: hash,
    public_url: website === 'published' ? publicUrl(ctx, id) : null,
    visible_on_website: website === 'published',
    this_revision_published: published,
    review: {
      qualifying_votes: rev.qualifying,
      score: rev.score,
      quorum: rule.quorum,
      rule: rule.rule,
      review_url: `${ctx.config.baseUrl}/v1/pubs/revisions/${revisionId}`,
    },
    submissions: quotaView(ctx.db, account.id, SUBMISSIONS_CHANNEL, ctx.config.pubs.submissionsPerDay, now),
  };
}

/** The blocks as stored and read: an svg carries its asset_id instead of its source. */
function storedBlocks(content: Content, assets: { blockIndex: number; assetId: string }[]) {
  return content.blocks.map((b, i) => {
    if (b.type !== 'svg') return b;
    const { source: _, ...rest } = b;
    return { ...rest, asset_id: assets.find((a) => a.blockIndex === i)!.assetId };
  });
}

/** POST /v1/pubs/posts/{id}/withdraw: the author takes the article out of every public read. Its body is not read, only scanned. */
export function withdraw(ctx: AppContext, account: Account, itemId: string, body: unknown) {
  scanPrivate(body);
  const s = pubsStore(ctx.db);
  const id = itemId.toLowerCase();
  return inTx(ctx.db, () => {
    const item = s.item.get(id);
    if (!item || item.hidden_at !== null) fail('NOT_FOUND', { item_id: id }, 'No article has this id.');
    if (item.author_id !== account.id) fail('NOT_OWNER', { item_id: id }, 'Only the author withdraws an article.');
    const now = ctx.clock.now();
    const already = item.withdrawn_at !== null;
    if (!already) {
      s.withdraw.run(now, id);
      s.insertActivity.get('withdrawn', id, null, account.id, now);
      approveDueCandidates(ctx);
    }
    return {
      item_id: id,
      withdrawn: true as const,
      withdrawn_at: new Date(item.withdrawn_at ?? now).toISOString(),
      already_withdrawn: already,
      website_status: 'not_listed' as const,
    };
  });
}

/**
 * The content rules over a body whose text is never published (an appeal, the members of a vote or
 * a withdrawal): every string, nested and unknown members included, for secrets (422 SECRET_LIKE).
 * Price talk and self pitch guard what people read; an appeal may quote what it contests.
 */
export const scanPrivate = (body: unknown): void => enforceContentRules(body, { priceTalk: false, selfPitch: false });

/**
 * POST /v1/pubs/revisions/{id}/appeals: one per revision, by its author, for the operator to read.
 * The body (the reason, and any member sent with it) is scanned for secrets first: a refused appeal
 * stores nothing. An article an operator hid can be appealed: that is how its author contests it.
 */
export function appeal(ctx: AppContext, account: Account, revisionId: string, body: { reason: string }) {
  scanPrivate(body);
  const { reason } = body;
  const s = pubsStore(ctx.db);
  const id = revisionId.toLowerCase();
  return inTx(ctx.db, () => {
    const rev = s.revision.get(id);
    if (!rev) fail('NOT_FOUND', { revision_id: id }, 'No revision has this id.');
    if (rev.author_id !== account.id) fail('NOT_OWNER', { revision_id: id }, 'Only the author appeals a revision.');
    const prior = s.appealOf.get(id);
    if (prior) fail('PUBS_APPEAL_EXISTS', { appeal: { revision_id: id, created_at: new Date(prior.created_at).toISOString() } });
    const now = ctx.clock.now();
    s.insertAppeal.run(id, account.id, reason, now);
    return { revision_id: id, appeal: { status: 'open' as const, created_at: new Date(now).toISOString() } };
  });
}

/** The lost-write lookup finds an article or revision submission by its key while the article lives. */
export function pubsPublication(ctx: AppContext, revisionId: string): PublicationInfo | null {
  const s = pubsStore(ctx.db);
  const rev = s.revision.get(revisionId);
  const item = rev ? s.item.get(rev.item_id) : null;
  if (!rev || !item || item.hidden_at !== null) return null;
  // An article is no board thread: its id stands in for thread_id, the revision number for seq.
  return { id: rev.id, seq: rev.number, thread_id: item.id, url: `${ctx.config.baseUrl}/v1/pubs/revisions/${rev.id}` };
}
