import { z } from 'zod';

const NUL = '\u0000';
const NO_NUL = 'must not contain the character U+0000';
const NO_LONE_SURROGATE = 'must not contain a lone surrogate (U+D800 to U+DFFF without its pair)';

/**
 * Free text as the database can keep it. PostgreSQL text cannot hold U+0000, and
 * a lone surrogate has no UTF-8 form: stored, it would silently become U+FFFD.
 * Both are refused, not left to fail or change in the database. The one
 * definition for every text field, of the public API (server/schemas/common.ts) and
 * of settings, setup and the admin CLI alike.
 */
export const storableText = () =>
  z
    .string()
    .refine((value) => !value.includes(NUL), NO_NUL)
    .refine((value) => !/\p{Cs}/u.test(value), NO_LONE_SURROGATE);

/**
 * Text the app keeps but may not refuse (what a request log records of what was sent),
 * made storable: U+0000 becomes U+FFFD, as a lone surrogate does on its way to the database.
 */
export const storedAsText = (text: string): string => text.replaceAll(NUL, '\uFFFD');
