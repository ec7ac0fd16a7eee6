// The Show desk on the console's Queue: an editor signs in to see it and nothing else; the owner
// approves and rejects there, which writes the owner's own labelled reply (src/show/admin.ts).
import { describe, expect, test } from 'bun:test';
import { makeShowApp } from '../show/harness.ts';
import { act, send, signedIn } from './console-harness.ts';

async function desk() {
  const t = makeShowApp();
  const author = await t.crew('author');
  const editor = await t.withRole('editor', 'editor');
  const id = await t.root(author);
  const pick = await t.reply(editor, id, 'Pick: <b>strong</b> hook');
  if (pick.status !== 200) throw new Error(pick.text);
  return { t, id };
}

describe('the Show desk on the console', () => {
  test('an editor signs in and sees the Show desk only; every other page and every owner action is refused', async () => {
    const { t, id } = await desk();
    const s = await signedIn(t, 'deskhand', 'editor');
    const queue = await send(t, 'GET', '/console/queue', { cookie: s.cookie });
    expect(queue.status).toBe(200);
    expect(queue.text).toContain('Show desk: picked, waiting for the owner (1)');
    expect(queue.text).toContain(id);
    expect(queue.text).toContain('Pick: &lt;b&gt;strong&lt;/b&gt; hook');
    expect(queue.text).not.toContain('E-mails awaiting approval');
    expect(queue.text).not.toContain('/console/act/show-approve');
    expect(queue.text).not.toContain('href="/console/board"');
    for (const page of ['board', 'agents', 'outreach', 'log', 'health']) {
      const r = await send(t, 'GET', `/console/${page}`, { cookie: s.cookie });
      expect([page, r.status]).toEqual([page, 403]);
      expect(r.text).not.toContain('<h1>Log</h1>');
    }
    const approve = await act(t, s, 'show approve', { root_id: id });
    expect([approve.status, approve.error]).toEqual([403, 'Only owner may show approve.']);
    const remove = await act(t, s, 'posts remove', { post_id: id, reason: 'spam' });
    expect(remove.status).toBe(403);
    // A form's way back to a page the editor may not open lands on the queue (act() sends back=log).
    expect(remove.text).not.toContain('<h1>Log</h1>');
    expect((await act(t, s, 'show queue', {})).result).toMatchObject([{ root_id: id, desk_picks: [{ by: 'editor' }] }]);
    expect(t.db.query("SELECT count(*) AS n FROM audit_log WHERE action IN ('show approve', 'posts remove')").get()).toEqual({ n: 0 });
  });

  test('the owner approves from the Queue: the root is approved as by an owner’s Picked: reply, and leaves the desk', async () => {
    const { t, id } = await desk();
    const s = await signedIn(t);
    const queue = await send(t, 'GET', '/console/queue', { cookie: s.cookie });
    expect(queue.text).toContain('E-mails awaiting approval');
    expect(queue.text).toContain('/console/act/show-approve');
    expect(queue.text).toContain('/console/act/show-reject');
    const r = await act(t, s, 'show approve', { root_id: id });
    expect(r.status).toBe(200);
    expect(r.result).toMatchObject({ root_id: id, decided_by: 'boss', status: 'approved', reply: { body: 'Picked: approved by the owner.' } });
    const doc = await t.doc();
    expect(doc.items.find((i: { id: string }) => i.id === id)).toMatchObject({ status: 'approved', picks: 2, flags: 0 });
    expect((await send(t, 'GET', '/console/queue', { cookie: s.cookie })).text).toContain('Show desk: picked, waiting for the owner (0)');
    expect(t.db.query("SELECT actor, target FROM audit_log WHERE action = 'show approve'").all()).toEqual([{ actor: 'boss', target: id }]);
  });

  test('a reject needs a public reason that passes the content rules; the console decides as the signed-in owner only', async () => {
    const { t, id } = await desk();
    const s = await signedIn(t);
    await t.withRole('other', 'owner');
    expect((await act(t, s, 'show reject', { root_id: id })).status).toBe(400);
    expect((await act(t, s, 'show reject', { root_id: id, reason: 'This is going to the moon' })).status).toBe(422);
    expect((await act(t, s, 'show approve', { root_id: id, as: 'other' })).error).toContain('signed-in owner');
    const r = await act(t, s, 'show reject', { root_id: id, reason: 'the evidence is a mirror' });
    expect(r.result).toMatchObject({ status: 'flagged', reply: { body: 'Veto: the evidence is a mirror' } });
  });
});

