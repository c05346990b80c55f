import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BlobStore } from '../../server/storage/storage';
import { BLOB_API_VERSION, createVercelBlobStore } from '../../server/storage/vercel-blob';
import { CLIENT_SIGNING_TOKEN, STORE_ID, startFakeBlobApi, TOKEN, type FakeBlobApi } from '../support/fake-blob-api';

const HOUR_MS = 60 * 60 * 1000;

let fake: FakeBlobApi;
let store: BlobStore;

beforeAll(async () => {
  fake = await startFakeBlobApi();
  process.env.VERCEL_BLOB_API_URL = fake.url;
  process.env.VERCEL_BLOB_RETRIES = '0';
  store = createVercelBlobStore(TOKEN);
});

beforeEach(() => {
  fake.requests.length = 0;
});

afterAll(() => fake.close());

describe('Vercel Blob storage', () => {
  it('put sends the bytes to a private store under the key and resolves with their count', async () => {
    const bytes = new TextEncoder().encode('quarterly numbers\n');

    const size = await store.put('abc123', new Blob([bytes]).stream(), 'text/csv');

    expect(size).toBe(bytes.byteLength);
    expect(fake.blobs.get('abc123')?.body).toEqual(Buffer.from(bytes));
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

  describe('direct uploads', () => {
    const MINUTE_MS = 60_000;
    const slot = (key: string, size = 5) => ({
      uploadId: '5d0c9a3e-2f41-4b8e-9c6d-7a1b3e5f8d20',
      key,
      contentType: 'image/png',
      size,
      expiresAt: new Date(Date.now() + 15 * MINUTE_MS),
    });
    const send = (target: { url: string; headers: Record<string, string> }, body: string, url = target.url) =>
      fetch(url, { method: 'PUT', headers: target.headers, body });

    it('uploadTarget is a presigned PUT of the Blob API that stores the bytes under the key', async () => {
      const target = await store.uploadTarget(slot('direct1'));

      const response = await send(target, 'bytes');

      expect(response.status).toBe(200);
      expect(fake.blobs.get('direct1')).toMatchObject({ body: Buffer.from('bytes'), contentType: 'image/png' });
      const url = new URL(target.url);
      expect(url.origin).toBe(fake.url);
      expect(url.searchParams.get('pathname')).toBe('direct1');
      expect(target.url).not.toContain(TOKEN);
      expect(target.url).not.toContain('secretpart');
    });

    it('signs the URL for the one pathname, the announced size and type, no overwrite, until expiresAt', async () => {
      const upload = slot('direct2', 1234);
      const url = new URL((await store.uploadTarget(upload)).url);

      expect(Object.fromEntries([...url.searchParams].filter(([name]) => !/delegation|signature/.test(name)))).toEqual({
        pathname: 'direct2',
        'vercel-blob-allow-overwrite': 'false',
        'vercel-blob-add-random-suffix': 'false',
        'vercel-blob-allowed-content-types': 'image/png',
        'vercel-blob-maximum-size-in-bytes': '1234',
        'vercel-blob-valid-until': String(upload.expiresAt.getTime()),
      });
      const scope = JSON.parse(fake.requests.find((r) => r.url.pathname === '/signed-token')!.body.toString());
      expect(scope).toMatchObject({
        pathname: 'direct2',
        operations: ['put'],
        maximumSizeInBytes: 1234,
        allowedContentTypes: ['image/png'],
      });
    });

    it('the URL takes the bytes once: a second PUT is refused and the first bytes stay', async () => {
      const target = await store.uploadTarget(slot('direct3'));
      expect((await send(target, 'first')).status).toBe(200);

      expect((await send(target, 'again')).status).toBe(400);
      expect(fake.blobs.get('direct3')?.body.toString()).toBe('first');
    });

    it('the URL takes no more than the announced size', async () => {
      const target = await store.uploadTarget(slot('direct4', 5));
      expect((await send(target, 'six by')).status).toBe(400);
      expect(fake.blobs.has('direct4')).toBe(false);
    });

    it('the URL works only for its own object: another pathname breaks the signature', async () => {
      const target = await store.uploadTarget(slot('direct5'));
      const other = new URL(target.url);
      other.searchParams.set('pathname', 'someone-else');

      expect((await send(target, 'bytes', other.toString())).status).toBe(403);
      expect(fake.blobs.has('someone-else')).toBe(false);
    });

    it('the headers are what @vercel/blob sends: the private store, the content type, its API version', async () => {
      await store.put('versioned', new Blob(['x']).stream(), 'text/plain');
      const sdkVersion = fake.requests.at(-1)!.headers['x-api-version'];

      const target = await store.uploadTarget(slot('direct6'));

      expect(target.headers).toEqual({ 'x-vercel-blob-access': 'private', 'x-content-type': 'image/png', 'x-api-version': sdkVersion });
      expect(BLOB_API_VERSION).toBe(sdkVersion);
    });

    it('size is what is stored under the key, null when nothing is', async () => {
      await store.put('sized', new Blob(['12345678']).stream(), 'text/plain');

      expect(await store.size('sized')).toBe(8);
      expect(await store.size('never-stored')).toBeNull();
    });
  });
});
