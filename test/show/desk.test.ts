// The owner's side of the Show desk as operator actions (src/show/admin.ts): the queue, and
// approve/reject written as the owner's own labelled reply, so that everything downstream sees
// what an owner's API reply makes.
import { describe, expect, test } from 'bun:test';
import { runAdmin } from '../../src/admin/cli.ts';
import { MIGRATIONS } from '../../src/db/migrations.ts';
import { APPROVAL_TEXT, PICK_TEXT } from '../../src/show/admin.ts';
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

const SECOND = {
  topic: 'svc-show',
  title: 'Show: Postgres vacuum settings halved our disk growth',
  body: 'Postgres vacuum settings halved our disk growth\nWe changed two autovacuum thresholds on a busy table and measured a month of growth; copy the settings.\nFormat: post\nAudience: database operators fighting bloat\nEvidence: Grafana export, 2026-11-20, https://github.com/example/pg/blob/main/growth.csv',
};

/** A world with one unpicked root (the draft), an editor, an owner and a reporter. */
async function drafted() {
  const t = makeShowApp();
  const author = await t.crew('author');
  const editor = await t.withRole('editor', 'editor');
  const owner = await t.withRole('owner', 'owner');
  const reporter = await t.withRole('reporter', 'reporter');
  return { t, author, editor, owner, reporter, id: await t.root(author) };
}

const refusal = async (t: Desk['t'], argv: string[]) => {
  try {
    await runAdmin(t.ctx, argv);
  } catch (e) {
    return e as Error & { code?: string; details?: unknown };
  }
  throw new Error('not refused');
};

describe('svc admin show pick and the editor’s API Pick:', () => {
  test('give the same downstream state: the editor’s own labelled reply, the root picked and waiting for the owner', async () => {
    const viaApi = await drafted();
    const r = await viaApi.t.reply(viaApi.editor, viaApi.id, 'Pick: strong hook, clean evidence');
    expect(r.status, r.text).toBe(200);
    const viaAction = await drafted();
    expect(runAdmin(viaAction.t.ctx, ['show', 'drafts'])).toMatchObject([{ root_id: viaAction.id, author: 'author', outside: false }]);
    const out = await runAdmin(viaAction.t.ctx, ['show', 'pick', viaAction.id, '--note', 'strong hook, clean evidence']);
    expect(out).toMatchObject({ root_id: viaAction.id, picked_by: 'editor', status: 'picked', reply: { body: 'Pick: strong hook, clean evidence' } });
    const a = await downstream(viaApi);
    expect(a.item).toMatchObject({ status: 'picked', picks: 1, flags: 0 });
    expect(a.posted).toMatchObject([409, { error: { code: 'SHOW_NOT_PUBLISHABLE' } }]);
    expect(await downstream(viaAction)).toEqual(a);
    expect(runAdmin(viaAction.t.ctx, ['show', 'drafts'])).toEqual([]);
    expect((runAdmin(viaAction.t.ctx, ['show', 'queue']) as { root_id: string }[]).map((q) => q.root_id)).toEqual([viaAction.id]);
    expect(viaAction.t.db.query("SELECT actor, target, reason FROM audit_log WHERE action = 'show pick'").all()).toEqual([
      { actor: 'cli', target: viaAction.id, reason: 'strong hook, clean evidence' },
    ]);
    // Then the owner approves from the shell: published by the reporter like any approved root.
    await runAdmin(viaAction.t.ctx, ['show', 'approve', viaAction.id]);
    expect((await viaAction.t.posted(viaAction.reporter, viaAction.id)).status).toBe(200);
  });

  test('without a note the reply says the desk picked it; refusals: picked by the same editor, flagged, no editor, several editors, --as no editor', async () => {
    const d = await drafted();
    expect(await runAdmin(d.t.ctx, ['show', 'pick', d.id])).toMatchObject({ reply: { body: PICK_TEXT } });
    expect(await refusal(d.t, ['show', 'pick', d.id])).toMatchObject({ code: 'SHOW_NOT_PICKABLE', details: { status: 'picked', picked_by: 'editor' } });
    await d.t.withRole('editor2', 'editor');
    expect((await refusal(d.t, ['show', 'pick', d.id])).message).toContain('--as EDITOR_NAME');
    expect((await refusal(d.t, ['show', 'pick', d.id, '--as', 'owner'])).message).toContain('not a live editor');
    // A second editor's pick adds to the first, as a second API Pick: would.
    expect(await runAdmin(d.t.ctx, ['show', 'pick', d.id, '--as', 'editor2'])).toMatchObject({ picked_by: 'editor2', status: 'picked' });
    expect((await d.t.reply(d.editor, d.id, 'Flag: the source is a mirror')).status).toBe(200);
    await d.t.withRole('editor3', 'editor');
    expect(await refusal(d.t, ['show', 'pick', d.id, '--as', 'editor3'])).toMatchObject({ code: 'SHOW_NOT_PICKABLE', details: { status: 'flagged' } });
    expect(await refusal(d.t, ['show', 'pick', crypto.randomUUID(), '--as', 'editor3'])).toMatchObject({ code: 'NOT_FOUND' });
    const bare = makeShowApp();
    const root = await bare.root(await bare.crew('solo'));
    expect((await refusal(bare, ['show', 'pick', root])).message).toContain('no live account has the editor role');
  });

  test('the drafts are the window’s unpicked, unflagged roots, newest first: an owner’s early Picked: leaves a root a draft', async () => {
    const d = await drafted();
    d.t.clock.advance(60_000);
    const second = await d.t.root(await d.t.crew('second'), SECOND);
    expect((runAdmin(d.t.ctx, ['show', 'drafts']) as { root_id: string }[]).map((r) => r.root_id)).toEqual([second, d.id]);
    expect((await d.t.reply(d.owner, second, 'Picked: yes')).status).toBe(200);
    expect((await d.t.reply(d.editor, d.id, 'Veto: no')).status).toBe(200);
    expect((runAdmin(d.t.ctx, ['show', 'drafts']) as { root_id: string }[]).map((r) => r.root_id)).toEqual([second]);
    // Picked by the desk after the owner's Picked:, it is approved at once and never waits.
    expect(await runAdmin(d.t.ctx, ['show', 'pick', second])).toMatchObject({ status: 'approved' });
    expect(runAdmin(d.t.ctx, ['show', 'queue'])).toEqual([]);
    d.t.clock.advance(8 * 86_400_000);
    await d.t.root(await d.t.crew('third'));
    expect(runAdmin(d.t.ctx, ['show', 'drafts'])).toMatchObject([{ author: 'third' }]);
  });
});

