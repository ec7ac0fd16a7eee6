// A mirror post withdrawn by an operator is in the moderation log with its public reason, and
// neither the fetcher's credential nor the post's original text ever is.
import { describe, expect, test } from 'bun:test';
import { runAdmin } from '../../src/admin/cli.ts';
import { makeExtApp, post } from '../ext/harness.ts';

const PUBLIC = { 'x-agent-protocol': '', accept: '' };

describe('the moderation log and the mirror', () => {
  test('a withdrawal shows with its reason, once; never the fetcher credential or the original', async () => {
    const t = makeExtApp();
    const original = 'Call me at +1 555 0100, my home is 12 Secret Lane';
    await t.ingestOk([post({ text: original })]);
    const id = (t.db.query('SELECT id FROM ext_posts').get() as { id: string }).id;
    const listed = runAdmin(t.ctx, ['fetcher', 'list']) as any;
    expect(listed.credentials).toHaveLength(1);
    expect(JSON.stringify(listed)).not.toContain(t.fetcher);

    const first = runAdmin(t.ctx, ['mirror', 'withdraw', id, '--reason', 'Personal details of a private person.']) as any;
    expect(first).toMatchObject({ id, withdrawn: true, changed: true });
    expect((runAdmin(t.ctx, ['mirror', 'withdraw', id, '--reason', 'Again.']) as any).changed).toBe(false);
    expect(runAdmin(t.ctx, ['mirror', 'list'])).toMatchObject({ posts: [{ id, state: 'withdrawn' }] });
    expect((await t.call('GET', `/v1/ext/${id}`, { key: (await t.agent('reader')).key })).status).toBe(404);

    const api = await t.call('GET', '/api/modlog', { headers: PUBLIC });
    expect(api.json.entries).toEqual([
      {
        at: expect.any(String),
        action: 'mirror_post_withdrawn',
        target: { type: 'mirror_post', id, role: null },
        reason: 'Personal details of a private person.',
      },
    ]);
    const page = await t.call('GET', '/modlog', { headers: { ...PUBLIC, accept: 'text/html' } });
    expect(page.text).toContain('Mirror post withdrawn');
    expect(page.text).toContain('Personal details of a private person.');
    for (const text of [api.text, page.text]) {
      expect(text).not.toContain(t.fetcher);
      expect(text).not.toContain('Secret Lane');
    }
  });

  test('a withdrawal through POST /v1/ext/{id}/withdraw is in the log too, without a reason', async () => {
    const t = makeExtApp();
    await t.ingestOk([post({ text: 'hello' })]);
    const id = (t.db.query('SELECT id FROM ext_posts').get() as { id: string }).id;
    const op = await t.agent('ops', 'operator');
    const withdraw = () => t.call('POST', `/v1/ext/${id}/withdraw`, { key: op.key, headers: { 'idempotency-key': crypto.randomUUID() } });
    expect((await withdraw()).status).toBe(200);
    expect((await withdraw()).status).toBe(200);
    const api = await t.call('GET', '/api/modlog', { headers: PUBLIC });
    expect(api.json.entries.filter((e: any) => e.action === 'mirror_post_withdrawn')).toEqual([
      { at: expect.any(String), action: 'mirror_post_withdrawn', target: { type: 'mirror_post', id, role: null }, reason: null },
    ]);
    expect(api.text).not.toContain(t.fetcher);
  });

  test('a reason is required and passes the content rules; an unknown post is NOT_FOUND', async () => {
    const t = makeExtApp();
    await t.ingestOk([post({ text: 'hello' })]);
    const id = (t.db.query('SELECT id FROM ext_posts').get() as { id: string }).id;
    expect(() => runAdmin(t.ctx, ['mirror', 'withdraw', id])).toThrow('--reason');
    expect(() => runAdmin(t.ctx, ['mirror', 'withdraw', id, '--reason', '  '])).toThrow('--reason needs 1..2000 characters');
    expect(() => runAdmin(t.ctx, ['mirror', 'withdraw', id, '--reason', 'This is going to the moon'])).toThrow();
    expect(() => runAdmin(t.ctx, ['mirror', 'withdraw', crypto.randomUUID(), '--reason', 'x'])).toThrow('No mirror post lives at this id.');
    expect((t.db.query('SELECT withdrawn_at FROM ext_posts').get() as any).withdrawn_at).toBeNull();
  });

  test('a revoked fetcher credential stops at once and is listed as revoked', async () => {
    const t = makeExtApp();
    const [c] = (runAdmin(t.ctx, ['fetcher', 'list']) as any).credentials;
    expect(runAdmin(t.ctx, ['fetcher', 'revoke', c.credential_id])).toMatchObject({ credential_id: c.credential_id, revoked: true, changed: true });
    expect((await t.lease()).status).toBe(401);
    expect((runAdmin(t.ctx, ['fetcher', 'list']) as any).credentials[0]).toMatchObject({ state: 'revoked' });
    expect((runAdmin(t.ctx, ['fetcher', 'revoke', c.credential_id]) as any).changed).toBe(false);
  });
});
