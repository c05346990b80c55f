import type { FileHandle } from 'node:fs/promises';
import fs from 'node:fs/promises';
import { Readable } from 'node:stream';
import { env } from '../env';
import { forbidden, notFound } from '../errors';
import { toPublicError } from '../api/errors';
import { logEvent } from '../log';
import { contentDisposition } from '../storage/content-disposition';
import { localFilePath } from '../storage/local';
import { STORAGE_PATH, verifyDownload } from '../storage/signed-url';
import { boundedRoute } from './exchange';

const LINK_REFUSED = 'Download link expired or invalid';
const FILE_GONE = 'File not found';

/** GET /storage/{key}?…: a file of the local store, for as long as its signed link is valid. */
export const serveDownload = boundedRoute(async (req) => {
  try {
    return await download(new URL(req.url));
  } catch (error) {
    const publicError = toPublicError(error);
    if (publicError.statusCode >= 500) logEvent('error', 'storage.download_failed', { error });
    return Response.json(publicError, { status: publicError.statusCode, headers: { 'Cache-Control': 'no-store' } });
  }
});

async function download(url: URL): Promise<Response> {
  const key = url.pathname.slice(`${STORAGE_PATH}/`.length);
  const link = verifyDownload(key, url.searchParams);
  if (!link) throw forbidden(LINK_REFUSED);
  const storage = env().storage;
  if (storage.kind !== 'local') throw notFound(FILE_GONE);

  const file = await openFile(localFilePath(storage.dir, key));
  const { size } = await file.stat().catch(async (error: unknown) => {
    await file.close();
    throw error;
  });
  const remaining = Math.max(0, link.expires - Math.floor(Date.now() / 1000));
  return new Response(Readable.toWeb(file.createReadStream()) as ReadableStream<Uint8Array>, {
    headers: {
      'Content-Type': safeContentType(link.contentType),
      'Content-Length': String(size),
      'Content-Disposition': contentDisposition(link.filename),
      'X-Content-Type-Options': 'nosniff',
      // The bytes are the uploader's: never let a browser run them on this origin.
      'Content-Security-Policy': "default-src 'none'; sandbox",
      'Cache-Control': `private, max-age=${remaining}`,
    },
  });
}

async function openFile(file: string): Promise<FileHandle> {
  try {
    return await fs.open(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw notFound(FILE_GONE);
    throw error;
  }
}

/** The type as uploaded when it is a plain `type/subtype`; anything else downloads as bytes. */
function safeContentType(value: string): string {
  return /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/i.test(value) ? value : 'application/octet-stream';
}
