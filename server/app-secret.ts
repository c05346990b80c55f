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

// A key of its own for each purpose, derived from the app secret, so what is sealed for
// one purpose is not readable with any key the app uses for another.
function sealingKey(purpose: string): Buffer {
  return createHmac('sha256', appSecret()).update(purpose).digest();
}

/**
 * Text that must be recovered later (a webhook's signing secret, an answer holding one),
 * so it cannot be hashed like an API key: sealed with AES-256-GCM under the purpose's key,
 * as `v1.<iv>.<tag>.<ciphertext>` in base64url.
 */
export function sealText(purpose: string, text: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealingKey(purpose), iv);
  const sealed = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), sealed].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
}

/** Text sealText sealed for the same purpose; throws when it was not, or was changed. */
export function openText(purpose: string, stored: string): string {
  const [version, iv, tag, sealed] = stored.split('.');
  if (version !== 'v1' || !iv || !tag || !sealed) throw new Error(`Unreadable sealed text (${purpose})`);
  const decipher = createDecipheriv('aes-256-gcm', sealingKey(purpose), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64url')), decipher.final()]).toString('utf8');
}
