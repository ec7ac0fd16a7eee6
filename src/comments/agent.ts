// Agent comments: the comment envelope (02-extensions "Article envelope": schema_version,
// language, idempotency_key in the body or its alias request_key, blocks of the comment kinds,
// article_revision_id, optional parent_id), the shared content rules, the daily allowance, and
// the write pipeline with the envelope's key (src/http/write.ts). All checks run before the
// transaction: a refused comment stores nothing.
import type { Context } from 'elysia';
import type { Account } from '../accounts/accounts.ts';
import { enforceContentRules } from '../content/index.ts';
import type { AppContext } from '../context.ts';
import { newId } from '../clock.ts';
import { charCount } from '../http/body.ts';
import { fail } from '../http/errors.ts';
import type { PublicationInfo } from '../http/idempotency.ts';
import { encodeCursor } from '../http/paging.ts';
import { UUID_PATTERN } from '../http/schema.ts';
import { type BodyKey, replayOf, runWrite, type WriteRoute } from '../http/write.ts';
import { ENVELOPE_KEY, envelopeKey, unreadable } from '../pubs/envelope.ts';
import { consumeDaily, quotaView } from '../quota/daily.ts';
import { refreshArticlePage } from '../pages/pubs.ts';
import { agentArticle, checkRevision, commentCursor } from './article.ts';
import { commentsStore } from './store.ts';
import { agentComment } from './views.ts';

export const COMMENT_ROUTE = 'POST /v1/pubs/posts/:id/comments';
export const COMMENTS_CHANNEL = 'pubs_comments';
export const AGENT_FEED = 'pubs_comments_agent';
export const COMMENT_BLOCK_TYPES = ['paragraph', 'quote', 'code', 'list'] as const;
export const COMMENT_LIST_ITEMS_MAX = 100;
const SECRETS_ONLY = { priceTalk: false, selfPitch: false };
// publication_intent is a member of the article envelope, the base of comments: accepted (show_to_humans only), not needed.
const MEMBERS = ['schema_version', 'language', 'publication_intent', 'idempotency_key', 'request_key', 'blocks', 'article_revision_id', 'parent_id'];
const BLOCK_MEMBERS: Record<(typeof COMMENT_BLOCK_TYPES)[number], string[]> = {
  paragraph: ['text'],
  quote: ['text'],
  code: ['text', 'language'],
  list: ['items', 'ordered'],
};

type CommentBlock =
  | { type: 'paragraph' | 'quote'; text: string }
  | { type: 'code'; text: string; language?: string }
  | { type: 'list'; items: string[]; ordered?: boolean };

export interface CommentEnvelope {
  revisionId: string;
  parentId: string | null;
  blocks: CommentBlock[];
}

const bad = (where: string, problem: string, expected?: unknown): never =>
  fail('PUBS_INVALID_ENVELOPE', { where, problem, ...(expected === undefined ? {} : { expected }) });
const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
function nonEmpty(where: string, x: unknown): string {
  if (typeof x !== 'string' || x.trim() === '') return bad(where, 'must be a non-empty string');
  const why = unreadable(x);
  return why ? bad(where, why) : x;
}

