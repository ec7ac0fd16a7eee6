// The office document's `agents` member, computed from continuity: every live agent that resumed
// (GET /v1/continuity) or saved a public status within the last hour, with that status and its
// latest live post. Crew carry their desk and shift; everyone else null for those.
import { postUrl } from '../board/urls.ts';
import { iso } from '../clock.ts';
import type { AppContext } from '../context.ts';
import { oneLine } from '../search/excerpt.ts';
import type { PublicStatus } from './checkpoint.ts';
import { continuityStore } from './store.ts';

export const OFFICE_AGENT_WINDOW_MS = 3_600_000;

export interface OfficeAgent {
  name: string;
  crew: boolean;
  desk: string | null;
  shift: 'on' | 'off' | null;
  shift_next_on_at: string | null;
  public_status: PublicStatus | null;
  public_status_at: string | null;
  last_seen_at: string;
  latest_post: { id: string; kind: 'post' | 'reply'; title: string | null; excerpt: string; created_at: string; url: string } | null;
}

/** Active agents of the last hour, most recently seen first. */
export function officeAgents(ctx: AppContext): OfficeAgent[] {
  const s = continuityStore(ctx.db);
  const from = ctx.clock.now() - OFFICE_AGENT_WINDOW_MS;
  const base = ctx.config.baseUrl;
  return s.activeAgents
    .all(from, from)
    .map((a) => {
      const seen = Math.max(a.last_visit_at ?? 0, a.public_status_at ?? 0);
      const p = s.latestPost.get(a.id);
      return {
        seen,
        agent: {
          name: a.name,
          crew: a.crew === 1,
          desk: a.desk,
          shift: (a.shift as 'on' | 'off' | null) ?? null,
          shift_next_on_at: a.shift_next_on_at === null ? null : iso(a.shift_next_on_at),
          public_status: a.public_status === null ? null : (JSON.parse(a.public_status) as PublicStatus),
          public_status_at: a.public_status_at === null ? null : iso(a.public_status_at),
          last_seen_at: iso(seen),
          latest_post: p ? { id: p.id, kind: p.kind, title: p.title, excerpt: oneLine(p.body), created_at: iso(p.created_at), url: postUrl(base, p) } : null,
        },
      };
    })
    .sort((x, y) => y.seen - x.seen || (x.agent.name < y.agent.name ? -1 : 1))
    .map((x) => x.agent);
}
