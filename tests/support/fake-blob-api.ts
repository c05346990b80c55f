import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll } from 'vitest';
import { settleStorage } from '../../server/storage/storage';

export const STORE_ID = 'fakestore123';
export const TOKEN = `vercel_blob_rw_${STORE_ID}_secretpart`;
export const CLIENT_SIGNING_TOKEN = 'client-signing-token-of-the-fake';

export interface Received {
  method: string;
  url: URL;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export interface FakeBlob {
  /** Empty when the fake keeps no bytes (`lean`). */
  body: Buffer;
  size: number;
  contentType: string | undefined;
  /** When it was stored; a test may move it back. */
  uploadedAt: Date;
}

export interface FakeBlobApi {
  url: string;
  blobs: Map<string, FakeBlob>;
  requests: Received[];
  /** While true every request answers 503, as Blob does when it is unavailable. */
  unavailable: boolean;
  close(): Promise<void>;
}

interface Delegation {
  storeId: string;
  pathname?: string;
  operations?: string[];
  validUntil: number;
  maximumSizeInBytes?: number;
  allowedContentTypes?: string[];
}

// The query parameters a presigned URL's signature covers, as @vercel/blob 2.8 lists them.
const SIGNED_PARAMS = [
  'vercel-blob-add-random-suffix',
  'vercel-blob-allow-overwrite',
  'vercel-blob-allowed-content-types',
  'vercel-blob-cache-control-max-age',
  'vercel-blob-callback-token-payload',
  'vercel-blob-callback-url',
  'vercel-blob-if-match',
  'vercel-blob-maximum-size-in-bytes',
  'vercel-blob-valid-until',
];

/**
 * The Blob control API as far as the app uses it: PUT /?pathname= with the
 * read-write token or as a presigned URL (signature, scope, size, type, expiry
 * and overwrite checked as Blob documents them), GET /?url= (head), GET /?prefix=
 * (list, by pathname, paginated), POST /delete, POST /signed-token. Errors come as
 * Blob's `{error: {code, message}}`.
 */
export async function startFakeBlobApi({ lean = false } = {}): Promise<FakeBlobApi> {
  const blobs: FakeBlobApi['blobs'] = new Map();
  const requests: Received[] = [];
  const fake = { unavailable: false };
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const received = {
      method: req.method ?? '',
      url: new URL(req.url ?? '/', 'http://fake'),
      headers: req.headers,
      body: Buffer.concat(chunks),
    };
    // A lean fake (the soak's) keeps sizes only, and no request: its memory stays flat.
    if (!lean) requests.push(received);
    const reply = (status: number, body: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    const refuse = (status: number, code: string) => reply(status, { error: { code, message: code } });
    const { method, url } = received;
    if (fake.unavailable) return refuse(503, 'service_unavailable');

    if (method === 'PUT' && url.pathname === '/' && url.searchParams.has('vercel-blob-signature')) {
      const problem = presignedPutProblem(received, blobs);
      if (problem) return refuse(problem.status, problem.code);
      return stored(url.searchParams.get('pathname')!);
    }
    if (req.headers.authorization !== `Bearer ${TOKEN}`) return refuse(403, 'forbidden');
    if (method === 'PUT' && url.pathname === '/') return stored(url.searchParams.get('pathname')!);
    if (method === 'GET' && url.pathname === '/' && url.searchParams.has('url')) {
      const pathname = url.searchParams.get('url')!;
      const blob = blobs.get(pathname);
      if (!blob) return refuse(404, 'not_found');
      const blobUrl = `https://${STORE_ID}.private.blob.vercel-storage.com/${pathname}`;
      return reply(200, {
        url: blobUrl,
        downloadUrl: `${blobUrl}?download=1`,
        pathname,
        size: blob.size,
        contentType: blob.contentType,
        contentDisposition: `attachment; filename="${pathname}"`,
        cacheControl: 'public, max-age=2592000',
        uploadedAt: blob.uploadedAt.toISOString(),
        etag: '"1"',
      });
    }
    if (method === 'GET' && url.pathname === '/') {
      const prefix = url.searchParams.get('prefix') ?? '';
      const limit = Number(url.searchParams.get('limit') ?? 1000);
      const after = url.searchParams.get('cursor') ?? '';
      const names = [...blobs.keys()].filter((name) => name.startsWith(prefix) && name > after).sort();
      const page = names.slice(0, limit);
      const hasMore = names.length > limit;
      return reply(200, {
        blobs: page.map((pathname) => {
          const blob = blobs.get(pathname)!;
          const blobUrl = `https://${STORE_ID}.private.blob.vercel-storage.com/${pathname}`;
          return {
            url: blobUrl,
            downloadUrl: `${blobUrl}?download=1`,
            pathname,
            size: blob.size,
            uploadedAt: blob.uploadedAt.toISOString(),
            etag: '"1"',
          };
        }),
        hasMore,
        ...(hasMore && { cursor: page.at(-1) }),
      });
    }
    if (method === 'POST' && url.pathname === '/delete') {
      for (const name of (JSON.parse(received.body.toString()) as { urls: string[] }).urls) blobs.delete(name);
      return reply(200, {});
    }
    if (method === 'POST' && url.pathname === '/signed-token') {
      const scope = JSON.parse(received.body.toString()) as Omit<Delegation, 'storeId'>;
      const payload = Buffer.from(JSON.stringify({ storeId: `store_${STORE_ID}`, ...scope })).toString('base64url');
      return reply(200, {
        delegationToken: `${payload}.fake-store-hmac`,
        clientSigningToken: CLIENT_SIGNING_TOKEN,
        validUntil: scope.validUntil,
      });
    }
    return refuse(404, 'not_found');

    function stored(pathname: string) {
      blobs.set(pathname, {
        body: lean ? Buffer.alloc(0) : received.body,
        size: received.body.length,
        contentType: req.headers['x-content-type'] as string | undefined,
        uploadedAt: new Date(),
      });
      const blobUrl = `https://${STORE_ID}.private.blob.vercel-storage.com/${pathname}`;
      return reply(200, {
        url: blobUrl,
        downloadUrl: `${blobUrl}?download=1`,
        pathname,
        contentType: req.headers['x-content-type'],
        contentDisposition: `attachment; filename="${pathname}"`,
        etag: '"1"',
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return Object.assign(fake, {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    blobs,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

/** Why Blob would refuse a presigned PUT, or null when it takes it. */
function presignedPutProblem(received: Received, blobs: FakeBlobApi['blobs']): { status: number; code: string } | null {
  const query = received.url.searchParams;
  const pathname = query.get('pathname') ?? '';
  const delegation = JSON.parse(
    Buffer.from((query.get('vercel-blob-delegation') ?? '').split('.')[0]!, 'base64url').toString() || '{}',
  ) as Delegation;
  const lines = [`operation=put`, `pathname=${pathname}`];
  for (const name of SIGNED_PARAMS) if (query.get(name)) lines.push(`${name}=${query.get(name)}`);
  lines.sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  const signature = createHmac('sha256', CLIENT_SIGNING_TOKEN).update(lines.join('\n')).digest('base64url');
  if (query.get('vercel-blob-signature') !== signature) return { status: 403, code: 'forbidden' };
  if (delegation.pathname !== pathname || !delegation.operations?.includes('put')) return { status: 403, code: 'forbidden' };
  const validUntil = Number(query.get('vercel-blob-valid-until') ?? delegation.validUntil);
  if (Date.now() > Math.min(validUntil, delegation.validUntil)) return { status: 403, code: 'forbidden' };
  const maximum = Math.min(Number(query.get('vercel-blob-maximum-size-in-bytes') ?? Infinity), delegation.maximumSizeInBytes ?? Infinity);
  if (received.body.length > maximum) return { status: 400, code: 'file_too_large' };
  const allowed = query.get('vercel-blob-allowed-content-types')?.split(',') ?? delegation.allowedContentTypes;
  const contentType = received.headers['x-content-type'] as string | undefined;
  if (allowed && (!contentType || !allowed.includes(contentType))) return { status: 400, code: 'content_type_not_allowed' };
  if (query.get('vercel-blob-allow-overwrite') !== 'true' && blobs.has(pathname)) return { status: 400, code: 'bad_request' };
  return null;
}

/**
 * The fake Blob API as the app's attachment store for the whole test file: the
 * configuration names it before the app's store is first made, and it closes after
 * the file, once removals started in the background have ended.
 */
export async function useFakeBlobStore(): Promise<FakeBlobApi> {
  const fake = await startFakeBlobApi();
  process.env.BLOB_READ_WRITE_TOKEN = TOKEN;
  process.env.VERCEL_BLOB_API_URL = fake.url;
  process.env.VERCEL_BLOB_RETRIES = '0';
  afterAll(async () => {
    await settleStorage();
    await fake.close();
  });
  return fake;
}
