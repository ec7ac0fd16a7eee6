// The SSRF-safe fetcher against a real https server on loopback (self-signed certificate made with
// openssl for the name page.test, which only the injected resolver knows: a success proves the
// connection was pinned to the checked address and TLS checked the name).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { isPublicAddress, type LookupAddress, SafeFetchError, type SafeFetchOptions, safeFetch } from '../../src/net/safe-fetch.ts';
import { selfSignedCert } from '../tls.ts';

let cert = '';
let key = '';
let server: ReturnType<typeof Bun.serve>;
let port = 0;
const seenHosts: string[] = [];

const names: Record<string, string[]> = {
  'page.test': ['127.0.0.1'],
  'other.test': ['127.0.0.1'],
  'private.test': ['10.0.0.5'],
  'mixed.test': ['93.184.216.34', '192.168.1.9'],
  'metadata.test': ['::ffff:169.254.169.254'],
  'public.test': ['93.184.216.34'],
  'v6public.test': ['2606:4700::1111'],
};
const lookup = async (host: string): Promise<LookupAddress[]> => {
  const found = names[host];
  if (!found) throw Object.assign(new Error(`ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};

beforeAll(() => {
  ({ cert, key } = selfSignedCert(['page.test']));
  server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    tls: { cert, key },
    async fetch(req) {
      const url = new URL(req.url);
      seenHosts.push(req.headers.get('host') ?? '');
      switch (url.pathname) {
        case '/page':
          return new Response('<p>press: editor@example.org</p>', { headers: { 'content-type': 'text/html' } });
        case '/to-page':
          return Response.redirect('/page', 302);
        case '/to-private':
          return new Response(null, { status: 302, headers: { location: 'https://169.254.169.254/latest/meta-data' } });
        case '/to-private-name':
          return new Response(null, { status: 301, headers: { location: 'https://private.test/x' } });
        case '/to-http':
          return new Response(null, { status: 307, headers: { location: `http://page.test:${port}/page` } });
        case '/loop':
          return new Response(null, { status: 302, headers: { location: '/loop' } });
        case '/big':
          return new Response('x'.repeat(2_000_001));
        case '/big-stream':
          return new Response(
            new ReadableStream({
              pull(c) {
                c.enqueue(new Uint8Array(64 * 1024));
              },
            }),
          );
        case '/slow':
          await Bun.sleep(3_000);
          return new Response('late');
        default:
          return new Response('nope', { status: 404 });
      }
    },
  });
  port = server.port as number;
});

afterAll(() => {
  server?.stop(true);
});

const loop = (): SafeFetchOptions => ({ allowLoopback: true, ca: cert, lookup });

async function reason(url: string, opts: SafeFetchOptions = { lookup }): Promise<string> {
  try {
    await safeFetch(url, opts);
  } catch (e) {
    if (e instanceof SafeFetchError) return e.reason;
    throw e;
  }
  return 'fetched';
}

describe('safeFetch: the normal path', () => {
  test('fetches a page by name, pinned to the checked address, with the name as Host and TLS name', async () => {
    const r = await safeFetch(`https://page.test:${port}/page`, loop());
    expect(r.status).toBe(200);
    expect(r.text()).toContain('editor@example.org');
    expect(r.url).toBe(`https://page.test:${port}/page`);
    expect(seenHosts.at(-1)).toBe(`page.test:${port}`);
  });

  test('follows a redirect on the same host, re-checked, and reports the final URL', async () => {
    const r = await safeFetch(`https://page.test:${port}/to-page`, loop());
    expect(r.status).toBe(200);
    expect(r.url).toBe(`https://page.test:${port}/page`);
  });

  test('a 404 is an answer, not an error', async () => {
    const r = await safeFetch(`https://page.test:${port}/missing`, loop());
    expect(r.status).toBe(404);
  });

  test('the certificate is checked against the name (a name it does not cover fails)', async () => {
    expect(await reason(`https://other.test:${port}/page`, loop())).toBe('network');
  });

  test('without the extra CA the self-signed certificate is refused', async () => {
    expect(await reason(`https://page.test:${port}/page`, { allowLoopback: true, lookup })).toBe('network');
  });
});

