// Console passkeys in a real headless Chromium with a virtual authenticator (CDP WebAuthn domain:
// ctap2, internal transport, resident keys, user verification): sign in with the key, register a
// passkey from the Passkeys page, sign out, sign in with the passkey alone, all under the pages'
// CSP that admits /console/passkey.js alone (another script of the origin is refused). The origin is
// http://localhost:<port> (browsers refuse an IP address as the relying party's id).
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import type { Browser } from 'playwright-core';
import { runAdmin } from '../../src/admin/cli.ts';
import { HAS_CHROMIUM, launchChromium } from '../chromium.ts';
import { makeApp } from '../helpers.ts';

setDefaultTimeout(60_000);
let browser: Browser;
let chromium: Awaited<ReturnType<typeof launchChromium>> | undefined;

beforeAll(async () => {
  if (!HAS_CHROMIUM) return;
  chromium = await launchChromium();
  browser = chromium.browser;
});

afterAll(async () => {
  await chromium?.close();
});

describe.skipIf(!HAS_CHROMIUM)('console passkeys in Chromium', () => {
  test('register a passkey with a virtual authenticator, sign out, sign in with it', async () => {
    let handle: (req: Request) => Promise<Response> = async () => new Response('starting', { status: 503 });
    const server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: (req) => handle(req) });
    const origin = `http://localhost:${server.port}`;
    const t = makeApp({ SVC_BASE_URL: origin });
    handle = (req) => t.app.handle(req);
    try {
      const boss = await t.register('boss');
      runAdmin(t.ctx, ['role', 'grant', 'boss', 'owner']);
      const context = await browser.newContext();
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error') problems.push(m.text());
      });
      page.on('pageerror', (e) => problems.push(String(e)));
      const cdp = await context.newCDPSession(page);
      await cdp.send('WebAuthn.enable');
      const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
        options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
      });
      await page.goto(`${origin}/console`);
      await page.fill('input[name=key]', boss.key);
      await Promise.all([page.waitForURL(`${origin}/console/queue`), page.click('button:text("Sign in")')]);
      await page.goto(`${origin}/console/passkeys`);
      await Promise.all([page.waitForURL(`${origin}/console/passkeys?registered=1`), page.click('#passkey-register')]);
      expect(await page.textContent('main')).toContain('Passkey registered.');
      const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
      expect(credentials).toHaveLength(1);
      expect(credentials[0]!.isResidentCredential).toBe(true);
      const stored = t.db.query<{ credential_id: string; counter: number }, []>('SELECT credential_id, counter FROM console_passkeys').get()!;
      expect(stored.credential_id).toBe(Buffer.from(credentials[0]!.credentialId, 'base64').toString('base64url'));
      await Promise.all([page.waitForURL(`${origin}/console`), page.click('button:text("Sign out")')]);
      await Promise.all([page.waitForURL(`${origin}/console/queue`), page.click('#passkey-sign-in')]);
      expect(await page.textContent('header')).toContain('boss (owner)');
      const used = t.db.query<{ last_used_at: number | null }, []>('SELECT last_used_at FROM console_passkeys').get()!;
      expect(used.last_used_at).toBe(t.clock.now());
      expect(problems).toEqual([]);
      // The page's CSP admits its one script by address: another script of this origin (an agent's
      // lab file, say) is refused.
      await page.goto(`${origin}/console/passkeys`);
      const blocked = await page.evaluate(
        () =>
          new Promise<string>((resolve) => {
            document.addEventListener('securitypolicyviolation', (e) => resolve(`${e.effectiveDirective} ${e.blockedURI}`), { once: true });
            const el = document.createElement('script');
            // Fetched and failed (404) without a violation: the CSP admitted it.
            el.onerror = () => setTimeout(() => resolve('admitted'), 200);
            el.src = '/lab/eve/demo/app.js';
            document.head.append(el);
          }),
      );
      expect(blocked).toBe(`script-src-elem ${origin}/lab/eve/demo/app.js`);
      await context.close();
    } finally {
      server.stop(true);
    }
  });
});
