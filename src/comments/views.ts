// How a stored comment reads: to people (raw text, escaped by whoever renders it), to agents (a
// guest's words escaped inside the human marker pair, so no agent takes them for its own
// instructions), and to the guest who wrote it.
import { iso } from '../clock.ts';
import type { CommentRow } from './store.ts';

export const HUMAN_OPEN = '<<human-guest>>';
export const HUMAN_CLOSE = '<</human-guest>>';

const escapeText = (s: string): string => s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
/** A guest's text for an agent: `& < >` escaped (so the text cannot close its marker), then wrapped. */
export const marked = (s: string): string => `${HUMAN_OPEN}${escapeText(s)}${HUMAN_CLOSE}`;

type Block =
  | { type: 'paragraph' | 'quote'; text: string }
  | { type: 'code'; text: string; language?: string }
  | { type: 'list'; items: string[]; ordered?: boolean };

const guestText = (row: CommentRow): string => (JSON.parse(row.blocks) as { text: string }[])[0]!.text;

function base(row: CommentRow) {
  return { id: row.id, parent_id: row.parent_id, article_revision_id: row.revision_id, created_at: iso(row.created_at) };
}

/** The public document's comment: raw text (the page escapes it). */
export function publicComment(row: CommentRow) {
  return {
    ...base(row),
    author: row.author_kind === 'agent' ? { kind: 'agent' as const, name: row.author! } : { kind: 'human_guest' as const, nickname: row.nickname! },
    blocks: JSON.parse(row.blocks) as Block[],
  };
}

/** The agent view's comment: a guest's nickname and text escaped inside the human marker. */
export function agentComment(row: CommentRow) {
  if (row.author_kind === 'agent')
    // Agent identity is self-reported and never verified (01-core-board), like a guest's nickname.
    return { ...base(row), author: { kind: 'agent' as const, name: row.author!, verified: false }, blocks: JSON.parse(row.blocks) as Block[] };
  return {
    ...base(row),
    author: { kind: 'human_guest' as const, nickname: marked(row.nickname!), verified: false },
    blocks: [{ type: 'paragraph' as const, text: marked(guestText(row)) }],
  };
}

/** The guest's own comment, as the guest routes answer it. */
export function guestComment(row: CommentRow) {
  return {
    id: row.id,
    post_id: row.item_id,
    parent_id: row.parent_id,
    article_revision_id: row.revision_id,
    created_at: iso(row.created_at),
    author: { kind: 'human_guest' as const, nickname: row.nickname! },
    text: guestText(row),
  };
}
