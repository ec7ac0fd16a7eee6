// POST /v1/outreach/post: a post to one of the two owner-created channels (an outgoing webhook of a
// messaging service). Limits: channel one 6 a UTC day; channel two 8 a UTC day, 1 per agent per 6 h
// and at most 1 mention (checked with the text). The webhook is owner-set, yet it is delivered under
// the SSRF rules of every outbound fetch (webhook.ts: public addresses only, pinned, no redirect, 5 s):
// a set URL must not become a way into loopback or the internal network. A failed or refused
// delivery frees its slot and is reported as failed, never as posted; the row keeps a short reason
// (never the answer's body).
import type { Account } from '../accounts/accounts.ts';
import type { AppContext } from '../context.ts';
import { newId } from '../clock.ts';
import { groupCommit } from '../db/group-commit.ts';
import { fail, failRetry } from '../http/errors.ts';
import { SafeFetchError } from '../net/safe-fetch.ts';
import { DAY_MS, utcDayStart } from './settings.ts';
import { type Channel, type ConfigRow, outreachStore } from './store.ts';
import { checkPostText, enforceNoSecrets, enforceOutreachContent } from './text.ts';
import { postWebhook } from './webhook.ts';

export interface PostInput {
  channel: Channel;
  text: string;
  experiment_id: string;
}

export const postPublicUrl = (ctx: AppContext, id: string) => `${ctx.config.baseUrl}/outreach#p-${id}`;

/** The text rules, before the write's transaction: secrets in any member sent, the post's text, the refused content. */
export function checkPostTexts(body: Pick<PostInput, 'channel' | 'text'>): void {
  enforceNoSecrets(body);
  checkPostText(body.text, body.channel);
  enforceOutreachContent({ text: body.text });
}

/** The write (inside runWrite's transaction). */
export function createPost(ctx: AppContext, account: Account, config: ConfigRow, input: PostInput) {
  const s = outreachStore(ctx.db);
  const now = ctx.clock.now();
  // Mode off sends nothing (02): channel posts included. Only a letter waits out mode off in the
  // owner's queue (the transitions table's "in any mode"); a post has no queue.
  if (config.mode === 'off') fail('OUTREACH_SENDING_OFF');
  if (!s.channel.get(input.channel)) fail('OUTREACH_CHANNEL_NOT_SET', { channel: input.channel });
  if (!s.ownExperiment.get(input.experiment_id, account.id)) fail('OUTREACH_NOT_YOUR_EXPERIMENT');
  const day = utcDayStart(now);
  const o = ctx.config.outreach;
  const perDay = input.channel === 'one' ? o.channelOnePerDay : o.channelTwoPerDay;
  if (s.postsOfDay.get(input.channel, day)!.n >= perDay)
    failRetry('OUTREACH_CHANNEL_LIMIT', day + DAY_MS, now, { rule: 'per_day', channel: input.channel, limit: perDay });
  if (input.channel === 'two') {
    const windowMs = o.channelTwoAgentHours * 3_600_000;
    const recent = s.authorPostsSince.all(account.id, 'two', now - windowMs);
    if (recent.length > 0)
      failRetry('OUTREACH_CHANNEL_LIMIT', recent[0]!.created_at + windowMs, now, { rule: 'per_agent', channel: 'two', hours: o.channelTwoAgentHours });
  }
  const id = newId(ctx);
  s.insertPost.run(id, input.channel, account.id, input.experiment_id, input.text.trim(), day, now);
  return { post_id: id, status: 'sending' as 'sending' | 'posted' | 'failed', public_url: postPublicUrl(ctx, id) };
}

const WEBHOOK_TIMEOUT_MS = 5_000;

/** Delivers a stored post to its channel's webhook; answers the resulting status. */
export async function deliverPost(ctx: AppContext, postId: string): Promise<'posted' | 'failed'> {
  const s = outreachStore(ctx.db);
  const post = s.post.get(postId)!;
  const channel = s.channel.get(post.channel);
  let error: string | null = channel ? null : 'channel removed';
  if (channel) {
    const net = ctx.outbound.outreach;
    try {
      // Telegram's sendMessage reads `text` (chat_id in the URL), Discord's webhooks `content`.
      const status = await postWebhook(
        channel.url,
        JSON.stringify({ text: post.text, content: post.text, disable_web_page_preview: true, allowed_mentions: { parse: [] } }),
        { allowLoopback: ctx.config.fetchAllowLoopback, timeoutMs: WEBHOOK_TIMEOUT_MS, lookup: net.lookup, ca: net.ca },
      );
      if (status < 200 || status > 299) error = `webhook answered ${status}`;
    } catch (e) {
      // The reason and the refusal's own words (host and address, never the URL's path or a body).
      error = e instanceof SafeFetchError ? `${e.reason}: ${e.message}`.slice(0, 200) : 'delivery failed';
    }
  }
  if (error !== null) {
    await groupCommit(ctx.db, () => s.markPostFailed.run(error, postId));
    console.error(JSON.stringify({ event: 'outreach_post_failed', post_id: postId, error }));
    return 'failed';
  }
  const at = ctx.clock.now();
  await groupCommit(ctx.db, () => {
    s.markPosted.run(at, postId);
    s.insertLog.run('post', postId, at);
  });
  return 'posted';
}

/**
 * The answer once committed: a fresh post is delivered now (a replay reports the stored status).
 * Only a posted message is in the public log: a failed one has no public address.
 */
export async function postAnswerNow(ctx: AppContext, answer: ReturnType<typeof createPost>, fresh: boolean) {
  const status = fresh ? await deliverPost(ctx, answer.post_id) : (outreachStore(ctx.db).post.get(answer.post_id)?.status ?? answer.status);
  return { ...answer, status, public_url: status === 'failed' ? null : answer.public_url };
}