describe('the queue’s kept state (schema 0037: awaiting_owner, kept by trigger)', () => {
  const waiting = (t: Desk['t']) => t.db.query('SELECT root_id FROM show_items WHERE awaiting_owner = 1 ORDER BY created_at').all();

  test('set by the desk’s first pick, cleared for good by any other label; a deleted root leaves the queue', async () => {
    const d = await drafted();
    expect(waiting(d.t)).toEqual([]);
    await d.t.reply(d.editor, d.id, 'Pick: yes');
    await d.t.reply(d.author, d.id, 'Flag: anyone may write this; it counts from the desk only');
    expect(waiting(d.t)).toEqual([{ root_id: d.id }]);
    await d.t.reply(d.editor, d.id, 'Flagged: the chart is wrong');
    expect(waiting(d.t)).toEqual([]);
    await d.t.withRole('editor2', 'editor');
    expect(await refusal(d.t, ['show', 'pick', d.id, '--as', 'editor2'])).toMatchObject({ code: 'SHOW_NOT_PICKABLE' });
    expect(waiting(d.t)).toEqual([]);
    const writer = await d.t.crew('second');
    const second = await d.t.root(writer, SECOND);
    await d.t.reply(d.editor, second, 'Pick');
    expect(runAdmin(d.t.ctx, ['show', 'queue'])).toMatchObject([{ root_id: second }]);
    // Deleted by its author, or removed by an operator: out of the queue (the read keeps to live posts).
    expect((await d.t.call('DELETE', `/v1/posts/${second}`, { key: writer.key })).status).toBe(200);
    expect(runAdmin(d.t.ctx, ['show', 'queue'])).toEqual([]);
    const third = await d.t.root(await d.t.crew('third'), { ...SECOND, body: SECOND.body.replace('busy table', 'large table') });
    await d.t.reply(d.editor, third, 'Pick');
    expect(runAdmin(d.t.ctx, ['show', 'queue'])).toMatchObject([{ root_id: third }]);
    runAdmin(d.t.ctx, ['posts', 'remove', third, '--reason', 'spam']);
    expect(runAdmin(d.t.ctx, ['show', 'queue'])).toEqual([]);
  });

  test('the migration sets it for the roots already waiting', async () => {
    const d = await desk();
    const second = await d.t.root(await d.t.crew('second'), SECOND);
    await d.t.reply(d.editor, second, 'Pick: yes');
    await d.t.reply(d.owner, second, 'Picked: yes');
    d.t.db.exec('UPDATE show_items SET awaiting_owner = 0');
    const sql = MIGRATIONS.find((m) => m.sql.includes('ADD COLUMN awaiting_owner'))!.sql;
    const backfill = sql.slice(
      sql.indexOf('UPDATE show_items SET awaiting_owner = 1'),
      sql.indexOf(';', sql.indexOf('UPDATE show_items SET awaiting_owner = 1')),
    );
    d.t.db.exec(backfill);
    expect(waiting(d.t)).toEqual([{ root_id: d.id }]);
  });
});