describe('the desk’s pick on the console', () => {
  async function drafted() {
    const t = makeShowApp();
    const author = await t.crew('author');
    return { t, id: await t.root(author) };
  }

  test('an editor sees the drafts with a pick; the pick is the editor’s own Pick: reply, and the root moves to the owner’s queue', async () => {
    const { t, id } = await drafted();
    const s = await signedIn(t, 'deskhand', 'editor');
    const queue = await send(t, 'GET', '/console/queue', { cookie: s.cookie });
    expect(queue.text).toContain('Show desk: drafts to pick, last 7 days (1)');
    expect(queue.text).toContain('/console/act/show-pick');
    const bad = await act(t, s, 'show pick', { root_id: id, note: 'This is going to the moon' });
    expect(bad.status).toBe(422);
    const r = await act(t, s, 'show pick', { root_id: id, note: 'a <b>clean</b> hook' });
    expect([r.status, r.error]).toEqual([200, undefined]);
    expect(r.result).toMatchObject({ root_id: id, picked_by: 'deskhand', status: 'picked', reply: { body: 'Pick: a <b>clean</b> hook' } });
    expect(r.text).toContain('Show desk: picked, waiting for the owner (1)');
    expect(r.text).toContain('Show desk: drafts to pick, last 7 days (0)');
    expect(r.text).not.toContain('<b>clean</b>');
    const again = await act(t, s, 'show pick', { root_id: id });
    expect([again.status, again.error]).toEqual([409, `deskhand picked Show root ${id} already.`]);
    expect((await t.doc()).items.find((i: { id: string }) => i.id === id)).toMatchObject({ status: 'picked', picks: 1 });
    expect(t.db.query("SELECT actor, target, reason FROM audit_log WHERE action = 'show pick'").all()).toEqual([
      { actor: 'deskhand', target: id, reason: 'a <b>clean</b> hook' },
    ]);
  });

  test('an owner without the editor role is offered it; with it, the owner picks and approves from the browser: the reporter may publish', async () => {
    const { t, id } = await drafted();
    const reporter = await t.withRole('reporter', 'reporter');
    const s = await signedIn(t);
    let queue = await send(t, 'GET', '/console/queue', { cookie: s.cookie });
    expect(queue.text).toContain('take the editor role to pick here');
    expect(queue.text).not.toContain('/console/act/show-pick');
    const refused = await act(t, s, 'show pick', { root_id: id });
    expect([refused.status, refused.error]).toEqual([403, 'Only editor may show pick.']);
    const granted = await act(t, s, 'role grant', { name: 'boss', role: 'editor' });
    // The answer already shows the session with the role it just took.
    expect([granted.status, granted.text.includes('boss (editor, owner)')]).toEqual([200, true]);
    queue = await send(t, 'GET', '/console/queue', { cookie: s.cookie });
    expect(queue.text).toContain('/console/act/show-pick');
    expect((await act(t, s, 'show pick', { root_id: id })).result).toMatchObject({ picked_by: 'boss', status: 'picked' });
    expect((await act(t, s, 'show approve', { root_id: id })).result).toMatchObject({ decided_by: 'boss', status: 'approved' });
    expect((await t.posted(reporter, id)).status).toBe(200);
  });

  test('an operator sees the drafts but picks nothing', async () => {
    const { t, id } = await drafted();
    const s = await signedIn(t, 'opsy', 'operator');
    const queue = await send(t, 'GET', '/console/queue', { cookie: s.cookie });
    expect(queue.text).toContain(id);
    expect(queue.text).toContain('The editor’s desk picks.');
    expect(queue.text).not.toContain('/console/act/show-pick');
    expect((await act(t, s, 'show pick', { root_id: id })).status).toBe(403);
  });
});
