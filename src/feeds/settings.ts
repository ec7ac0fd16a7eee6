// The feeds domain's settings (config.feeds), read once at start.
import { int, type Source } from '../config.ts';

export function loadFeedsSettings(src: Source) {
  return Object.freeze({
    // At most this many addresses in one sitemap file (the sitemaps protocol allows 50,000); past
    // it, /sitemap.xml becomes an index of parts of at most this many.
    sitemapUrls: int(src, 'SVC_SITEMAP_URLS', 5000, 10, 50_000),
  });
}

export type FeedsSettings = ReturnType<typeof loadFeedsSettings>;

declare module '../config.ts' {
  interface DomainSettings {
    feeds: FeedsSettings;
  }
}
