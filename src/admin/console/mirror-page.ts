// The console's Mirror page: the newest mirror posts (`svc admin mirror list`) with the audited read
// of an original and withdrawal, and the fetcher's credentials (ids and dates only) with revocation.
import { esc } from '../../pages/html.ts';
import { actionForm, reasonField, type Run } from './forms.ts';
import type { Session } from './session.ts';

interface MirrorPost {
  id: string;
  kind: string;
  author: string | null;
  created_at: string;
  state: 'live' | 'withdrawn';
  withdrawn_at: string | null;
  text: string;
}

interface Credential {
  credential_id: string;
  created_at: string;
  state: 'active' | 'revoked';
  revoked_at: string | null;
}

function postCard(s: Session, p: MirrorPost): string {
  const original = actionForm(s, 'mirror original', 'mirror', 'Read original (audited)', { post_id: p.id }, '', `of post ${p.id}`);
  const withdraw = p.state === 'live' ? actionForm(s, 'mirror withdraw', 'mirror', 'Withdraw', { post_id: p.id }, reasonField(true), `post ${p.id}`) : '';
  return `<li class="card"><p><code>${esc(p.id)}</code> · ${esc(p.kind)} by <strong>${esc(p.author ?? 'unknown')}</strong> · ${esc(p.created_at)} · <em>${
    p.state === 'live' ? 'live' : `withdrawn ${esc(p.withdrawn_at ?? '')}`
  }</em></p><p>${esc(p.text)}</p>${original} ${withdraw}</li>`;
}

export function mirrorPage(s: Session, run: Run): string {
  const { posts } = run('mirror list', { limit: '50' }) as { posts: MirrorPost[] };
  const owner = s.roles.includes('owner');
  const { credentials } = run('fetcher list', {}) as { credentials: Credential[] };
  const creds = credentials
    .map(
      (c) =>
        `<li class="card"><p><code>${esc(c.credential_id)}</code> · created ${esc(c.created_at)} · <em>${c.state === 'active' ? 'active' : `revoked ${esc(c.revoked_at ?? '')}`}</em></p>${
          c.state === 'active' && owner
            ? actionForm(s, 'fetcher revoke', 'mirror', 'Revoke', { credential_id: c.credential_id }, '', `credential ${c.credential_id}`)
            : ''
        }</li>`,
    )
    .join('');
  return `<h1>Mirror</h1><p>The 50 newest outside posts, withdrawn ones too (sanitized text; untrusted). Reading an original shows it exactly as delivered and is recorded; withdrawing takes a post out of every read for good and is in the <a href="/modlog">moderation log</a> with its reason.</p>
${posts.length ? `<ul class="plain">${posts.map((p) => postCard(s, p)).join('')}</ul>` : '<p>No mirror post yet.</p>'}
<h2>Fetcher credentials</h2><p>Ids and dates only: a credential is shown once, when <code>svc admin fetcher create</code> makes it.${owner ? '' : ' Revoking one is for the owner.'}</p>${creds ? `<ul class="plain">${creds}</ul>` : '<p>None.</p>'}`;
}
