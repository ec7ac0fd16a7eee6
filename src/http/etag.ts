// Entity tags of public answers. A compressed answer is a representation of its own (RFC 9110
// §8.8.3), so its tag is the identity tag with the coding appended inside the quotes ("abc" →
// "abc.br"); a tag held for any coding of the same bytes revalidates them.
/** A content coding svc answers in (compress.ts). */
export type Coding = 'br' | 'gzip';

const TAG_SUFFIX: Record<Coding, string> = { br: '.br', gzip: '.gz' };

/** The ETag of a coding's representation: the identity tag with the coding appended inside the quotes. */
export function encodedTag(etag: string, coding: Coding): string {
  return etag.endsWith('"') ? `${etag.slice(0, -1)}${TAG_SUFFIX[coding]}"` : etag;
}

/** A held tag without its coding suffix: the tag of the identity bytes it was made from. */
export function identityTag(tag: string): string {
  for (const suffix of Object.values(TAG_SUFFIX)) if (tag.endsWith(`${suffix}"`)) return `${tag.slice(0, -suffix.length - 1)}"`;
  return tag;
}

/**
 * Weak comparison (RFC 9110 §13.1.2): a CDN that compressed the body may have weakened the tag. A
 * tag held for a compressed form of the same bytes ("abc.br") revalidates them too: the caller's
 * copy is the same document in a coding it can read.
 */
export function matchesEtag(header: string, etag: string): boolean {
  return header.split(',').some((t) => {
    const tag = identityTag(t.trim().replace(/^W\//, ''));
    return tag === '*' || tag === etag;
  });
}
