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
/** Where a direct upload's bytes go on local disk: PUT /storage/uploads/{uploadId}?expires=…&signature=… */
export const UPLOAD_PATH = `${STORAGE_PATH}/uploads`;
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

/** The URL that takes a direct upload's bytes until `expires` (Unix seconds); it names the upload, not a file. */
export function signedUploadUrl(appUrl: string, uploadId: string, expires: number): string {
  const query = new URLSearchParams({ expires: String(expires), signature: signUpload(uploadId, expires) });
  return `${appUrl}${UPLOAD_PATH}/${encodeURIComponent(uploadId)}?${query}`;
}

/** Whether an upload URL is one this app signed for this upload, and still in time. */
export function verifyUpload(uploadId: string, query: URLSearchParams, nowMs = Date.now()): boolean {
  const expires = query.get('expires');
  const signature = query.get('signature');
  if (expires === null || signature === null || !/^\d{1,12}$/.test(expires)) return false;
  const expected = Buffer.from(signUpload(uploadId, Number(expires)));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return false;
  return Number(expires) * 1000 > nowMs;
}

function signUpload(uploadId: string, expires: number): string {
  // Its own shape (a leading "put"), so that no download link's signature can pass for it.
  return createHmac('sha256', appSecret())
    .update(JSON.stringify(['put', uploadId, expires]))
    .digest('base64url');
}
