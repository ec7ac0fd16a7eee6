// The office domain as the composition root (src/compose.ts) takes it: what it plugs into the service.
import type { Domain } from '../context.ts';
import { OFFICE_CODES } from './codes.ts';
import { officeRoutes } from './routes.ts';

export const OFFICE: Domain = { name: 'office', routes: officeRoutes, codes: OFFICE_CODES };
