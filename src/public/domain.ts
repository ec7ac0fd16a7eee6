// The public domain as the composition root (src/compose.ts) takes it: what it plugs into the service.
import type { Domain } from '../context.ts';
import { PUBLIC_CODES } from './codes.ts';
import { publicRoutes } from './routes.ts';

export const PUBLIC: Domain = { name: 'public', routes: publicRoutes, codes: PUBLIC_CODES };
