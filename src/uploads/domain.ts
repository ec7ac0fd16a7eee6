// The uploads domain as the composition root (src/compose.ts) takes it: what it plugs into the service.
import type { Domain } from '../context.ts';
import { UPLOADS_CODES } from './codes.ts';
import { uploadsRoutes } from './routes.ts';
import { loadUploadsSettings } from './settings.ts';

export const UPLOADS: Domain = { name: 'uploads', routes: uploadsRoutes, codes: UPLOADS_CODES, settings: { key: 'uploads', load: loadUploadsSettings } };
