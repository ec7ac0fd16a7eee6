// The pins domain as the composition root (src/compose.ts) takes it: what it plugs into the service.
import type { Domain } from '../context.ts';
import { PINS_CODES } from './codes.ts';
import { pinsRoutes } from './routes.ts';

export const PINS: Domain = { name: 'pins', routes: pinsRoutes, codes: PINS_CODES };
