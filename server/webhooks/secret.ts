import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { appSecret } from '../app-secret';

/** A Standard Webhooks signing secret: `whsec_` and 24 random bytes in base64. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

// A key of its own, derived from the app secret, so the secret sealed here is not
// readable with any key the app uses for something else.
function sealingKey(): Buffer {
  return createHmac('sha256', appSecret()).update('webhook-signing-secret').digest();
}

/**
 * The signing secret must be recovered to sign each delivery, so it cannot be
 * hashed like an API key: it is stored sealed with AES-256-GCM, as
 * `v1.<iv>.<tag>.<ciphertext>` in base64url.
 */
export function sealSecret(secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealingKey(), iv);
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), sealed].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
}

export function openSecret(stored: string): string {
  const [version, iv, tag, sealed] = stored.split('.');
  if (version !== 'v1' || !iv || !tag || !sealed) throw new Error('Unreadable webhook secret');
  const decipher = createDecipheriv('aes-256-gcm', sealingKey(), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64url')), decipher.final()]).toString('utf8');
}