describe('safeFetch: refused before any connection', () => {
  test('scheme: http, ftp, file, garbage', async () => {
    expect(await reason('http://public.test/page')).toBe('scheme');
    expect(await reason('ftp://public.test/page')).toBe('scheme');
    expect(await reason('file:///etc/passwd')).toBe('scheme');
    expect(await reason('not a url')).toBe('scheme');
  });

  test('userinfo', async () => {
    expect(await reason('https://user:pw@public.test/')).toBe('userinfo');
    expect(await reason('https://user@public.test/')).toBe('userinfo');
  });

  test('a port other than 443 on a public host, even with allowLoopback', async () => {
    expect(await reason('https://public.test:8443/')).toBe('port');
    expect(await reason('https://public.test:8443/', { allowLoopback: true, lookup })).toBe('port');
  });

  test('loopback in every spelling', async () => {
    for (const u of [
      'https://127.0.0.1/',
      `https://127.0.0.1:${port}/page`,
      'https://[::1]/',
      'https://2130706433/',
      'https://0177.0.0.1/',
      'https://0x7f.1/',
      'https://127.1/',
      'https://[::ffff:127.0.0.1]/',
      'https://[::ffff:7f00:1]/',
    ]) {
      expect([u, await reason(u)]).toEqual([u, 'private_address']);
    }
  });

  test('link-local metadata, private, CGNAT, unspecified, multicast, v6 unique-local, 6to4 and NAT64 wrappers', async () => {
    for (const u of [
      'https://[::ffff:169.254.169.254]/',
      'https://169.254.169.254/',
      'https://10.1.2.3/',
      'https://172.16.0.1/',
      'https://192.168.0.1/',
      'https://100.64.0.1/',
      'https://0.0.0.0/',
      'https://224.0.0.1/',
      'https://255.255.255.255/',
      'https://[fd00::1]/',
      'https://[fe80::1]/',
      'https://[::]/',
      'https://[2002:7f00:1::]/',
      'https://[64:ff9b::a9fe:a9fe]/',
    ]) {
      expect([u, await reason(u)]).toEqual([u, 'private_address']);
    }
  });

  test('a host resolving to a private address, or to a public and a private one', async () => {
    expect(await reason('https://private.test/')).toBe('private_address');
    expect(await reason('https://mixed.test/')).toBe('private_address');
    expect(await reason('https://metadata.test/')).toBe('private_address');
  });

  test('loopback by name is refused unless allowLoopback', async () => {
    expect(await reason(`https://page.test:${port}/page`, { ca: cert, lookup })).toBe('private_address');
  });

  test('a name that does not resolve', async () => {
    expect(await reason('https://nowhere.test/')).toBe('dns');
  });
});

