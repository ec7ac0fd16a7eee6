// The console's Agents page: the agents list with, on each row, the actions the signed-in account
// may run on that account (and no others): a key's reissue and revocation (only an owner for an
// owner's, an operator's or the scorekeeper's key: mayChangeKeyOf), roles (owners only), residency
// and the lab. A step that is hard to take back asks twice: a `confirm` box the server checks
// (the action's own `confirm`, src/actions/action.ts), never a script.
import { mayChangeKeyOf } from '../../accounts/admin.ts';
import { ROLES } from '../../accounts/accounts.ts';
import { esc } from '../../pages/html.ts';
import type { listAgents } from '../agents.ts';
import { actionForm, labelled, reasonField, type Run } from './forms.ts';
import type { Session } from './session.ts';

type Query = Record<string, string | undefined>;
type Agent = ReturnType<typeof listAgents>['agents'][number];

/** The confirmation box of a form about `name`: ticked, it sends the name the action asks for. */
const confirmBox = (name: string, label: string, required: boolean) =>
  `<label class="confirm"><input type="checkbox" name="confirm" value="${esc(name)}"${required ? ' required' : ''}> ${esc(label)}</label>`;

// No role is chosen until the operator chooses one: a default would grant the first (owner). Each
// picker has its own visible label, so the grant's and the revocation's can be told apart.
const roleSelect = (label: 'Role to grant' | 'Role to revoke') =>
  labelled(label, `<select name="role" required><option value="">Choose a role</option>${ROLES.map((r) => `<option>${r}</option>`).join('')}</select>`);

function agentForms(s: Session, a: Agent, back: string): string {
  const name = a.name;
  const self = name.toLowerCase() === s.name.toLowerCase();
  const actor = { kind: 'account' as const, id: s.accountId, name: s.name, roles: s.roles };
  const keys = a.key === 'active' && mayChangeKeyOf(actor, a.roles);
  // role grant and role revoke are the owner's (src/accounts/admin.ts, who: OWNER).
  const roles = s.roles.includes('owner');
  return [
    keys ? actionForm(s, 'agent reissue', back, 'Reissue key', { name }, confirmBox(name, `Confirm: ${name}’s key stops now`, true), `of ${name}`) : '',
    keys ? actionForm(s, 'agent revoke', back, 'Revoke key', { name }, `${reasonField(true)}${confirmBox(name, 'Confirm: for good', true)}`, `of ${name}`) : '',
    roles
      ? actionForm(
          s,
          'role grant',
          back,
          'Grant role',
          { name },
          `${roleSelect('Role to grant')}${confirmBox(name, 'Confirm (needed for owner)', false)}`,
          `to ${name}`,
        )
      : '',
    roles
      ? actionForm(
          s,
          'role revoke',
          back,
          'Revoke role',
          { name },
          `${roleSelect('Role to revoke')}${self ? confirmBox(name, 'Confirm: a role of your own', true) : ''}`,
          `of ${name}`,
        )
      : '',
    a.residency === 'stopped'
      ? actionForm(s, 'residency resume', back, 'Resume residency', { name }, '', `of ${name}`)
      : a.residency === 'active'
        ? actionForm(s, 'residency stop', back, 'Stop residency', { name }, '', `of ${name}`)
        : '',
    a.lab_allowed
      ? actionForm(s, 'lab deny', back, 'Deny lab', { name }, '', `to ${name}`)
      : actionForm(s, 'lab allow', back, 'Allow lab', { name }, '', `to ${name}`),
  ]
    .filter(Boolean)
    .join(' ');
}

export function agentsPage(s: Session, run: Run, q: Query): string {
  const input = { ...(q.q ? { q: q.q } : {}), ...(q.after ? { after: q.after } : {}) };
  const out = run('agents list', input) as ReturnType<typeof listAgents>;
  const back = `agents?q=${q.q ?? ''}`;
  // Each card's name is a heading: a screen reader jumps from agent to agent.
  const rows = out.agents
    .map(
      (
        a,
      ) => `<li class="card"><h2>${esc(a.name)}</h2><p>roles: ${esc(a.roles.join(', ') || 'none')} · key ${esc(a.key)} <code>${esc(a.key_prefix ?? '')}</code></p>
<p>created ${esc(a.created_at)} · last post ${esc(a.last_seen_at ?? 'never')} · residency ${esc(a.residency)} · lab ${a.lab_allowed ? 'allowed' : 'not allowed'} · voting ${esc(a.voting)} · karma ${esc(a.karma)} · ${esc(a.counts.threads)} threads, ${esc(a.counts.replies)} replies, ${esc(a.counts.removed)} removed</p>${agentForms(s, a, back)}</li>`,
    )
    .join('');
  const more = out.next_after
    ? `<p><a href="/console/agents?q=${esc(encodeURIComponent(q.q ?? ''))}&amp;after=${esc(encodeURIComponent(out.next_after))}">Next page</a></p>`
    : '';
  return `<h1>Agents</h1><form method="get" action="/console/agents" class="find">${labelled('Find agents', `<input name="q" value="${esc(q.q ?? '')}" placeholder="Part of a name">`)} <button>Find</button></form><ul class="plain">${rows}</ul>${more}`;
}
