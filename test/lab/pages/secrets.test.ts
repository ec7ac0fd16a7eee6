// PUT /v1/lab/pages/{slug} refuses key material wherever it sits (03 §7, 01 Errors SECRET_LIKE):
// the title, a path, a file's text, a base64 file decoded, an image's embedded text. Each refusal
// names the kind and the field, never echoes the key, stores nothing (the previous version keeps
// serving) and uses no publish; look-alikes of key prefixes still publish.
import { describe, expect, test } from 'bun:test';
import { generateKeyPairSync } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';
import { cleanSite, html, makeLabApp } from './harness.ts';

// Keys are made at run time (an account's own key, a fresh PEM key), so this repository holds
// nothing that looks like a live key; the AWS key id is AWS's documentation example, which the
// scanner refuses like a live one.
const AWS = 'AKIAIOSFODNN7EXAMPLE';
const pem = () =>
  generateKeyPairSync('ec', { namedCurve: 'P-256', privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
const b64 = (s: string | Uint8Array) => Buffer.from(s).toString('base64');

function chunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

/** A real 16×16 PNG of noise, with a tEXt chunk holding `comment` when given. */
function png(comment?: string): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(16, 0);
  ihdr.writeUInt32BE(16, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  const raw = Buffer.alloc(16 * (16 * 3 + 1));
  crypto.getRandomValues(raw);
  for (let y = 0; y < 16; y++) raw[y * 49] = 0;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    ...(comment === undefined ? [] : [chunk('tEXt', Buffer.from(`Comment\0${comment}`, 'latin1'))]),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', new Uint8Array(0)),
  ]);
}

/** The same text in UTF-16LE, as Windows writes EXIF XPComment. */
const utf16 = (s: string) => Buffer.from(s, 'utf16le');

type File = { path: string; content: string; encoding?: string };
type Case = [name: string, make: (key: string) => { title?: string; files: File[] }, kind: string, where: string, keyOf?: () => string];

// cleanSite() is index.html, style.css, app.js: an extra file is files[3].
const cases: Case[] = [
  ['a live svc_ key in the title', (k) => ({ ...cleanSite(), title: `Deploy with ${k}` }), 'svc_api_key', 'title'],
  ['a live svc_ key in index.html', (k) => ({ files: [{ path: 'index.html', content: html(`<p>key: ${k}</p>`) }] }), 'svc_api_key', 'files[0].content'],
  [
    'a live svc_ key in app.js',
    (k) => {
      const site = cleanSite();
      site.files[2] = { path: 'app.js', content: `const KEY = '${k}';\nfetch('/x', { headers: { authorization: 'Bearer ' + KEY } });` };
      return site;
    },
    'svc_api_key',
    'files[2].content',
  ],
  [
    'a live svc_ key as base64 content of a text file',
    (k) => cleanSite([{ path: 'notes.txt', content: b64(`token=${k}\n`), encoding: 'base64' }]),
    'svc_api_key',
    'files[3].content',
  ],
  [
    'a live svc_ key split by invisible characters',
    (k) => cleanSite([{ path: 'a.txt', content: `${k.slice(0, 20)}\u200b${k.slice(20)}` }]),
    'svc_api_key',
    'files[3].content',
  ],
  [
    'an AWS access key id in a stylesheet comment',
    () => cleanSite([{ path: 'more.css', content: `/* ${AWS} */\nbody { color: red }` }]),
    'aws_access_key',
    'files[3].content',
    () => AWS,
  ],
  ['an AWS access key id in a path', () => cleanSite([{ path: `keys/${AWS}.txt`, content: 'nothing here' }]), 'aws_access_key', 'files[3].path', () => AWS],
  [
    'a PEM private key block in a text file',
    (k) => cleanSite([{ path: 'deploy.txt', content: `deploy key:\n${k}` }]),
    'pem_private_key',
    'files[3].content',
    () => pem().privateKey,
  ],
  [
    'a PEM private key block as base64 content',
    (k) => cleanSite([{ path: 'key.txt', content: b64(k), encoding: 'base64' }]),
    'pem_private_key',
    'files[3].content',
    () => pem().privateKey,
  ],
  [
    'a live svc_ key in a PNG tEXt chunk',
    (k) => cleanSite([{ path: 'img/a.png', content: b64(png(k)), encoding: 'base64' }]),
    'svc_api_key',
    'files[3].content',
  ],
  [
    'an AWS key id in UTF-16LE inside an image',
    () => cleanSite([{ path: 'img/b.png', content: b64(Buffer.concat([png(), utf16(`XPComment ${AWS}`)])), encoding: 'base64' }]),
    'aws_access_key',
    'files[3].content',
    () => AWS,
  ],
];

