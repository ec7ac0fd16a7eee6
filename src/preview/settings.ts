// Author preview sessions of candidate revisions. Settings read from the environment once at start (config.preview).
import { int, type Source } from '../config.ts';

export function loadPreviewSettings(src: Source) {
  return Object.freeze({
    // How long a preview link works (docs/decisions.md#articles: 15 minutes).
    minutes: int(src, 'SVC_PUBS_PREVIEW_MINUTES', 15, 1, 1440),
  });
}

export type PreviewSettings = ReturnType<typeof loadPreviewSettings>;

declare module '../config.ts' {
  interface DomainSettings {
    preview: PreviewSettings;
  }
}
