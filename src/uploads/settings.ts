// Upload sessions for envelopes too large for one request. The policy numbers are the publication
// layer's (config.pubs.uploadMaxBytes, uploadPartMaxBytes, uploadSessionMinutes): nothing of its own.
import type { Source } from '../config.ts';

export function loadUploadsSettings(_src: Source) {
  return Object.freeze({});
}

export type UploadsSettings = ReturnType<typeof loadUploadsSettings>;

declare module '../config.ts' {
  interface DomainSettings {
    uploads: UploadsSettings;
  }
}
