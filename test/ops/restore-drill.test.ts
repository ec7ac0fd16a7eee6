// The restore drill: a real `svc serve` under a write load (posts, a lab publish, an article with
// an svg asset, uploads), `svc backup` taken while the writes go on, `svc restore` into a fresh
// folder, a second server started on it, and every write acknowledged before the backup began
// checked there: post bodies, every byte of every lab file as served, the article's asset, the
// committed upload's article and an upload's parts (committed only after the restore).
import { describe, expect, setDefaultTimeout, test } from 'bun:test';
import { join } from 'node:path';
import { type Server, startServer, svc, tempDir } from './cli.ts';

// Several cold starts of the app and a write load on a shared 2-core machine: a hang guard only.
setDefaultTimeout(300_000);

const BASE_URL = 'http://svc.drill'; // the same on both servers: served pages name it
const ENV = { SVC_BASE_URL: BASE_URL, SVC_POSTING_PER_DAY: '1000000', SVC_REGISTER_PER_HOUR: '0', SVC_PUBLIC_READS_PER_MINUTE: '0' };
const SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="5" height="5" fill="red"/><text x="1" y="9">tides</text></svg>';
const sha256 = (b: Uint8Array) => new Bun.CryptoHasher('sha256').update(b).digest('hex');

function client(server: Server, key: string) {
  const headers = { 'x-agent-protocol': 'svc/1', accept: 'application/json', 'content-type': 'application/json', authorization: `Bearer ${key}` };
  return async (method: string, path: string, body?: unknown, extra: Record<string, string> = {}) => {
    const res = await fetch(`${server.url}${path}`, { method, headers: { ...headers, ...extra }, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    return { status: res.status, json: text ? JSON.parse(text) : null, text };
  };
}

/** A lab site with an HTML page, a style sheet, a script and a binary image of ~200 KB. */
function labSite() {
  const png = new Uint8Array(200 * 1024);
  for (let i = 0; i < png.length; i++) png[i] = (i * 2654435761) >>> 24;
  png.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const files = [
    {
      path: 'index.html',
      content:
        '<!doctype html><html><head><title>Drill</title><link rel="stylesheet" href="style.css"><script src="app.js"></script></head><body><h1>Tides</h1><img src="img/wave.png" alt="wave"></body></html>',
      encoding: 'utf8',
    },
    { path: 'style.css', content: 'body { font-family: serif; color: #123 }', encoding: 'utf8' },
    { path: 'app.js', content: 'document.title = "Drill: " + (1 + 1);', encoding: 'utf8' },
    { path: 'notes/index.html', content: '<!doctype html><html><head><title>Notes</title></head><body><p>Notes é ✓</p></body></html>', encoding: 'utf8' },
    { path: 'img/wave.png', content: Buffer.from(png).toString('base64'), encoding: 'base64' },
  ];
  return { title: 'Drill', files };
}

const LAB_PATHS = ['', 'style.css', 'app.js', 'notes/', 'img/wave.png'];
const labBytes = async (server: Server, path: string) => {
  const res = await fetch(`${server.url}/lab/driller/drill/${path}`, { headers: { accept: 'text/html' } });
  return { status: res.status, bytes: new Uint8Array(await res.arrayBuffer()) };
};

function articleEnvelope(title: string, blocks: unknown[] = [{ type: 'paragraph', text: 'The tide tables hold.' }]) {
  return { schema_version: 1, language: 'en', publication_intent: 'show_to_humans', idempotency_key: crypto.randomUUID(), title, blocks };
}

describe('restore drill', () => {
  test('every write acknowledged before the backup began is served by a server started on the restored copy', async () => {
    const data = tempDir();
    const made = await svc(['admin', 'agent', 'create', 'driller', '--data', data], ENV);
    expect(made.code).toBe(0);
    const key = made.json.api_key as string;
    expect((await svc(['admin', 'lab', 'allow', 'driller', '--data', data], ENV)).code).toBe(0);

    const first = await startServer(data, ENV);
    const call = client(first, key);

    // Acknowledged before the backup: posts, a lab site, an article with an svg asset, uploads.
    const posts = new Map<string, string>(); // id → body
    let n = 0;
    const post = async () => {
      const i = n++;
      const body = `Drill write ${i}: measured ${sha256(new TextEncoder().encode(String(i))).slice(0, 16)} and written down.`;
      const r = await call('POST', '/v1/posts', { topic: 'general', title: `Drill ${i}`, body }, { 'idempotency-key': crypto.randomUUID() });
      if (r.status !== 200) throw new Error(`post ${i}: ${r.status} ${r.text}`);
      return { id: r.json.post.id as string, body };
    };
    for (let i = 0; i < 40; i++) {
      const p = await post();
      posts.set(p.id, p.body);
    }
    const lab = await call('PUT', '/v1/lab/pages/drill', labSite(), { 'idempotency-key': crypto.randomUUID() });
    expect(lab.status).toBe(201);
    const labServed = new Map<string, Uint8Array<ArrayBuffer>>();
    for (const path of LAB_PATHS) {
      const got = await labBytes(first, path);
      expect(got.status).toBe(200);
      labServed.set(path, got.bytes);
    }
    const article = await call(
      'POST',
      '/v1/pubs/posts',
      articleEnvelope('Tide tables, drilled', [
        { type: 'paragraph', text: 'The chart below is the asset.' },
        { type: 'svg', source: SVG, description: 'A bar', runtime: 'static' },
      ]),
    );
    expect(article.status).toBe(202);
    const revision = await call('GET', `/v1/pubs/revisions/${article.json.revision_id}`);
    expect(revision.status).toBe(200);
    const assets = revision.json.assets as { asset_id: string; source: string }[];
    expect(assets.length).toBe(1);
    expect(assets[0]!.source).toStartWith('<svg');

    // An upload committed before the backup (an article), and one whose parts are all sent but not committed.
    const upload = async (title: string) => {
      const bytes = new TextEncoder().encode(
        JSON.stringify(articleEnvelope(title, [{ type: 'paragraph', text: `${title}: ${'measured and written down. '.repeat(300)}` }])),
      );
      const s = await call('POST', '/v1/pubs/uploads', { expected_hash: sha256(bytes), expected_bytes: bytes.byteLength, metadata: { kind: 'post' } });
      expect(s.status).toBe(201);
      for (let at = 0, part = 1; at < bytes.byteLength; at += 4096, part++) {
        const p = await call('POST', `/v1/pubs/uploads/${s.json.upload_id}/parts`, {
          part_number: part,
          data: Buffer.from(bytes.subarray(at, at + 4096)).toString('base64'),
        });
        expect(p.status).toBe(200);
      }
      return s.json.upload_id as string;
    };
    const committedUpload = await upload('Uploaded before');
    const committed = await call('POST', `/v1/pubs/uploads/${committedUpload}/commit`, {});
    expect(committed.status).toBe(202);
    const pendingUpload = await upload('Uploaded in parts');

    // The load goes on while the backup runs; what it writes meanwhile may or may not be in the copy.
    const during = new Map<string, string>();
    let writing = true;
    const failures: string[] = [];
    const writer = (async () => {
      while (writing) {
        try {
          const p = await post();
          during.set(p.id, p.body);
        } catch (e) {
          failures.push(String(e));
        }
      }
    })();
    const second = client(first, key);
    const extraLab = (async () => {
      // A second lab page published while the backup may be running: not checked, only load.
      const r = await second('PUT', '/v1/lab/pages/drill-two', labSite(), { 'idempotency-key': crypto.randomUUID() });
      if (r.status !== 201) failures.push(`lab two: ${r.status}`);
    })();
    // Wait until the load is really writing before the backup begins.
    while (during.size < 5 && failures.length === 0) await Bun.sleep(5);
    const ackedBefore = new Map(posts);
    const duringBeforeBackup = new Map(during);
    for (const [id, body] of duringBeforeBackup) ackedBefore.set(id, body);

    const file = join(tempDir(), 'drill.sqlite');
    const backedUp = await svc(['backup', file, '--data', data], ENV);
    const duringBackup = during.size - duringBeforeBackup.size;
    writing = false;
    await writer;
    await extraLab;
    expect(failures).toEqual([]);
    expect(backedUp.code).toBe(0);
    expect(await first.stop()).toBe(0);

    const restoredDir = join(tempDir(), 'restored');
    const restored = await svc(['restore', file, '--data', restoredDir], ENV);
    expect(restored.code).toBe(0);
    expect(restored.json.pending_migrations).toBe(0);
    const again = await startServer(restoredDir, ENV);
    const call2 = client(again, key);

    let postsFound = 0;
    for (const [id, body] of ackedBefore) {
      const r = await call2('GET', `/v1/posts/${id}`);
      expect(r.status, id).toBe(200);
      expect(r.json.post.body).toBe(body);
      postsFound++;
    }
    let duringFound = 0;
    for (const id of during.keys()) if (!ackedBefore.has(id) && (await call2('GET', `/v1/posts/${id}`)).status === 200) duringFound++;

    let labFileBytes = 0;
    for (const path of LAB_PATHS) {
      const got = await labBytes(again, path);
      expect(got.status, path).toBe(200);
      expect(got.bytes, path).toEqual(labServed.get(path)!);
      labFileBytes += got.bytes.byteLength;
    }
    const revision2 = await call2('GET', `/v1/pubs/revisions/${article.json.revision_id}`);
    expect(revision2.status).toBe(200);
    expect(revision2.json.assets).toEqual(assets);
    const uploaded = await call2('GET', `/v1/pubs/revisions/${committed.json.revision_id}`);
    expect(uploaded.status).toBe(200);
    expect(uploaded.json.revision).toMatchObject({ title: 'Uploaded before', item_id: committed.json.item_id });
    expect(uploaded.json.revision.blocks[0].text).toStartWith('Uploaded before: measured');
    // Every part of the uncommitted upload survived: the commit checks the bytes and their hash.
    const late = await call2('POST', `/v1/pubs/uploads/${pendingUpload}/commit`, {});
    expect(late.status).toBe(202);
    expect(await again.stop()).toBe(0);

    console.log(
      JSON.stringify({
        drill: 'restore',
        posts_acked_before_backup: ackedBefore.size,
        posts_found_after_restore: postsFound,
        posts_acked_during_backup: duringBackup,
        posts_written_during_load: during.size,
        later_posts_also_in_copy: duringFound,
        lab_files: LAB_PATHS.length,
        lab_bytes_served: labFileBytes,
        svg_assets: assets.length,
        uploads: { committed_before: 1, committed_after_restore: 1 },
        backup_bytes: backedUp.json.bytes,
      }),
    );
  });
});
