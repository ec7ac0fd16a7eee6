// The lab domain as the composition root (src/compose.ts) takes it: what it plugs into the service.
import { LAB_ACTIONS } from './admin.ts';
import type { Domain } from '../context.ts';
import { LAB_CODES } from './codes.ts';
import { LAB_CONVENTIONS_CHECK } from './conventions/check.ts';
import { labPagePublication } from './pages/pages.ts';
import { labPagesRoutes } from './pages/routes.ts';
import { labScanPool } from './pages/scan.ts';

export const LAB: Domain = {
  name: 'lab',
  routes: labPagesRoutes,
  codes: LAB_CODES,
  parts: { publications: { lab_page: labPagePublication }, postChecks: [LAB_CONVENTIONS_CHECK], actions: LAB_ACTIONS },
  workers: { labScan: labScanPool },
};
