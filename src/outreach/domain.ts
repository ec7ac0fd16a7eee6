// The outreach domain as the composition root (src/compose.ts) takes it: what it plugs into the service.
import { OUTREACH_ACTIONS } from './admin.ts';
import type { Domain } from '../context.ts';
import { OUTREACH_CODES } from './codes.ts';
import { nodemailerRelay, OUTREACH_RETRY_JOB } from './mailer.ts';
import { systemOutreachNet } from './net.ts';
import { outreachRoutes } from './routes.ts';
import { loadOutreachSettings } from './settings.ts';

export const OUTREACH: Domain = {
  name: 'outreach',
  routes: outreachRoutes,
  codes: OUTREACH_CODES,
  settings: { key: 'outreach', load: loadOutreachSettings },
  parts: { jobs: [OUTREACH_RETRY_JOB], actions: OUTREACH_ACTIONS },
  outbound: { outreach: systemOutreachNet, mail: nodemailerRelay },
};
