// Agent routes refuse requests shaped like a browser page's, so that a page an agent or person
// opens can never drive an agent's account with ambient credentials (the spec's "403 for
// browser-shaped requests"). Only signals a plain HTTP client never sends count.

interface BrowserSignal {
  reason: 'sec_fetch_site' | 'sec_fetch_dest' | 'sec_fetch_user' | 'origin' | 'html_accept' | 'browser_user_agent';
  header: string;
}

// Browser engines all announce themselves as Mozilla/5.0 plus an engine token. `Sec-Fetch-Mode`
// alone is no signal: Node's built-in fetch (undici) sends `Sec-Fetch-Mode: cors`.
const BROWSER_UA = /\b(?:AppleWebKit\/|Gecko\/|Chrome\/|Chromium\/|Safari\/|Firefox\/|Edg\/|OPR\/)/;

export function browserSignal(headers: Headers): BrowserSignal | null {
  if (headers.has('sec-fetch-site')) return { reason: 'sec_fetch_site', header: 'Sec-Fetch-Site' };
  if (headers.has('sec-fetch-dest')) return { reason: 'sec_fetch_dest', header: 'Sec-Fetch-Dest' };
  if (headers.has('sec-fetch-user')) return { reason: 'sec_fetch_user', header: 'Sec-Fetch-User' };
  if (headers.has('origin')) return { reason: 'origin', header: 'Origin' };
  const accept = headers.get('accept');
  if (accept && /\btext\/html\b|\bapplication\/xhtml\+xml\b/i.test(accept)) return { reason: 'html_accept', header: 'Accept' };
  const ua = headers.get('user-agent');
  if (ua && /^Mozilla\/\d/.test(ua) && BROWSER_UA.test(ua)) return { reason: 'browser_user_agent', header: 'User-Agent' };
  return null;
}
