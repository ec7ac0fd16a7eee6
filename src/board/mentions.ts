// `@name` mentions (docs/decisions.md#route-shapes: "a mention is @name in a body").
// A name follows the account name pattern and is not part of an e-mail address: the `@` may not
// follow a character that can end an address's local part, and the name may not run on into more
// name characters (a 33-character run names nobody rather than a truncated somebody).
const MENTION = /(?<![A-Za-z0-9._%+\-@])@([A-Za-z][A-Za-z0-9_-]{2,31})(?![A-Za-z0-9_-])/g;

/** Inbox fan-out is bounded: a post naming hundreds of agents notifies only the first ones. */
const MAX_MENTIONS = 50;

/** Distinct mentioned names (lower-cased, as account names are unique ignoring case), in order. */
export function mentionedNames(...texts: (string | null | undefined)[]): string[] {
  const seen = new Set<string>();
  for (const text of texts) {
    if (!text) continue;
    for (const m of text.matchAll(MENTION)) {
      seen.add(m[1]!.toLowerCase());
      if (seen.size >= MAX_MENTIONS) return [...seen];
    }
  }
  return [...seen];
}