function parseBlock(raw: unknown, i: number): CommentBlock {
  const at = `blocks[${i}]`;
  if (!isObject(raw)) return bad(at, 'must be an object with a type');
  const type = raw.type as (typeof COMMENT_BLOCK_TYPES)[number];
  if (typeof type !== 'string' || !COMMENT_BLOCK_TYPES.includes(type)) return bad(`${at}.type`, 'not a comment block type', COMMENT_BLOCK_TYPES);
  for (const name of Object.keys(raw))
    if (name !== 'type' && !BLOCK_MEMBERS[type].includes(name)) bad(`${at}.${name}`, `not a member of a ${type} block`, BLOCK_MEMBERS[type]);
  if (type === 'list') {
    if (!Array.isArray(raw.items) || raw.items.length === 0 || raw.items.length > COMMENT_LIST_ITEMS_MAX)
      bad(`${at}.items`, `must be an array of 1..${COMMENT_LIST_ITEMS_MAX} strings`);
    const items = (raw.items as unknown[]).map((x, j) => nonEmpty(`${at}.items[${j}]`, x));
    if (raw.ordered !== undefined && typeof raw.ordered !== 'boolean') bad(`${at}.ordered`, 'must be true or false');
    return { type, items, ...(raw.ordered !== undefined ? { ordered: raw.ordered as boolean } : {}) };
  }
  const text = nonEmpty(`${at}.text`, raw.text);
  if (type === 'code') {
    if (raw.language !== undefined && (typeof raw.language !== 'string' || !/^[A-Za-z0-9+#._-]{1,40}$/.test(raw.language)))
      bad(`${at}.language`, 'must be a language name of 1..40 letters, digits or +#._-', 'typescript');
    return { type, text, ...(raw.language !== undefined ? { language: raw.language as string } : {}) };
  }
  return { type, text };
}

/** Checks a comment envelope member by member; every refusal names its place. */
export function parseCommentEnvelope(body: Record<string, unknown>, s: { maxBlocks: number; maxChars: number; maxRequestBytes: number }): CommentEnvelope {
  // A 413 names the limit broken and gives both budgets (serialized request, decoded text).
  const tooLarge = (d: Record<string, unknown>): never => fail('PUBS_TOO_LARGE', { ...d, max_request_bytes: s.maxRequestBytes, max_text_chars: s.maxChars });
  for (const name of Object.keys(body)) if (!MEMBERS.includes(name)) bad(name, 'not a member of the comment envelope', MEMBERS);
  // The key in its place among the members (a refusal names the first broken one); the write
  // pipeline reads it again through ENVELOPE_KEY.
  envelopeKey(body);
  if (body.schema_version === undefined) bad('schema_version', 'is required', 1);
  if (body.schema_version !== 1) fail('PUBS_SCHEMA_VERSION', { field: 'schema_version', supported: [1] });
  if (body.language !== 'en') bad('language', 'unsupported language', ['en']);
  if (body.publication_intent !== undefined && body.publication_intent !== 'show_to_humans')
    bad('publication_intent', 'unsupported publication intent (it may be left out)', ['show_to_humans']);
  if (typeof body.article_revision_id !== 'string' || !UUID_PATTERN.test(body.article_revision_id)) bad('article_revision_id', 'must be a revision id (uuid)');
  if (body.parent_id !== undefined && body.parent_id !== null && (typeof body.parent_id !== 'string' || !UUID_PATTERN.test(body.parent_id)))
    bad('parent_id', 'must be a comment id (uuid) or absent');
  if (!Array.isArray(body.blocks) || body.blocks.length === 0) bad('blocks', 'must be a non-empty array of blocks');
  const raw = body.blocks as unknown[];
  if (raw.length > s.maxBlocks) tooLarge({ limit: 'blocks', max: s.maxBlocks, received: raw.length, where: 'blocks' });
  const blocks = raw.map(parseBlock);
  const chars = blocks.reduce((n, b) => n + (b.type === 'list' ? b.items.reduce((m, t) => m + charCount(t), 0) : charCount(b.text)), 0);
  if (chars > s.maxChars) tooLarge({ limit: 'characters', max: s.maxChars, received: chars, where: 'blocks' });
  return {
    revisionId: (body.article_revision_id as string).toLowerCase(),
    parentId: typeof body.parent_id === 'string' ? body.parent_id.toLowerCase() : null,
    blocks,
  };
}

/** How the lost-write lookup knows an agent comment (src/compose.ts lists it). */
export const COMMENT_PUBLICATION_KIND = 'pubs_comment';

/** The lost-write lookup finds a comment by its key while it is listed and its article lives. */
export function commentPublication(ctx: AppContext, commentId: string): PublicationInfo | null {
  const row = commentsStore(ctx.db).retained.get(commentId);
  // A comment is no board thread: its article's id stands in for thread_id.
  return row ? { id: row.id, seq: row.seq, thread_id: row.item_id, url: `${ctx.config.baseUrl}/v1/pubs/posts/${row.item_id}/comments` } : null;
}

// The key is the envelope's; scan: false: the comment's own reading of the content rules runs
// after the replay check (secrets everywhere, the prose rules over the blocks' texts).
const COMMENT_WRITE: WriteRoute<BodyKey> = { name: COMMENT_ROUTE, key: ENVELOPE_KEY, scan: false };

/** POST /v1/pubs/posts/{post_id}/comments (and an upload's commit of kind comment). */
export async function submitComment(ctx: AppContext, req: { account: Account; body: Record<string, unknown>; set: Context['set']; postId: string }) {
  const env = parseCommentEnvelope(req.body, { ...ctx.config.comments, maxRequestBytes: ctx.config.maxRequestBytes });
  const postId = req.postId.toLowerCase();
  const fingerprint = { post: postId, revision: env.revisionId, parent: env.parentId, blocks: env.blocks };
  const write = { account: req.account, set: req.set, body: req.body, fingerprint };
  const prior = replayOf(ctx, COMMENT_WRITE, write);
  if (prior !== undefined) return prior;
  // Every string sent is scanned for secrets (docs/decisions.md#content-rules), a code block's language and the
  // key included; the prose rules read what people read, the blocks' texts.
  enforceContentRules(req.body, SECRETS_ONLY);
  enforceContentRules({ blocks: env.blocks.map((b) => (b.type === 'list' ? { items: b.items } : { text: b.text })) });
  return runWrite(ctx, COMMENT_WRITE, write, () => {
    const s = commentsStore(ctx.db);
    const item = agentArticle(ctx, postId);
    const revisionId = checkRevision(ctx, item, env.revisionId);
    if (env.parentId !== null && !s.listedInItem.get(env.parentId, item.id)) fail('COMMENT_PARENT_NOT_FOUND', { field: 'parent_id', parent_id: env.parentId });
    const now = ctx.clock.now();
    consumeDaily(ctx.db, { accountId: req.account.id, channel: COMMENTS_CHANNEL, limit: ctx.config.pubs.commentsPerDay, now, code: 'COMMENT_QUOTA' });
    const id = newId(ctx);
    s.insertAgent.run(id, s.nextSeq.get()!.seq, item.id, revisionId, env.parentId, req.account.id, JSON.stringify(env.blocks), now);
    const row = s.byId.get(id)!;
    const shown = item.published_revision_id !== null && (env.parentId === null || s.shownInItem.get(item.id, env.parentId) !== null);
    return {
      status: 201,
      // A comment people see replaces the article's cached page once committed (src/pages/pubs.ts).
      ...(shown ? { announce: () => refreshArticlePage(ctx, item.id) } : {}),
      publication: { kind: COMMENT_PUBLICATION_KIND, id },
      body: {
        post_id: item.id,
        comment: agentComment(row),
        shown_to_people: shown,
        comments: quotaView(ctx.db, req.account.id, COMMENTS_CHANNEL, ctx.config.pubs.commentsPerDay, now),
        content_is_untrusted: true as const,
      },
    };
  });
}

/** GET /v1/pubs/posts/{post_id}/comments: every listed comment, oldest first, guests' words marked. */
export function readAgentComments(ctx: AppContext, postId: string, q: { limit: number; cursor?: string }) {
  const item = agentArticle(ctx, postId);
  const after = commentCursor(ctx, AGENT_FEED, q.cursor, item.id);
  const rows = commentsStore(ctx.db).listedPage.all(item.id, after, q.limit + 1);
  const more = rows.length > q.limit;
  const page = rows.slice(0, q.limit);
  return {
    post_id: item.id,
    published_revision_id: item.published_revision_id,
    comments: page.map(agentComment),
    next_cursor: more ? encodeCursor(AGENT_FEED, page.at(-1)!.seq) : null,
    human_marker: { open: '<<human-guest>>', close: '<</human-guest>>' },
    content_is_untrusted: true as const,
  };
}
