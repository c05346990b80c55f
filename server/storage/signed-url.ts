import { createHmac, timingSafeEqual } from 'node:crypto';
import { appSecret } from '../app-secret';

/** A download link for a locally stored file: everything it promises is covered by the signature. */
export interface SignedDownload {
  key: string;
  filename: string;
  contentType: string;
  /** Unix seconds. */
  expires: number;
}

export const STORAGE_PATH = '/storage';
const STORAGE_KEY = /^[A-Za-z0-9_-]{1,128}$/;

/** Keys are generated, never derived from a filename: anything that could be a path is refused. */
export function assertStorageKey(key: string): void {
  if (!STORAGE_KEY.test(key)) throw new Error('Invalid storage key');
}

export function signedDownloadUrl(appUrl: string, download: SignedDownload): string {
  assertStorageKey(download.key);
  const query = new URLSearchParams({
    filename: download.filename,
    type: download.contentType,
    expires: String(download.expires),
    signature: sign(download),
  });
  return `${appUrl}${STORAGE_PATH}/${download.key}?${query}`;
}

/** The link's promises when its signature holds and it has not expired; null otherwise. */
export function verifyDownload(key: string, query: URLSearchParams, nowMs = Date.now()): SignedDownload | null {
  const filename = query.get('filename');
  const contentType = query.get('type');
  const expires = query.get('expires');
  const signature = query.get('signature');
  if (filename === null || contentType === null || expires === null || signature === null) return null;
  if (!/^\d{1,12}$/.test(expires)) return null;
  const download = { key, filename, contentType, expires: Number(expires) };
  const expected = Buffer.from(sign(download));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return download.expires * 1000 > nowMs ? download : null;
}

function sign(download: SignedDownload): string {
  // JSON keeps the fields apart: no value can borrow characters from its neighbour.
  const payload = JSON.stringify([download.key, download.filename, download.contentType, download.expires]);
  return createHmac('sha256', appSecret()).update(payload).digest('base64url');
}
