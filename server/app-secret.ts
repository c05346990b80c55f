import { randomBytes } from 'node:crypto';
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
