import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { env } from '../../server/env';
import { createLocalStore } from '../../server/storage/local';
import type { BlobStore } from '../../server/storage/storage';
import { startTestServer, type TestServer } from '../support/http';

/** The local store's folder: these tests never configure Vercel Blob. */
function storageDir(): string {
  const { storage } = env();
  if (storage.kind !== 'local') throw new Error('expected local storage');
  return storage.dir;
}

const HOUR_MS = 60 * 60 * 1000;
const file = { key: 'k3y_Of-a-file', filename: 'Q3 report "final".pdf', contentType: 'application/pdf' };
const bytes = new TextEncoder().encode('%PDF-1.7 not really a pdf\n');

let server: TestServer;
let store: BlobStore;

beforeAll(async () => {
  server = await startTestServer();
  store = createLocalStore(storageDir(), server.baseUrl);
  await store.put(file.key, new Blob([bytes]).stream(), file.contentType);
});

afterAll(async () => {
  await server.close();
});

const linkFor = (expiresAt: Date) => store.downloadUrl(file, expiresAt);

async function expectRefused(url: string) {
  const response = await fetch(url);
  expect(response.status).toBe(403);
  expect(await response.json()).toEqual({ statusCode: 403, message: 'Download link expired or invalid' });
}

describe('local storage', () => {
  it('downloads the stored bytes through a signed URL', async () => {
    const url = await linkFor(new Date(Date.now() + HOUR_MS));
    expect(url.startsWith(`${server.baseUrl}/storage/${file.key}?`)).toBe(true);

    const response = await fetch(url);

    expect(response.status).toBe(200);
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(bytes);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-length')).toBe(String(bytes.byteLength));
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="Q3 report _final_.pdf"; filename*=UTF-8''Q3%20report%20%22final%22.pdf`,
    );
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    const maxAge = Number(/^private, max-age=(\d+)$/.exec(response.headers.get('cache-control') ?? '')?.[1]);
    expect(maxAge).toBeGreaterThan(HOUR_MS / 1000 - 60);
    expect(maxAge).toBeLessThanOrEqual(HOUR_MS / 1000);
  });

  it('resolves put with the number of bytes stored', async () => {
    expect(await store.put('counted', new Blob([bytes, bytes]).stream(), 'text/plain')).toBe(bytes.byteLength * 2);
  });

  it('refuses an expired URL with 403', async () => {
    await expectRefused(await linkFor(new Date(Date.now() - 1000)));
  });

  it.each(['filename', 'type', 'expires', 'signature'])('refuses a URL whose %s was changed with 403', async (name) => {
    const url = new URL(await linkFor(new Date(Date.now() + HOUR_MS)));
    const value = url.searchParams.get(name)!;
    url.searchParams.set(name, name === 'expires' ? String(Number(value) + 3600) : `${value.slice(0, -1)}x`);
    await expectRefused(url.toString());
  });

  it('refuses a URL whose key was changed with 403', async () => {
    const url = await linkFor(new Date(Date.now() + HOUR_MS));
    await expectRefused(url.replace(`/storage/${file.key}?`, '/storage/counted?'));
  });

  it('refuses a URL without its signature with 403', async () => {
    const url = new URL(await linkFor(new Date(Date.now() + HOUR_MS)));
    url.searchParams.delete('signature');
    await expectRefused(url.toString());
  });

  it('answers 404 when the file is gone', async () => {
    const gone = { ...file, key: 'deleted' };
    await store.put(gone.key, new Blob([bytes]).stream(), gone.contentType);
    const url = await store.downloadUrl(gone, new Date(Date.now() + HOUR_MS));
    await store.delete([gone.key]);

    const response = await fetch(url);

    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ statusCode: 404, message: 'File not found' });
  });

  it('ignores missing files on delete', async () => {
    await expect(store.delete(['never-stored'])).resolves.toBeUndefined();
  });

  it.each(['../app-secret', '..', 'a/b', 'a\\b', 'name.txt', ''])('refuses the key %j', async (key) => {
    await expect(store.put(key, new Blob([bytes]).stream(), 'text/plain')).rejects.toThrow('Invalid storage key');
    await expect(store.delete([key])).rejects.toThrow('Invalid storage key');
    await expect(store.downloadUrl({ ...file, key }, new Date(Date.now() + HOUR_MS))).rejects.toThrow('Invalid storage key');
  });

  it('refuses a download path that walks out of the storage folder with 403', async () => {
    const url = new URL(await linkFor(new Date(Date.now() + HOUR_MS)));
    const response = await fetch(`${server.baseUrl}/storage/..%2Fapp-secret${url.search}`);
    expect(response.status).toBe(403);
  });

  it('leaves nothing behind when the stream fails mid-way', async () => {
    const before = fs.readdirSync(storageDir()).sort();
    const failing = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes);
        controller.error(new Error('client went away'));
      },
    });

    await expect(store.put('broken', failing, 'text/plain')).rejects.toThrow('client went away');

    expect(fs.readdirSync(storageDir()).sort()).toEqual(before);
  });
});
