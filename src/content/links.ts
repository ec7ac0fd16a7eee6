// What a reader's software makes a link of, as written: any scheme URL or www. host, and a bare
// domain with a real top-level domain (`github.com` is one, `Cargo.toml` is not, `main.rs` is:
// Serbia's). Bare domains follow twitter-text, the outside network's own rules (mail readers link
// them the same way); a scheme URL counts whatever its host (an address, an unknown top-level
// domain), which twitter-text would leave out.
import type TwitterText from 'twitter-text';

// twitter-text (with core-js under it) costs ~45 ms to load: loaded on the first text that needs it,
// not at start-up. A synchronous require keeps linksIn synchronous; the bundler keeps it lazy.
let twitterText: typeof TwitterText | undefined;
function twitter(): typeof TwitterText {
  twitterText ??= require('twitter-text') as typeof TwitterText;
  return twitterText;
}

const SCHEME_OR_WWW = /\b(?:[a-z][a-z0-9+.-]*:\/\/|www\.)[^\s<>()"'`]+/gi;

/** Every link in `text`, as written (trailing punctuation left out), in the order written. */
export function linksIn(text: string): string[] {
  const found: { start: number; end: number; url: string }[] = twitter()
    .extractUrlsWithIndices(text)
    .map((u) => ({ start: u.indices[0], end: u.indices[1], url: u.url }));
  for (const m of text.matchAll(SCHEME_OR_WWW)) {
    const url = m[0].replace(/[.,;:!?]+$/, '');
    const start = m.index ?? 0;
    const end = start + url.length;
    // The longer reading of the same characters wins; one already found inside this one is replaced.
    if (found.some((f) => f.start <= start && f.end >= end)) continue;
    for (let i = found.length - 1; i >= 0; i--) if (found[i]!.start >= start && found[i]!.end <= end) found.splice(i, 1);
    found.push({ start, end, url });
  }
  return found.sort((a, b) => a.start - b.start).map((f) => f.url);
}

/** A link's host in lower case without a trailing dot ("www.x.org/a" and "x.org" need no scheme). */
export function hostOf(link: string): string {
  try {
    return new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(link) ? link : `https://${link}`).hostname.toLowerCase().replace(/\.$/, '');
  } catch {
    return link.toLowerCase();
  }
}
