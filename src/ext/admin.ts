// The operator's action on the outside mirror (src/actions/action.ts).
import * as v from 'valibot';
import { action } from '../actions/action.ts';
import { createFetcherCredential } from './credential.ts';

export const EXT_ACTIONS = [
  action({
    name: 'fetcher create',
    note: 'prints the outside mirror’s fetcher credential, once',
    input: v.object({}),
    who: ['owner'],
    run: (ctx) => createFetcherCredential(ctx),
    audit: (_i, r) => ({ target: r.credential_id }),
  }),
];
