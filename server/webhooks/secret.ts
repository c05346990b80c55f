import { randomBytes } from 'node:crypto';
import { openText, sealText } from '../app-secret';

/** A Standard Webhooks signing secret: `whsec_` and 24 random bytes in base64. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

const PURPOSE = 'webhook-signing-secret';

/** The signing secret must be recovered to sign each delivery: it is stored sealed (server/app-secret.ts). */
export const sealSecret = (secret: string) => sealText(PURPOSE, secret);
export const openSecret = (stored: string) => openText(PURPOSE, stored);
