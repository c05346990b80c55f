import { createHash, randomBytes } from 'node:crypto';

/** Every key starts with this, so leaked keys are easy to recognise and scan for. */
export const KEY_PREFIX = 'tk_';
const KEY_PATTERN = /^tk_[0-9a-f]{40}$/;

export function generateKeySecret(): string {
  return KEY_PREFIX + randomBytes(20).toString('hex');
}

export function isWellFormedKey(candidate: string): boolean {
  return KEY_PATTERN.test(candidate);
}

export function hashKey(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** What a list may show of a key: its prefix and last four characters. */
export function keyHint(secret: string): string {
  return `${KEY_PREFIX}…${secret.slice(-4)}`;
}
