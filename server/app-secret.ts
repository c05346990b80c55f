import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { env } from './env';

let cached: string | undefined;

/**
 * The secret that signs download links and sessions: APP_SECRET, or on the
 * embedded defaults one generated once and kept in the data folder.
 */
export function appSecret(): string {
  if (cached) return cached;
  const config = env();
  if (config.appSecret) return (cached = config.appSecret);
  const file = path.join(config.dataDir, 'app-secret');
  try {
    cached = fs.readFileSync(file, 'utf8').trim();
  } catch {
    fs.mkdirSync(config.dataDir, { recursive: true });
    const generated = randomBytes(32).toString('hex');
    try {
      fs.writeFileSync(file, generated, { flag: 'wx', mode: 0o600 });
    } catch {
      // Another process wrote it first: use theirs.
    }
    cached = fs.readFileSync(file, 'utf8').trim();
  }
  return cached;
}

// A key of its own for each use, derived from the app secret, so that what is sealed
// for one use is not readable with any key the app uses for something else.
function sealingKey(purpose: string): Buffer {
  return createHmac('sha256', appSecret()).update(purpose).digest();
}

/**
 * A secret the app must read back later (a webhook's signing secret, the setup code),
 * so it cannot be hashed like an API key: sealed with AES-256-GCM under the key of its
 * `purpose`, as `v1.<iv>.<tag>.<ciphertext>` in base64url.
 */
export function seal(purpose: string, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealingKey(purpose), iv);
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), sealed].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
}

/** What seal() sealed for `purpose`; throws when it was sealed for another purpose or under another app secret. */
export function unseal(purpose: string, stored: string): string {
  const [version, iv, tag, sealed] = stored.split('.');
  if (version !== 'v1' || !iv || !tag || !sealed) throw new Error(`Unreadable sealed ${purpose}`);
  const decipher = createDecipheriv('aes-256-gcm', sealingKey(purpose), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64url')), decipher.final()]).toString('utf8');
}
