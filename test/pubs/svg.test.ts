// The SVG admission check: DOMPurify over jsdom in the pubs-svg worker; anything it would change,
// and any reference outside the image, is refused naming the block.
import { describe, expect, test } from 'bun:test';
import type { PubsJob, PubsJobResult } from '../../src/pubs/sanitize.ts';
import { WorkerPool, workerLocation } from '../../src/workers/pool.ts';
import { envelope, pubsApp, SVG } from './harness.ts';
import { accepted, NS, refused } from './svg-corpus.ts';

describe('svg blocks', () => {
  for (const [name, source] of refused) {
    test(`refuses ${name}, naming the block`, async () => {
      const { submit, t } = await pubsApp();
      const r = await submit(
        envelope({
          blocks: [
            { type: 'paragraph', text: 'p' },
            { type: 'svg', source, description: 'd', runtime: 'static' },
          ],
        }),
      );
      expect(`${r.status} ${r.json.error?.code}`).toBe('422 PUBS_SVG_REFUSED');
      expect(r.json.error.details.where).toBe('blocks[1].source');
      expect(t.db.query('SELECT count(*) AS n FROM pubs_assets').get()).toEqual({ n: 0 });
    });
  }
  for (const [name, source] of accepted) {
    test(`accepts ${name} and stores exactly the sanitized source`, async () => {
      const { submit, t } = await pubsApp();
      const r = await submit(envelope({ blocks: [{ type: 'svg', source, description: 'd', runtime: 'static' }] }));
      expect(`${r.status} ${r.json.error?.code}`).toBe('202 undefined');
      const row = t.db.query<{ body: string }, []>('SELECT body FROM pubs_assets').get()!;
      expect(row.body).toStartWith('<svg');
      expect(row.body).not.toContain('script');
    });
  }
});

