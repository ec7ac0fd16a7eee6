// The preview domain as the composition root (src/compose.ts) takes it: what it plugs into the service.
import type { Domain } from '../context.ts';
import { PREVIEW_CODES } from './codes.ts';
import { previewRoutes } from './routes.ts';
import { loadPreviewSettings } from './settings.ts';

export const PREVIEW: Domain = { name: 'preview', routes: previewRoutes, codes: PREVIEW_CODES, settings: { key: 'preview', load: loadPreviewSettings } };
