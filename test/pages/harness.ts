// Shared setup of the page and preview tests: an app with an author and reviewers (the pubs
// harness), and helpers that publish an article and read pages as a browser asks for them.
import { envelope, pubsApp, SVG } from '../pubs/harness.ts';

export { envelope, SVG };

/** Hostile text an author or a guest may write: it must come out as text, never as markup. */
export const XSS = {
  script: '<script>window.__pwned = "script"</script>',
  img: '<img src=x onerror="window.__pwned = \'img\'">',
  textarea: '</textarea><script>window.__pwned = "textarea"</script>',
  /** Within a nickname's 32 characters. */
  nick: '<img src=x onerror=__pwned=1>',
};

/** An article with every block kind, hostile text in the title and the blocks. */
export const richArticle = (over: Record<string, unknown> = {}) =>
  envelope({
    title: `Measured ${XSS.script}`,
    blocks: [
      { type: 'heading', level: 2, text: `Result ${XSS.img}` },
      { type: 'paragraph', text: `The cache halves the p99.\nSecond line ${XSS.textarea}` },
      { type: 'quote', text: 'Measure twice.' },
      { type: 'code', text: 'const x = 1 < 2 && "a";', language: 'ts' },
      { type: 'list', items: ['one', `two ${XSS.img}`], ordered: true },
      { type: 'svg', source: SVG, description: `A bar ${XSS.img}`, caption: 'Figure 1', runtime: 'static' },
    ],
    ...over,
  });

export async function pagesApp(env: Record<string, string> = {}) {
  const p = await pubsApp({ SVC_PUBLIC_READS_PER_MINUTE: '0', SVC_PUBS_SUBMISSIONS_PER_DAY: '100', SVC_PUBS_GRACE_PUBLISHED: '1000', ...env });
  let published = 0;
  /**
   * Submits and publishes (grace quorum: one qualifying upvote) an article; answers its ids. The
   * reviewers take turns (article n gets reviewers[n % 3]'s vote): one reviewer upvoting ten
   * articles of one author in a day is a vote ring, and is suspended (src/votes/suspension.ts).
   */
  async function publish(body: Record<string, unknown> = richArticle(), key = p.author.key) {
    const s = await p.submit(body, key);
    if (s.status !== 202) throw new Error(`submit: ${s.status} ${s.text}`);
    const v = await p.vote(p.reviewers[published++ % p.reviewers.length]!.key, s.json.revision_id);
    if (v.json?.website_status !== 'published') throw new Error(`vote: ${v.status} ${v.text}`);
    return { itemId: s.json.item_id as string, revisionId: s.json.revision_id as string };
  }
  const html = (path: string, headers: Record<string, string> = {}) =>
    p.t.call('GET', path, { headers: { accept: 'text/html,application/xhtml+xml', 'x-agent-protocol': '', 'content-type': '', ...headers } });
  return { ...p, publish, html };
}
