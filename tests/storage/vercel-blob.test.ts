import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BlobStore } from '../../server/storage/storage';
import { createVercelBlobStore } from '../../server/storage/vercel-blob';

const STORE_ID = 'fakestore123';
const TOKEN = `vercel_blob_rw_${STORE_ID}_secretpart`;
const CLIENT_SIGNING_TOKEN = 'client-signing-token-of-the-fake';
const HOUR_MS = 60 * 60 * 1000;

interface Received {
  method: string;
  url: URL;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** The Blob control API as far as the store uses it: PUT /?pathname=, POST /delete, POST /signed-token. */
function fakeBlobApi() {
  const blobs = new Map<string, Buffer>();
  const requests: Received[] = [];
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const received = {
      method: req.method ?? '',
      url: new URL(req.url ?? '/', 'http://fake'),
      headers: req.headers,
      body: Buffer.concat(chunks),
    };
    requests.push(received);
    const reply = (status: number, body: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

    if (req.headers.authorization !== `Bearer ${TOKEN}`) return reply(403, { error: { code: 'forbidden', message: 'no' } });
    const { method, url } = received;
    if (method === 'PUT' && url.pathname === '/') {
      const pathname = url.searchParams.get('pathname')!;
      blobs.set(pathname, received.body);
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
    if (method === 'POST' && url.pathname === '/delete') {
      for (const name of (JSON.parse(received.body.toString()) as { urls: string[] }).urls) blobs.delete(name);
      return reply(200, {});
    }
    if (method === 'POST' && url.pathname === '/signed-token') {
      const scope = JSON.parse(received.body.toString()) as { pathname: string; operations: string[]; validUntil: number };
      const payload = Buffer.from(JSON.stringify({ storeId: `store_${STORE_ID}`, ...scope })).toString('base64url');
      return reply(200, {
        delegationToken: `${payload}.fake-store-hmac`,
        clientSigningToken: CLIENT_SIGNING_TOKEN,
        validUntil: scope.validUntil,
      });
    }
    return reply(404, { error: { code: 'not_found', message: 'unknown route' } });
  });
  return { server, blobs, requests };
}

let fake: ReturnType<typeof fakeBlobApi>;
let store: BlobStore;

beforeAll(async () => {
  fake = fakeBlobApi();
  await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
  process.env.VERCEL_BLOB_API_URL = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}`;
  process.env.VERCEL_BLOB_RETRIES = '0';
  store = createVercelBlobStore(TOKEN);
});

beforeEach(() => {
  fake.requests.length = 0;
});

afterAll(async () => {
  await new Promise((resolve) => fake.server.close(resolve));
});

describe('Vercel Blob storage', () => {
  it('put sends the bytes to a private store under the key and resolves with their count', async () => {
    const bytes = new TextEncoder().encode('quarterly numbers\n');

    const size = await store.put('abc123', new Blob([bytes]).stream(), 'text/csv');

    expect(size).toBe(bytes.byteLength);
    expect(fake.blobs.get('abc123')).toEqual(Buffer.from(bytes));
    const [request] = fake.requests;
    expect(request!.method).toBe('PUT');
    expect(request!.url.searchParams.get('pathname')).toBe('abc123');
    expect(request!.headers).toMatchObject({
      'x-vercel-blob-access': 'private',
      'x-content-type': 'text/csv',
      'x-add-random-suffix': '0',
      'x-vercel-blob-store-id': STORE_ID,
    });
  });

  it('put rejects when the stream fails', async () => {
    const failing = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.error(new Error('client went away'));
      },
    });
    await expect(store.put('broken', failing, 'text/plain')).rejects.toThrow();
    expect(fake.blobs.has('broken')).toBe(false);
  });

  it('delete deletes the named blobs', async () => {
    await store.put('one', new Blob(['1']).stream(), 'text/plain');
    await store.put('two', new Blob(['2']).stream(), 'text/plain');

    await store.delete(['one', 'two']);

    expect(fake.blobs.has('one')).toBe(false);
    expect(fake.blobs.has('two')).toBe(false);
    expect(JSON.parse(fake.requests.at(-1)!.body.toString())).toEqual({ urls: ['one', 'two'] });
  });

  it('delete of nothing makes no request', async () => {
    await store.delete([]);
    expect(fake.requests).toHaveLength(0);
  });

  it('downloadUrl is a signed link on the private store host, valid until the given time', async () => {
    const expiresAt = new Date(Date.now() + HOUR_MS);

    const url = new URL(await store.downloadUrl({ key: 'abc123', filename: 'numbers.csv', contentType: 'text/csv' }, expiresAt));

    expect(url.origin).toBe(`https://${STORE_ID}.private.blob.vercel-storage.com`);
    expect(url.pathname).toBe('/abc123');
    const validUntil = Number(url.searchParams.get('vercel-blob-valid-until'));
    expect(validUntil).toBe(expiresAt.getTime());
    expect(validUntil - Date.now()).toBeGreaterThan(HOUR_MS - 60_000);
    expect(url.searchParams.get('vercel-blob-delegation')).toMatch(/\./);
    const canonical = ['operation=get', 'pathname=abc123', `vercel-blob-valid-until=${validUntil}`].sort().join('\n');
    expect(url.searchParams.get('vercel-blob-signature')).toBe(
      createHmac('sha256', CLIENT_SIGNING_TOKEN).update(canonical).digest('base64url'),
    );
  });

  it('downloadUrl asks for a read-only delegation scoped to the one blob', async () => {
    const expiresAt = new Date(Date.now() + HOUR_MS);
    await store.downloadUrl({ key: 'abc123', filename: 'numbers.csv', contentType: 'text/csv' }, expiresAt);

    const [request] = fake.requests;
    expect(request!.url.pathname).toBe('/signed-token');
    const scope = JSON.parse(request!.body.toString());
    expect(scope).toMatchObject({ pathname: 'abc123', operations: ['get'] });
    expect(scope.validUntil).toBeGreaterThan(expiresAt.getTime());
    expect(scope.validUntil - expiresAt.getTime()).toBeLessThanOrEqual(60_000);
  });
});
