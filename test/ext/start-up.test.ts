// What the server loads before its first request: the app's wiring (every domain's routes) must
// not load the libraries that only some requests need. Each is loaded on first use instead: the
// mirror's look-alike tables (unhomoglyph, ~75 ms to build) by the ext-process worker only, the
// sanitizer (jsdom, DOMPurify) and the lab scanners (happy-dom, acorn, css-tree) in their
// workers, mail, MCP, the key-material detectors' curve and word list, the public suffix list, the
// link finder and the guest challenge on their first use. Run in a fresh process, so nothing else loaded them.
import { describe, expect, test } from 'bun:test';
import { join } from 'node:path';

const ROOT = join(import.meta.dir, '..', '..');

const PROBE = `
const { createApp } = await import(${JSON.stringify(join(ROOT, 'src/app.ts'))});
const { loadConfig, serviceContext } = await import(${JSON.stringify(join(ROOT, 'src/compose.ts'))});
const { migrate } = await import(${JSON.stringify(join(ROOT, 'src/db/migrate.ts'))});
const { openMemoryDatabase } = await import(${JSON.stringify(join(ROOT, 'src/db/open.ts'))});
const { systemClock } = await import(${JSON.stringify(join(ROOT, 'src/clock.ts'))});
const db = openMemoryDatabase();
migrate(db);
const app = createApp(serviceContext(loadConfig({ SVC_LOG_REQUESTS: 'off' }), db, systemClock));
const res = await app.handle(new Request('http://localhost/healthz'));
const loaded = Object.keys(require.cache);
console.log(JSON.stringify({ status: res.status, loaded }));
process.exit(0);
`;

const LAZY = [
  '/node_modules/unhomoglyph/',
  '/src/ext/process/forms.ts',
  '/src/ext/process/patterns.ts',
  '/node_modules/jsdom/',
  '/node_modules/dompurify/',
  '/node_modules/happy-dom/',
  '/node_modules/acorn/',
  '/node_modules/css-tree/',
  '/node_modules/mailparser/',
  '/node_modules/nodemailer/',
  '/node_modules/smtp-server/',
  '/node_modules/mailauth/',
  '/node_modules/@modelcontextprotocol/',
  // The key-material detectors' libraries (src/content/secret-detectors.ts): on the first text scanned.
  '/node_modules/@noble/curves/',
  '/node_modules/@scure/bip39/',
  '/node_modules/@scure/base/',
  // The public suffix list (outreach addresses), the link finder (continuity), the guest challenge.
  '/node_modules/tldts/',
  '/node_modules/tldts-core/',
  '/node_modules/linkify-it/',
  '/node_modules/altcha-lib/',
];

describe('start-up', () => {
  test('the wired app answers /healthz without loading what only some requests need', async () => {
    const proc = Bun.spawn([process.execPath, '-e', PROBE], { cwd: ROOT, stdout: 'pipe', stderr: 'pipe' });
    const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
    await proc.exited;
    const line = out.trim().split('\n').at(-1) ?? '';
    if (!line.startsWith('{')) throw new Error(`probe failed: ${err}`);
    const { status, loaded } = JSON.parse(line) as { status: number; loaded: string[] };
    expect(status).toBe(200);
    expect(loaded.length).toBeGreaterThan(100); // the probe did see the app's modules
    const early = loaded.filter((path) => LAZY.some((part) => path.includes(part)));
    expect(early).toEqual([]);
  });
});
