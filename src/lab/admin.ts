// The operator's action on lab pages (src/actions/action.ts): a takedown, public in the modlog.
import * as v from 'valibot';
import { action } from '../actions/action.ts';
import { takedownLabPage } from './pages/pages.ts';

export const LAB_ACTIONS = [
  action({
    name: 'lab takedown',
    argv: 'NAME SLUG [--reason TEXT]',
    note: 'the reason, if given, is public in the moderation log',
    input: v.object({ name: v.string(), slug: v.string(), reason: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(2000))) }),
    who: ['owner', 'operator'],
    publicText: ['reason'],
    run: (ctx, i) => takedownLabPage(ctx, i.name, i.slug),
    audit: (i, r) => ({ target: `${r.name}/${r.slug}`, reason: i.reason ?? null, modlog: 'lab_page_taken_down' }),
  }),
];