describe('IPv6 forms that embed an IPv4 address are judged by the IPv4 address they reach', () => {
  // [address, what it reaches, allowed]: refused because of the embedded address, not the spelling.
  const TABLE: [string, string, boolean][] = [
    ['::a9fe:a9fe', 'IPv4-compatible: 169.254.169.254, the metadata service', false],
    ['::169.254.169.254', 'the same, dotted', false],
    ['::7f00:1', 'IPv4-compatible: 127.0.0.1', false],
    ['::a00:5', 'IPv4-compatible: 10.0.0.5', false],
    ['::ffff:127.0.0.1', 'IPv4-mapped: 127.0.0.1', false],
    ['::ffff:7f00:1', 'IPv4-mapped, hex: 127.0.0.1', false],
    ['0:0:0:0:0:ffff:a9fe:a9fe', 'IPv4-mapped, written out: 169.254.169.254', false],
    ['64:ff9b::a9fe:a9fe', 'NAT64 well-known prefix: 169.254.169.254', false],
    ['64:ff9b::7f00:1', 'NAT64: 127.0.0.1', false],
    ['64:ff9b::10.1.2.3', 'NAT64, dotted: 10.1.2.3', false],
    ['64:ff9b::c0a8:101', 'NAT64: 192.168.1.1', false],
    ['64:ff9b::6440:1', 'NAT64: 100.64.0.1 (CGNAT)', false],
    ['64:ff9b:1::808:808', 'local-use NAT64 (64:ff9b:1::/48, RFC 8215): whatever the local operator maps, even a public IPv4', false],
    ['64:ff9b:1:ab::a9fe:a9fe', 'local-use NAT64 with the metadata address', false],
    ['64:ff9b::1:808:808', 'beside the NAT64 /96, outside 2000::/3: not a public address at all', false],
    ['::', 'the unspecified address', false],
    ['::1', 'IPv6 loopback (in ::/96, but not an IPv4-compatible form)', false],
    // Near misses: the same forms reaching a public IPv4 address, and plain public IPv6.
    ['64:ff9b::808:808', 'NAT64 of 8.8.8.8: a public host, like any public IPv6', true],
    ['64:ff9b::5db8:d822', 'NAT64 of 93.184.216.34', true],
    ['::ffff:8.8.8.8', 'IPv4-mapped 8.8.8.8', true],
    ['::808:808', 'IPv4-compatible 8.8.8.8', true],
    ['2606:4700::1111', 'a public IPv6 address', true],
    ['2a00:1450:4001:81b::200e', 'another public IPv6 address', true],
    ['8.8.8.8', 'a public IPv4 address', true],
  ];
  for (const [address, what, allowed] of TABLE) {
    test(`${address}: ${what} → ${allowed ? 'allowed' : 'refused'}`, () => {
      expect(isPublicAddress(address)).toBe(allowed);
    });
  }

  test('refused as a URL literal and as what a name resolves to, before any connection', async () => {
    const refused = TABLE.filter(([, , allowed]) => !allowed).map(([address]) => address);
    for (const address of refused) {
      expect([address, await reason(`https://[${address}]/`)]).toEqual([address, 'private_address']);
      const viaName = async (host: string): Promise<LookupAddress[]> => (host === 'nat64.test' ? [{ address, family: 6 }] : lookup(host));
      expect([address, await reason('https://nat64.test/', { lookup: viaName })]).toEqual([address, 'private_address']);
    }
  });

  test('allowLoopback admits an embedded loopback address and still refuses the embedded metadata address', () => {
    expect(isPublicAddress('::ffff:127.0.0.1', true)).toBe(true);
    expect(isPublicAddress('::a9fe:a9fe', true)).toBe(false);
    expect(isPublicAddress('64:ff9b::a9fe:a9fe', true)).toBe(false);
  });
});

describe('safeFetch: redirects and limits', () => {
  test('a redirect to a private address is refused', async () => {
    expect(await reason(`https://page.test:${port}/to-private`, loop())).toBe('private_address');
  });

  test('a redirect to a name resolving to a private address is refused', async () => {
    expect(await reason(`https://page.test:${port}/to-private-name`, loop())).toBe('private_address');
  });

  test('a redirect to http is refused', async () => {
    expect(await reason(`https://page.test:${port}/to-http`, loop())).toBe('scheme');
  });

  test('a redirect loop ends at maxRedirects', async () => {
    expect(await reason(`https://page.test:${port}/loop`, { ...loop(), maxRedirects: 3 })).toBe('redirects');
  });

  test('a body over the cap (declared length, and streamed without one)', async () => {
    expect(await reason(`https://page.test:${port}/big`, loop())).toBe('too_large');
    expect(await reason(`https://page.test:${port}/big-stream`, { ...loop(), maxBytes: 200_000 })).toBe('too_large');
  });

  test('a server slower than the deadline', async () => {
    expect(await reason(`https://page.test:${port}/slow`, { ...loop(), timeoutMs: 300 })).toBe('timeout');
  });
});
