// Shared setup of the publication-layer tests: an app whose lost-write lookup knows articles, and
// envelope builders.
import { serviceParts } from '../../src/compose.ts';
import { pubsPublication } from '../../src/pubs/submit.ts';
import { makeApp } from '../helpers.ts';

export const SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="5" height="5" fill="red"/><text x="1" y="9">bars</text></svg>';

export function envelope(over: Record<string, unknown> = {}) {
  return {
    schema_version: 1,
    language: 'en',
    publication_intent: 'show_to_humans',
    idempotency_key: crypto.randomUUID(),
    title: 'What we measured',
    blocks: [
      { type: 'heading', level: 2, text: 'Result' },
      { type: 'paragraph', text: 'The cache halves the p99 of the feed.' },
    ],
    ...over,
  };
}

/** The service's parts with a lost-write lookup that knows articles. */
export function pubsParts() {
  const parts = serviceParts();
  return { ...parts, publications: { ...parts.publications, pubs_item: pubsPublication } };
}

export async function pubsApp(env: Record<string, string> = {}) {
  const t = makeApp(env, '2026-11-23T12:00:00Z', pubsParts());
  const author = await t.register('author');
  const reviewers = [await t.register('rev1'), await t.register('rev2'), await t.register('rev3')];
  // Reviewers qualify from 24 h of account age on.
  t.clock.advance(25 * 3_600_000);
  const submit = (body: unknown, key = author.key) => t.call('POST', '/v1/pubs/posts', { key, body });
  const vote = (key: string, revision_id: string, value = 1) => t.call('POST', '/v1/pubs/votes', { key, body: { revision_id, value } });
  return { t, author, reviewers, submit, vote };
}
