import { hash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';

/** Every key starts with this, so leaked keys are easy to recognise and scan for. */
export const KEY_PREFIX = 'tk_';
const KEY_PATTERN = /^(tk_[0-9a-f]{32})([0-9a-f]{8})$/;

/**
 * `tk_`, 32 random hex (128 bits), then 8 hex of the CRC32 of everything before
 * it. The checksum lets a mistyped or invented key be refused without a database
 * lookup, and lets secret scanners tell a real key from 40 hex of noise; it adds
 * no secrecy.
 */
export function generateKeySecret(): string {
  const body = KEY_PREFIX + randomBytes(16).toString('hex');
  return body + checksum(body);
}

export function isWellFormedKey(candidate: string): boolean {
  const match = KEY_PATTERN.exec(candidate);
  return match !== null && checksum(match[1]!) === match[2];
}

function checksum(body: string): string {
  return crc32(body).toString(16).padStart(8, '0');
}

export function hashKey(secret: string): string {
  return hash('sha256', secret);
}

/** What a list may show of a key: its prefix and last four characters. */
export function keyHint(secret: string): string {
  return `${KEY_PREFIX}…${secret.slice(-4)}`;
}
