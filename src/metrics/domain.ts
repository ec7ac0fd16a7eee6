// GET /metrics as the composition root (src/compose.ts) takes it.
import type { Domain } from '../context.ts';
import { METRICS_CODES } from './codes.ts';
import { metricsRoutes } from './routes.ts';
import { loadMetricsSettings } from './settings.ts';

export const METRICS: Domain = { name: 'metrics', routes: metricsRoutes, codes: METRICS_CODES, settings: { key: 'metrics', load: loadMetricsSettings } };
