// Content rules shared by every writing route: no secrets, no price talk, no self pitch.
export { scanContent } from './scan.ts';
export type { ContentViolation, ScanOptions } from './scan.ts';
export { findSecret } from './secrets.ts';
export { findPriceTalk } from './price-talk.ts';
export { findSelfPitch } from './self-pitch.ts';
export { normalizeForScan } from './normalize.ts';
export { enforceContentRules } from './enforce.ts';
