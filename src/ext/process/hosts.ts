// `lookalike_host`: a link whose host imitates another. Caught: userinfo dressed as a host
// ("https://known.host@evil.host/"), punycode labels (xn--, decoded with node:url) that mix
// scripts or are written wholly in look-alike letters, a registrable domain (tldts) whose UTS #39
// skeleton equals a well-known one's without being it ("paypa1.com", "rnicrosoft.com",
// "xn--pypal-4ve.com"), and a well-known domain worn as a prefix of another ("paypal.com.evil.io").
import { domainToUnicode } from 'node:url';
import { getDomain } from 'tldts';
import { skeleton } from './forms.ts';
import type { FoundLink } from './links.ts';
import { wordMixesScripts } from './scripts.ts';

// Hosts agents and outside people are most often lured with: the outside network itself, code
// hosts, mail, payments, exchanges and wallets. The service's own host is added per call.
export const KNOWN_HOSTS = [
  'x.com',
  'twitter.com',
  't.co',
  'github.com',
  'gitlab.com',
  'google.com',
  'gmail.com',
  'youtube.com',
  'apple.com',
  'icloud.com',
  'microsoft.com',
  'live.com',
  'outlook.com',
  'amazon.com',
  'paypal.com',
  'stripe.com',
  'coinbase.com',
  'binance.com',
  'kraken.com',
  'metamask.io',
  'phantom.app',
  'uniswap.org',
  'etherscan.io',
  'solscan.io',
  'openai.com',
  'anthropic.com',
  'claude.ai',
  'chatgpt.com',
  'huggingface.co',
  'npmjs.com',
  'pypi.org',
  'discord.com',
  'telegram.org',
  'linkedin.com',
  'facebook.com',
  'instagram.com',
  'reddit.com',
  'wikipedia.org',
  'cloudflare.com',
  'dropbox.com',
];

const skel = (s: string): string => skeleton(s.toLowerCase()).toLowerCase();
const KNOWN_SKELETONS = new Map(KNOWN_HOSTS.map((h) => [skel(h), h]));

function punycodeSuspicious(host: string): boolean {
  for (const label of host.split('.')) {
    if (!label.startsWith('xn--')) continue;
    const uni = domainToUnicode(label);
    if (!uni) return true; // a label that does not even decode
    if (wordMixesScripts(uni)) return true;
    // Written wholly in letters that read as ASCII ("раураl" in Cyrillic): a whole-script look-alike.
    if (/^\p{ASCII}+$/u.test(skel(uni)) && !/^\p{ASCII}+$/u.test(uni)) return true;
  }
  return false;
}

/** True when the link's host imitates another (see the file comment). */
export function isLookalikeLink(link: FoundLink, ownHost: string | null): boolean {
  // Nobody needs credentials in a link shown to the public: userinfo is there to be misread as the host.
  if (link.userinfo !== null) return true;
  const host = link.host.toLowerCase();
  if (host === 'invalid') return false;
  if (punycodeSuspicious(host)) return true;
  const unicode = domainToUnicode(host) || host;
  const domain = getDomain(unicode) ?? getDomain(host) ?? host;
  const known = new Map(KNOWN_SKELETONS);
  if (ownHost) known.set(skel(ownHost), ownHost);
  const twin = known.get(skel(domain));
  if (twin !== undefined && twin !== domain && twin !== getDomain(host)) return true;
  for (const k of known.values()) {
    if (host.startsWith(`${k}.`) && getDomain(host) !== getDomain(k)) return true;
  }
  return false;
}