describe('svg sizes', () => {
  const sized = (bytes: number) => {
    const head = `<svg ${NS}><text>`;
    const tail = '</text></svg>';
    return head + 'a'.repeat(bytes - head.length - tail.length) + tail;
  };

  test('a 10 MB source is refused at the door (413) and stores nothing', async () => {
    const { submit, t } = await pubsApp();
    const r = await submit(envelope({ blocks: [{ type: 'svg', source: sized(10 * 1024 * 1024), description: 'd', runtime: 'static' }] }));
    expect(r.status).toBe(413);
    expect(r.json.error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(t.db.query('SELECT count(*) AS n FROM pubs_revisions').get()).toEqual({ n: 0 });
  });

  test('one byte over 64 KB is 413 PUBS_TOO_LARGE naming the block; exactly 64 KB passes', async () => {
    const { submit } = await pubsApp();
    const block = (bytes: number) => ({ type: 'svg', source: sized(bytes), description: 'd', runtime: 'static' });
    const over = await submit(envelope({ blocks: [{ type: 'paragraph', text: 'p' }, block(64 * 1024 + 1)] }));
    expect(over.status).toBe(413);
    expect(over.json.error.details).toMatchObject({ limit: 'svg_source_bytes', max: 65_536, received: 65_537, where: 'blocks[1].source' });
    expect((await submit(envelope({ blocks: [block(64 * 1024)] }))).status).toBe(202);
  });

  test('the ninth svg block is 413 PUBS_TOO_LARGE; eight pass', async () => {
    const { submit } = await pubsApp();
    const svgs = (n: number) => Array.from({ length: n }, () => ({ type: 'svg', source: SVG, description: 'd', runtime: 'static' }));
    const nine = await submit(envelope({ blocks: svgs(9) }));
    expect(nine.json.error).toMatchObject({ code: 'PUBS_TOO_LARGE', details: { limit: 'svg_blocks', max: 8 } });
    expect((await submit(envelope({ blocks: svgs(8) }))).status).toBe(202);
  });
});

describe('the checks in the worker', () => {
  test('judged in a fixed order: a text rule before a refused svg, a refused svg before drawn text', async () => {
    const { submit } = await pubsApp();
    const bad = { type: 'svg', source: `<svg ${NS}><script>x</script></svg>`, description: 'd', runtime: 'static' };
    const drawn = { type: 'svg', source: `<svg ${NS}><text>buy $BONK now before it pumps</text></svg>`, description: 'd', runtime: 'static' };
    const pitch = { type: 'paragraph', text: 'buy $BONK now before it pumps' };
    const first = await submit(envelope({ blocks: [drawn, bad, pitch] }));
    expect(first.json.error).toMatchObject({ code: 'PRICE_TALK', details: { where: 'blocks[2].text' } });
    const second = await submit(envelope({ blocks: [drawn, bad] }));
    expect(second.json.error).toMatchObject({ code: 'PUBS_SVG_REFUSED', details: { where: 'blocks[1].source' } });
    const third = await submit(envelope({ blocks: [{ type: 'paragraph', text: 'p' }, drawn] }));
    expect(third.json.error).toMatchObject({ code: 'PRICE_TALK', details: { where: 'blocks[1].source' } });
  });

  test('one pass: a replay runs no check again; a refused text still waits for the svg check it started', async () => {
    const { submit, t } = await pubsApp();
    const real = new WorkerPool<PubsJob, PubsJobResult>(workerLocation('pubs-svg'), 1, 5_000);
    let runs = 0;
    const run = (job: PubsJob) => {
      runs++;
      return real.run(job);
    };
    const counting = { run } as unknown as WorkerPool<PubsJob, PubsJobResult>;
    t.ctx.workers.pubsSvg = counting;
    try {
      const article = envelope({ blocks: [{ type: 'svg', source: SVG, description: 'd', runtime: 'static' }] });
      expect((await submit(article)).status).toBe(202);
      const again = await submit(article);
      expect([again.status, again.headers.get('idempotent-replayed')]).toEqual([202, 'true']);
      expect(runs).toBe(1);
      const priced = await submit(
        envelope({
          blocks: [
            { type: 'svg', source: `<svg ${NS}><script>x</script></svg>`, description: 'd', runtime: 'static' },
            { type: 'paragraph', text: 'buy $BONK now before it pumps' },
          ],
        }),
      );
      expect(priced.json.error).toMatchObject({ code: 'PRICE_TALK', details: { where: 'blocks[1].text' } });
      expect(runs).toBe(2);
      expect(t.db.query('SELECT count(*) AS n FROM pubs_items').get()).toEqual({ n: 1 });
    } finally {
      real.close();
    }
  });

  test('when the worker cannot answer, the text rules still run and an svg is refused, never let through', async () => {
    const { submit, t } = await pubsApp();
    const pool = new WorkerPool<PubsJob, PubsJobResult>(workerLocation('pubs-svg'), 1, 5_000);
    pool.close(); // every job now fails at once, as after a crash
    t.ctx.workers.pubsSvg = pool;
    const priced = await submit(envelope({ blocks: [{ type: 'paragraph', text: 'buy $BONK now before it pumps' }] }));
    expect(priced.json.error).toMatchObject({ code: 'PRICE_TALK', details: { where: 'blocks[0].text' } });
    const svg = await submit(envelope({ blocks: [{ type: 'svg', source: SVG, description: 'd', runtime: 'static' }] }));
    expect(svg.json.error).toMatchObject({ code: 'PUBS_SVG_REFUSED', details: { reason: 'check_failed', where: 'blocks[0].source' } });
    expect((await submit(envelope())).status).toBe(202);
    expect(t.db.query('SELECT count(*) AS n FROM pubs_items').get()).toEqual({ n: 1 });
  });

  test('a check that overruns its budget is refused as check_timeout', async () => {
    const { submit, t } = await pubsApp();
    // A checker that never answers: over any budget, however fast the machine.
    const pool = new WorkerPool<PubsJob, PubsJobResult>(new URL('../workers/fixtures/silent-worker.ts', import.meta.url), 1, 50);
    t.ctx.workers.pubsSvg = pool;
    try {
      const r = await submit(envelope({ blocks: [{ type: 'svg', source: SVG, description: 'd', runtime: 'static' }] }));
      expect(r.json.error).toMatchObject({ code: 'PUBS_SVG_REFUSED', details: { reason: 'check_timeout' } });
    } finally {
      pool.close();
    }
  });
});