describe('a publish holding key material is 422 SECRET_LIKE, stores nothing and costs nothing', () => {
  // Rest parameters: a fixed arity above a row's length would make bun pass a done callback.
  test.each(cases)('%s', async (...[, make, kind, where, keyOf]: Case) => {
    const t = makeLabApp();
    const a = await t.register('alice');
    // The audit's case: another account's live key.
    const key = keyOf ? keyOf() : (await t.register('bobby')).key;
    const v1 = await t.publish(a.key, 'tides', { title: 'Tides v1', files: [{ path: 'index.html', content: html('<p>version one</p>') }] });
    expect(v1.status).toBe(201);

    const r = await t.publish(a.key, 'tides', make(key));
    expect(r.status).toBe(422);
    expect(r.json.error.code).toBe('SECRET_LIKE');
    expect(r.json.error.details).toMatchObject({ kind, where });
    // Never echoed, not even in part (the message, the details, the file name).
    for (const piece of key.split('\n').filter((l) => l.length >= 16)) expect(r.text).not.toContain(piece);
    // No publish used, and the answer says so.
    expect(r.json.error.details.quota.publishes_used).toBe(1);
    const list = await t.call('GET', '/v1/lab/pages', { key: a.key });
    expect(list.json.quota.publishes_used).toBe(1);
    expect(list.json.pages).toMatchObject([{ slug: 'tides', title: 'Tides v1', file_count: 1 }]);
    // The previous version still serves, and only its files are stored.
    const page = await t.visit('/lab/alice/tides/');
    expect(page.text).toContain('<p>version one</p>');
    expect(page.text).not.toContain(key.slice(0, 24));
    expect(t.db.query<{ path: string }, []>('SELECT path FROM lab_site_files ORDER BY path').all()).toEqual([{ path: 'index.html' }]);
  });

  test('a new page refused for a key is not created', async () => {
    const t = makeLabApp();
    const a = await t.register('alice');
    const r = await t.publish(a.key, 'fresh', cleanSite([{ path: 'k.txt', content: `key ${AWS}` }]));
    expect(r.json.error).toMatchObject({ code: 'SECRET_LIKE', details: { kind: 'aws_access_key', where: 'files[3].content', file: 'k.txt' } });
    expect((await t.visit('/lab/alice/fresh/')).status).toBe(404);
    expect(r.json.error.details.quota).toMatchObject({ projects_used: 0, publishes_used: 0 });
  });

  test('the key is the first thing reported, before the lab rules the same site breaks', async () => {
    const t = makeLabApp();
    const a = await t.register('alice');
    const r = await t.publish(a.key, 'tides', cleanSite([{ path: 'w.js', content: `const p = window['eth' + 'ereum'] // ${AWS}` }]));
    expect(r.json.error).toMatchObject({ code: 'SECRET_LIKE', details: { where: 'files[3].content' } });
  });

  test('the same publish without the key then goes through, with the same Idempotency-Key', async () => {
    const t = makeLabApp();
    const a = await t.register('alice');
    const idem = crypto.randomUUID();
    expect((await t.publish(a.key, 'tides', { ...cleanSite(), title: AWS }, idem)).status).toBe(422);
    const r = await t.publish(a.key, 'tides', cleanSite(), idem);
    expect(r.status).toBe(201);
    expect(r.json.quota.publishes_used).toBe(1);
  });
});

describe('text that only resembles a key still publishes', () => {
  test('prefixes, placeholders, a public key, hashes and a PEM header in prose', async () => {
    const t = makeLabApp();
    const a = await t.register('alice');
    const { publicKey } = pem();
    const site = cleanSite([
      {
        path: 'keys.html',
        content: html(
          '<h1>About keys</h1><p>svc keys look like svc_ followed by 40 base62 characters; svc_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx is a placeholder.</p>' +
            '<p>The AKIA prefix marks long-term AWS keys (AKIAXXXXXXXXXXXXXXXX in the docs); sk- and ghp_ start other kinds.</p>' +
            '<p>Never commit files that start with -----BEGIN RSA PRIVATE KEY----- to a repository.</p>',
        ),
      },
      { path: 'style2.css', content: '.sk-button, .svc_api_key, .ghp_banner { color: teal }\n' },
      { path: 'public.txt', content: `Our signing key (public half):\n${publicKey}` },
      {
        path: 'data.json',
        content: JSON.stringify({
          sha256: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
          id: crypto.randomUUID(),
          svc_key_format: 'svc_<40>',
        }),
      },
      { path: 'img/plain.png', content: b64(png('Made with a plotting script, 16x16, no secrets here')), encoding: 'base64' },
    ]);
    const r = await t.publish(a.key, 'keys', site);
    expect(r.status).toBe(201);
    expect((await t.visit('/lab/alice/keys/keys.html')).text).toContain('svc_ followed by 40');
  });
});
