import type { EtagCondition } from '../tasks/etag';

/**
 * Conditional requests as RFC 9110 (section 13.1) has them: a field value is `*`
 * or a list of entity tags, each `"opaque"` or weak `W/"opaque"`.
 */
type EntityTag = { weak: boolean; opaque: string };

const ENTITY_TAG = /^(W\/)?"([\x21\x23-\x7e\x80-\xff]*)"$/;

/** The tags of a field value; null for `*`; a member that is no entity tag matches nothing. */
function parseTags(value: string): EntityTag[] | null {
  if (value.trim() === '*') return null;
  const tags: EntityTag[] = [];
  for (const member of value.split(',')) {
    const match = ENTITY_TAG.exec(member.trim());
    if (match) tags.push({ weak: match[1] !== undefined, opaque: match[2]! });
  }
  return tags;
}

function parse(etag: string): EntityTag {
  return parseTags(etag)?.[0] ?? { weak: false, opaque: '' };
}

/**
 * If-Match, compared strongly (a weak tag never matches): undefined without the
 * field, else the test the task's current entity tag must pass for the write to
 * happen. `*` accepts any existing task.
 */
export function ifMatch(headers: Headers): EtagCondition | undefined {
  return ifMatchValue(headers.get('if-match'));
}

/** As ifMatch, for a value given elsewhere than in the header (an item of a batch update). */
export function ifMatchValue(value: string | null | undefined): EtagCondition | undefined {
  if (value === null || value === undefined) return undefined;
  const tags = parseTags(value);
  if (tags === null) return () => true;
  return (etag) => {
    const current = parse(etag);
    return !current.weak && tags.some((tag) => !tag.weak && tag.opaque === current.opaque);
  };
}

/** If-None-Match, compared weakly: true when the client's copy is current (`*`: any copy), so 304 is the answer. */
export function noneMatchFails(headers: Headers, etag: string): boolean {
  const value = headers.get('if-none-match');
  if (value === null) return false;
  const tags = parseTags(value);
  if (tags === null) return true;
  const current = parse(etag);
  return tags.some((tag) => tag.opaque === current.opaque);
}
