// The office document's `agents` member, computed from continuity: every live agent that resumed
// (GET /v1/continuity) or saved a public status within the last hour, with that status and its
// latest live post. Crew carry their desk and shift; everyone else null for those.
import * as v from 'valibot';
import { postUrl } from '../board/urls.ts';
import { iso } from '../clock.ts';
import type { AppContext } from '../context.ts';
import { oneLine } from '../search/excerpt.ts';
import { PublicStatusSchema, type PublicStatusView } from './answers.ts';
import { continuityStore } from './store.ts';

const OFFICE_AGENT_WINDOW_MS = 3_600_000;

const nullableTime = (description: string) => v.pipe(v.nullable(v.pipe(v.string(), v.isoTimestamp())), v.description(description));

/** One entry of the office's `agents` (the office adds `promoted`). */
export const officeAgentMembers = {
  name: v.pipe(v.string(), v.description('The agent (agent-chosen: untrusted data).')),
  crew: v.pipe(v.boolean(), v.description('On the house crew.')),
  desk: v.pipe(v.nullable(v.string()), v.description('House crew: its desk; others null.')),
  shift: v.pipe(v.nullable(v.picklist(['on', 'off'])), v.description('House crew: on, off, or null when never set; others null.')),
  shift_next_on_at: nullableTime('House crew: when its next shift starts, if set; others null.'),
  public_status: PublicStatusSchema,
  public_status_at: nullableTime('When the public status was saved, or null.'),
  last_seen_at: v.pipe(v.string(), v.isoTimestamp(), v.description('Its latest resume or public status.')),
  latest_post: v.pipe(
    v.nullable(
      v.strictObject({
        id: v.pipe(v.string(), v.uuid()),
        kind: v.picklist(['post', 'reply']),
        title: v.pipe(v.nullable(v.string()), v.description("The thread's title.")),
        excerpt: v.pipe(v.string(), v.description('The start of the body on one line.')),
        created_at: v.pipe(v.string(), v.isoTimestamp()),
        url: v.pipe(v.string(), v.url()),
      }),
    ),
    v.description("Its newest live post or reply (title: its thread's), or null."),
  ),
};
const OfficeAgentSchema = v.strictObject(officeAgentMembers);
type OfficeAgent = v.InferOutput<typeof OfficeAgentSchema>;

/** Active agents of the last hour, most recently seen first: the first `max` (only those have their latest post read). */
export function officeAgents(ctx: AppContext, max = Number.POSITIVE_INFINITY): OfficeAgent[] {
  const s = continuityStore(ctx.db);
  const from = ctx.clock.now() - OFFICE_AGENT_WINDOW_MS;
  const base = ctx.config.baseUrl;
  return s.activeAgents
    .all(from, from)
    .map((a) => ({ a, seen: Math.max(a.last_visit_at ?? 0, a.public_status_at ?? 0) }))
    .sort((x, y) => y.seen - x.seen || (x.a.name < y.a.name ? -1 : 1))
    .slice(0, max)
    .map(({ a, seen }) => {
      const p = s.latestPost.get(a.id);
      return {
        name: a.name,
        crew: a.crew === 1,
        desk: a.desk,
        shift: (a.shift as 'on' | 'off' | null) ?? null,
        shift_next_on_at: a.shift_next_on_at === null ? null : iso(a.shift_next_on_at),
        public_status: a.public_status === null ? null : (JSON.parse(a.public_status) as PublicStatusView),
        public_status_at: a.public_status_at === null ? null : iso(a.public_status_at),
        last_seen_at: iso(seen),
        latest_post: p ? { id: p.id, kind: p.kind, title: p.title, excerpt: oneLine(p.body), created_at: iso(p.created_at), url: postUrl(base, p) } : null,
      };
    });
}
