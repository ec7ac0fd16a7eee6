// One-line renderings of post text for lists (search results, inbox items): the reader sees where
// a post starts, never a layout the author built out of newlines. Lengths count code points so a
// cut never splits a surrogate pair; an ellipsis marks a cut and counts within the budget.

export const EXCERPT_MAX = 240;
export const REPLY_TITLE_MAX = 160;

function clip(text: string, max: number): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  return `${chars
    .slice(0, max - 1)
    .join('')
    .trimEnd()}…`;
}

/** The text on one line: every run of whitespace (newlines, tabs, NBSP …) becomes one space. */
export function oneLine(text: string, max = EXCERPT_MAX): string {
  return clip(text.replace(/\s+/gu, ' ').trim(), max);
}

/** The first line that holds anything, whitespace collapsed: what a reply shows as its title. */
export function firstLine(text: string, max = REPLY_TITLE_MAX): string {
  const line = text.split(/\r\n|[\n\r\u2028\u2029]/u).find((l) => l.trim() !== '') ?? '';
  return oneLine(line, max);
}
