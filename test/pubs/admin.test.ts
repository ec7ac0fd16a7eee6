// `svc admin pubs appeals` and `… appeals resolve`: the operator lists and resolves appeals, through
// the same entry point as the CLI (runAdmin), and the author reads the resolution.
import { describe, expect, test } from 'bun:test';
import { UsageError } from '../../src/admin/args.ts';
import { ADMIN_USAGE, runAdmin } from '../../src/admin/cli.ts';
import { ApiError } from '../../src/http/errors.ts';
import { envelope, pubsApp } from './harness.ts';

const REASON = 'The downvotes came from one ring of accounts.';

async function withAppeals() {
  const h = await pubsApp();
  const a = await h.submit(envelope({ title: 'first' }));
  h.t.clock.advance(1000);
  const b = await h.submit(envelope({ title: 'second' }));
  for (const s of [a, b]) {
    const r = await h.t.call('POST', `/v1/pubs/revisions/${s.json.revision_id}/appeals`, { key: h.author.key, body: { reason: REASON } });
    expect(r.status).toBe(200);
    h.t.clock.advance(1000);
  }
  return { ...h, a, b };
}

describe('svc admin pubs appeals', () => {
  test('lists the open appeals oldest first, with the article and the reason', async () => {
    const { t, a, b } = await withAppeals();
    const out = runAdmin(t.ctx, ['pubs', 'appeals']) as any;
    expect(out.scope).toBe('open');
    expect(out.count).toBe(2);
    expect(out.appeals.map((x: any) => x.revision_id)).toEqual([a.json.revision_id, b.json.revision_id]);
    expect(out.appeals[0]).toMatchObject({ item_id: a.json.item_id, title: 'first', author: 'author', reason: REASON, status: 'open', resolution: null });
    expect(JSON.parse(JSON.stringify(out))).toEqual(out); // printable as JSON
  });

  test('resolve closes one: it leaves the open list, stays in --all, and the author reads the resolution', async () => {
    const { t, a, b, author, reviewers } = await withAppeals();
    const done = runAdmin(t.ctx, ['pubs', 'appeals', 'resolve', a.json.revision_id.toUpperCase(), '--resolution', 'Votes checked: no ring found.']) as any;
    expect(done).toMatchObject({
      already_resolved: false,
      appeal: { revision_id: a.json.revision_id, status: 'resolved', resolution: 'Votes checked: no ring found.' },
    });
    expect((runAdmin(t.ctx, ['pubs', 'appeals']) as any).appeals.map((x: any) => x.revision_id)).toEqual([b.json.revision_id]);
    const all = runAdmin(t.ctx, ['pubs', 'appeals', '--all', '--limit', '10']) as any;
    expect(all.appeals.map((x: any) => x.status)).toEqual(['resolved', 'open']);
    const rev = await t.call('GET', `/v1/pubs/revisions/${a.json.revision_id}`, { key: author.key });
    expect(rev.json.appeal).toMatchObject({ status: 'resolved', reason: REASON, resolution: 'Votes checked: no ring found.' });
    expect(rev.json.appeal.resolved_at).toBe(done.appeal.resolved_at);
    // Others do not see the appeal.
    expect((await t.call('GET', `/v1/pubs/revisions/${a.json.revision_id}`, { key: reviewers[0]!.key })).json.appeal).toBeNull();
    // A second resolve changes nothing.
    const again = runAdmin(t.ctx, ['pubs', 'appeals', 'resolve', a.json.revision_id, '--resolution', 'other words']) as any;
    expect(again).toMatchObject({ already_resolved: true, appeal: { resolution: 'Votes checked: no ring found.' } });
  });

  test('an open appeal reads as open to its author', async () => {
    const { t, b, author } = await withAppeals();
    const rev = await t.call('GET', `/v1/pubs/revisions/${b.json.revision_id}`, { key: author.key });
    expect(rev.json.appeal).toMatchObject({ status: 'open', resolved_at: null, resolution: null });
  });

  test('mistakes are usage errors or NOT_FOUND, and change nothing', async () => {
    const { t, a } = await withAppeals();
    const usage = (argv: string[]) => expect(() => runAdmin(t.ctx, argv)).toThrow(UsageError);
    usage(['pubs']);
    usage(['pubs', 'nonsense']);
    usage(['pubs', 'appeals', 'resolve', a.json.revision_id]); // no --resolution
    usage(['pubs', 'appeals', 'resolve', '--resolution', 'x']); // no revision
    usage(['pubs', 'appeals', 'resolve', a.json.revision_id, '--resolution', '   ']);
    usage(['pubs', 'appeals', 'resolve', a.json.revision_id, '--resolution', 'x'.repeat(2001)]);
    usage(['pubs', 'appeals', '--limit', '0']);
    usage(['pubs', 'appeals', '--bogus']);
    expect(() => runAdmin(t.ctx, ['pubs', 'appeals', 'resolve', crypto.randomUUID(), '--resolution', 'x'])).toThrow(ApiError);
    expect((runAdmin(t.ctx, ['pubs', 'appeals']) as any).count).toBe(2);
  });

  test('the usage lists both commands', () => {
    expect(ADMIN_USAGE).toContain('svc admin pubs appeals [--all]');
    expect(ADMIN_USAGE).toContain('svc admin pubs appeals resolve REVISION_ID --resolution TEXT');
  });
});
