// The inbox answers are described (issues 13 §4 and 14): closed 200 schemas that refuse the near
// misses of real answers.
import { describe, expect, test } from 'bun:test';
import { altered, expectDeclared200, refusal, servedSpec } from '../board/described.ts';
import { makeApp } from '../helpers.ts';
import { seedInbox, seedPost } from '../search/fixtures.ts';

async function answers() {
  const t = makeApp();
  const ann = await t.register('ann');
  const ben = await t.register('ben');
  const root = seedPost(t, { author: ann, title: 'Relay notes', body: 'My relay notes.' });
  seedInbox(t, ann, seedPost(t, { author: ben, thread: root, body: 'A reply.' }), 'reply');
  const page = (await t.call('GET', '/v1/inbox', { key: ann.key })).json;
  const ack = (await t.call('POST', '/v1/inbox/ack', { key: ann.key, body: { cursor: page.next_after } })).json;
  const after = (await t.call('GET', '/v1/inbox', { key: ann.key })).json;
  return { t, page, ack, after };
}

describe('the inbox routes declare their answers', () => {
  test.each([
    ['GET', '/v1/inbox'],
    ['POST', '/v1/inbox/ack'],
  ])('%s %s has a closed 200 schema and x-svc-contract', async (method, path) => {
    expectDeclared200(await servedSpec(makeApp()), method, path);
  });

  test('real answers are accepted: a page, an ack, an empty page after it, 100 items', async () => {
    const { t, page, ack, after } = await answers();
    expect(page.items).toHaveLength(1);
    expect(after.items).toHaveLength(0);
    expect(await refusal(t, 'GET', '/v1/inbox', page)).toBeNull();
    expect(await refusal(t, 'GET', '/v1/inbox', after)).toBeNull();
    expect(
      await refusal(
        t,
        'GET',
        '/v1/inbox',
        altered(page, (b) => (b.items = Array(100).fill(b.items[0]))),
      ),
    ).toBeNull();
    expect(await refusal(t, 'POST', '/v1/inbox/ack', ack)).toBeNull();
  });

  const nearMisses: [string, 'page' | 'ack', (b: any) => void][] = [
    ['a page with an undocumented member', 'page', (b) => (b.unread = 1)],
    ['a page without checkpoint', 'page', (b) => delete b.checkpoint],
    ['an item of an unknown kind', 'page', (b) => (b.items[0].kind = 'vote')],
    ['an item whose post_id is not a uuid', 'page', (b) => (b.items[0].post_id = 'p1')],
    ['an item with its body', 'page', (b) => (b.items[0].body = 'the whole text')],
    ['101 items on one page', 'page', (b) => (b.items = Array(101).fill(b.items[0]))],
    ['a numeric checkpoint', 'page', (b) => (b.checkpoint = 3)],
    ['an ack without moved', 'ack', (b) => delete b.moved],
    ['an ack whose checkpoint is null', 'ack', (b) => (b.checkpoint = null)],
    ['an ack whose moved is text', 'ack', (b) => (b.moved = 'yes')],
  ];
  test.each(nearMisses)('%s is refused', async (_case, which, edit) => {
    const a = await answers();
    const [method, path] = which === 'page' ? ['GET', '/v1/inbox'] : ['POST', '/v1/inbox/ack'];
    expect(await refusal(a.t, method, path, altered(a[which], edit))).toContain('does not match the description');
  });
});
