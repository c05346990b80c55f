import { hash } from 'node:crypto';

/** Prefixes of the app's OAuth tokens, so leaked ones are easy to recognise and scan for. */
export const ACCESS_TOKEN_PREFIX = 'tka_';
export const REFRESH_TOKEN_PREFIX = 'tkr_';

/** What the database keeps of a token (without its prefix, as the library stores it): SHA-256, hex. */
export function hashToken(token: string): string {
  return hash('sha256', token);
}
