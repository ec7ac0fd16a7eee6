// The owner's side of the Show desk as operator actions (src/show/admin.ts): the queue, and
// approve/reject written as the owner's own labelled reply, so that everything downstream sees
// what an owner's API reply makes.
import { describe, expect, test } from 'bun:test';
import { runAdmin } from '../../src/admin/cli.ts';
import { APPROVAL_TEXT } from '../../src/show/admin.ts';
import { makeShowApp } from './harness.ts';

async function desk() {
  const t = makeShowApp();
  const author = await t.crew('author');
  const editor = await t.withRole('editor', 'editor');
  const owner = await t.withRole('owner', 'owner');
  const reporter = await t.withRole('reporter', 'reporter');
  const id = await t.root(author);
  const pick = await t.reply(editor, id, 'Pick: strong hook, clean evidence');
  if (pick.status !== 200) throw new Error(pick.text);
  return { t, author, editor, owner, reporter, id };
}

type Desk = Awaited<ReturnType<typeof desk>>;

/** What follows from the decision, with this world's ids named: the lane's item, the labels, the thread, the author's inbox, the reporter's publish. */
async function downstream(d: Desk) {
  const doc = await d.t.doc();
  const item = [...doc.items, ...doc.outside].find((i: { id: string }) => i.id === d.id);
  const labels = d.t.db
    .query('SELECT l.label, a.name FROM show_labels l JOIN accounts a ON a.id = l.author_id WHERE l.root_id = ? ORDER BY l.created_at, l.label')
    .all(d.id);
  const thread = await d.t.call('GET', `/v1/posts/${d.id}`, { key: d.author.key });
  const replies = (thread.json.replies as { author: string; body: string; prefix: string | null }[]).map((r) => [r.author, r.body, r.prefix]);
  const inbox = (await d.t.call('GET', '/v1/inbox', { key: d.author.key })).json;
  const posted = await d.t.posted(d.reporter, d.id);
  // The replies' ids are each world's own: every other id is named ID.
  const normal = (v: unknown) =>
    JSON.parse(
      JSON.stringify(v)
        .replaceAll(d.id, 'ROOT')
        .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, 'ID'),
    );
  return normal({ item, labels, replies, inbox, posted: [posted.status, posted.json] });
}

describe('svc admin show approve and the owner’s API reply', () => {
  test('give the same downstream state', async () => {
    const viaApi = await desk();
    const r = await viaApi.t.reply(viaApi.owner, viaApi.id, APPROVAL_TEXT);
    expect(r.status, r.text).toBe(200);
    const viaAction = await desk();
    const out = (await runAdmin(viaAction.t.ctx, ['show', 'approve', viaAction.id])) as { status: string; decided_by: string };
    expect(out).toMatchObject({ status: 'approved', decided_by: 'owner' });
    const a = await downstream(viaApi);
    expect(a.item.status).toBe('approved');
    expect(a.posted[0]).toBe(200);
    expect(await downstream(viaAction)).toEqual(a);
  });

  test('reject writes the owner’s Veto: reply with the reason: flagged for good, the reporter refused', async () => {
    const d = await desk();
    const out = await runAdmin(d.t.ctx, ['show', 'reject', d.id, '--reason', 'the evidence link is a mirror']);
    expect(out).toMatchObject({ root_id: d.id, decided_by: 'owner', status: 'flagged', reply: { body: 'Veto: the evidence link is a mirror' } });
    const state = await downstream(d);
    expect(state.item).toMatchObject({ status: 'flagged', flags: 1 });
    expect(state.posted).toMatchObject([409, { error: { code: 'SHOW_NOT_PUBLISHABLE' } }]);
    expect(d.t.db.query("SELECT actor, action, target, reason FROM audit_log WHERE action LIKE 'show %'").all()).toEqual([
      { actor: 'cli', action: 'show reject', target: d.id, reason: 'the evidence link is a mirror' },
    ]);
  });
});

describe('svc admin show queue', () => {
  test('lists the desk’s picks waiting for the owner, with what the owner decides on; decided roots leave it', async () => {
    const d = await desk();
    const draft = await d.t.root(await d.t.crew('other'), {
      topic: 'svc-show',
      title: 'Show: Postgres vacuum settings halved our disk growth',
      body: 'Postgres vacuum settings halved our disk growth\nWe changed two autovacuum thresholds on a busy table and measured a month of growth; copy the settings.\nFormat: post\nAudience: database operators fighting bloat\nEvidence: Grafana export, 2026-11-20, https://github.com/example/pg/blob/main/growth.csv',
    });
    const q = runAdmin(d.t.ctx, ['show', 'queue']) as { root_id: string; author: string; outside: boolean; body: string; desk_picks: unknown[] }[];
    expect(q.map((r) => r.root_id)).toEqual([d.id]);
    expect(q[0]).toMatchObject({ author: 'author', outside: false, desk_picks: [{ by: 'editor', text: 'Pick: strong hook, clean evidence' }] });
    expect(q[0]!.body).toContain('Evidence:');
    expect(draft).not.toBe(d.id);
    await runAdmin(d.t.ctx, ['show', 'approve', d.id]);
    expect(runAdmin(d.t.ctx, ['show', 'queue'])).toEqual([]);
  });

  test('refusals: a root not waiting (409), no Show root (404), several owners without --as, --as naming no owner', async () => {
    const d = await desk();
    await runAdmin(d.t.ctx, ['show', 'approve', d.id]);
    const err = async (argv: string[]) => {
      try {
        await runAdmin(d.t.ctx, argv);
      } catch (e) {
        return e as Error & { code?: string; details?: unknown };
      }
      throw new Error('not refused');
    };
    expect(await err(['show', 'approve', d.id])).toMatchObject({ code: 'SHOW_NOT_AWAITING', details: { status: 'approved' } });
    expect(await err(['show', 'reject', d.id, '--reason', 'late'])).toMatchObject({ code: 'SHOW_NOT_AWAITING' });
    expect(await err(['show', 'approve', crypto.randomUUID()])).toMatchObject({ code: 'NOT_FOUND' });
    const other = await d.t.root(await d.t.crew('second'), {
      topic: 'svc-show',
      title: 'Show: Postgres vacuum settings halved our disk growth',
      body: 'Postgres vacuum settings halved our disk growth\nWe changed two autovacuum thresholds on a busy table and measured a month of growth; copy the settings.\nFormat: post\nAudience: database operators fighting bloat\nEvidence: Grafana export, 2026-11-20, https://github.com/example/pg/blob/main/growth.csv',
    });
    await d.t.reply(d.editor, other, 'Pick: yes');
    await d.t.withRole('owner2', 'owner');
    expect((await err(['show', 'approve', other])).message).toContain('--as OWNER_NAME');
    expect((await err(['show', 'approve', other, '--as', 'editor'])).message).toContain('not a live owner');
    expect(await runAdmin(d.t.ctx, ['show', 'approve', other, '--as', 'owner2'])).toMatchObject({ decided_by: 'owner2', status: 'approved' });
  });
});
