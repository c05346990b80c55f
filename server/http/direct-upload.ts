import { largerThanAnnounced, receiveUpload, UPLOAD_NOT_FOUND } from '../attachments/direct-upload';
import { answerError } from '../api/errors';
import { db } from '../db/client';
import { env } from '../env';
import { AppError, badRequest, forbidden, notFound } from '../errors';
import { storage } from '../storage/storage';
import { UPLOAD_PATH, verifyUpload } from '../storage/signed-url';
import { boundedRoute, type Exchange } from './exchange';

const LINK_REFUSED = 'Upload link expired or invalid';
const UPLOAD_INCOMPLETE = 'Request body ended before the upload was complete';
const ALLOW = 'PUT, OPTIONS';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
// Any page may send the bytes (the signed URL is the permission), as to Blob's presigned URLs.
const HEADERS = { 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff', 'Access-Control-Allow-Origin': '*' };

/** Whether a normalized path is a local upload URL's: /storage/uploads/{uploadId}. */
export function isUploadPath(path: string): boolean {
  return path.startsWith(`${UPLOAD_PATH}/`) && !path.slice(UPLOAD_PATH.length + 1).includes('/');
}

/**
 * PUT /storage/uploads/{uploadId}?expires=…&signature=…: a direct upload's bytes,
 * on local disk, through the URL the API issued for them. Served by `npm start`'s
 * edge (node-edge.ts) and by the App Router route under `next dev`. The bytes
 * stream to the file as they come, counted against the announced size: a longer
 * body is refused (413) as soon as it passes it, from Content-Length or while it
 * streams, and nothing is kept. Each chunk holds its bytes in the body budget until written.
 */
export const serveUpload = boundedRoute(async (req, exchange) => {
  try {
    return await receive(req, exchange);
  } catch (error) {
    const refused = answerError(error, 'storage.upload_failed', {});
    return Response.json(refused, {
      status: refused.statusCode,
      headers: { ...HEADERS, ...(refused.statusCode === 405 && { Allow: ALLOW }) },
    });
  }
});

async function receive(req: Request, exchange: Exchange): Promise<Response> {
  if (req.method === 'OPTIONS') {
    return new Response(null, {
      status: 204,
      headers: {
        ...HEADERS,
        Allow: ALLOW,
        'Access-Control-Allow-Methods': ALLOW,
        'Access-Control-Allow-Headers': 'Content-Type',
        'Access-Control-Max-Age': '86400',
      },
    });
  }
  if (req.method !== 'PUT') throw new AppError('method_not_allowed', `Method ${req.method} is not allowed here; use PUT`);
  const url = new URL(req.url);
  const uploadId = url.pathname.slice(UPLOAD_PATH.length + 1).toLowerCase();
  if (!UUID.test(uploadId) || !verifyUpload(uploadId, url.searchParams)) throw forbidden(LINK_REFUSED);
  if (env().storage.kind !== 'local') throw notFound(UPLOAD_NOT_FOUND);

  const declared = Number(req.headers.get('content-length') ?? Number.NaN);
  const size = await receiveUpload(db(), uploadId, (slot) => {
    if (declared > slot.size) throw new AppError('payload_too_large', largerThanAnnounced(slot.size));
    const chunks = exchange.streamBody(req, slot.size, {
      tooLarge: () => new AppError('payload_too_large', largerThanAnnounced(slot.size)),
      cutShort: () => badRequest(UPLOAD_INCOMPLETE),
    });
    return storage().put(slot.key, streamOf(chunks), slot.contentType);
  });
  return Response.json({ size }, { status: 200, headers: HEADERS });
}

/** The chunks as a web stream that pulls one at a time: nothing is read ahead of the disk. */
function streamOf(chunks: AsyncGenerator<Uint8Array>): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const next = await chunks.next();
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      },
      async cancel() {
        await chunks.return(undefined);
      },
    },
    { highWaterMark: 0 },
  );
}
