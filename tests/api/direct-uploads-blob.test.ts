import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { sweepExpiredUploads } from '../../server/attachments/direct-upload';
import { db } from '../../server/db/client';
import { useApi } from '../support/api';
import { errorOf } from '../support/client';
import { STORE_ID, useFakeBlobStore } from '../support/fake-blob-api';

// The whole direct upload with Vercel Blob configured, against the fake Blob API
// tests/storage/vercel-blob.test.ts tests the store with.
const fake = await useFakeBlobStore();

const api = useApi();
const MINUTE_MS = 60_000;

let taskId: string;

beforeAll(async () => {
  taskId = (await api.client.post('/web/tasks', { title: 'Gets a file on Blob' })).body.id;
});

const uploadsPath = () => `/web/tasks/${taskId}/attachments/uploads` as const;
const completePath = (uploadId: string) => `${uploadsPath()}/${uploadId}/complete` as const;

async function start(size: number, mimeType = 'application/pdf') {
  const response = await api.client.post(uploadsPath(), { filename: 'contract.pdf', mimeType, size });
  expect(response.status).toBe(201);
  return response.body;
}

const send = (upload: { uploadUrl: string; method: string; headers: Record<string, string> }, body: Buffer | string) =>
  fetch(upload.uploadUrl, { method: upload.method, headers: upload.headers, body: typeof body === 'string' ? body : new Uint8Array(body) });

const keyOf = async (uploadId: string) => (await db().pendingUpload.findUniqueOrThrow({ where: { id: uploadId } })).storageKey;

describe('direct upload on Vercel Blob', () => {
  it('sends the bytes to a presigned PUT of the private store and completes them into an attachment', async () => {
    const bytes = randomBytes(6 * 1024 * 1024);
    const upload = await start(bytes.length);
    const key = await keyOf(upload.uploadId);

    expect(new URL(upload.uploadUrl).searchParams.get('pathname')).toBe(key);
    expect(upload.uploadUrl).not.toContain('secretpart');
    expect((await send(upload, bytes)).status).toBe(200);
    const completed = await api.client.post(completePath(upload.uploadId));

    expect(completed.status).toBe(201);
    expect(completed.body).toMatchObject({ filename: 'contract.pdf', mimeType: 'application/pdf', size: bytes.length });
    expect(fake.blobs.get(key)!.body.equals(bytes)).toBe(true);
    expect(fake.blobs.get(key)!.contentType).toBe('application/pdf');
    const download = new URL(completed.body.url);
    expect(`${download.origin}${download.pathname}`).toBe(`https://${STORE_ID}.private.blob.vercel-storage.com/${key}`);
    expect(download.searchParams.get('vercel-blob-signature')).toBeTruthy();
  });

  it('a second complete answers the same attachment', async () => {
    const upload = await start(4);
    await send(upload, 'four');

    const first = await api.client.post(completePath(upload.uploadId));
    const second = await api.client.post(completePath(upload.uploadId));

    expect(second.status).toBe(201);
    expect(second.body.id).toBe(first.body.id);
  });

  it('Blob refuses more bytes than announced, so there is nothing to complete', async () => {
    const upload = await start(4);

    expect((await send(upload, 'five!')).ok).toBe(false);
    const response = await api.client.post(completePath(upload.uploadId));

    expect(response.status).toBe(400);
    expect(errorOf(response).message).toBe('Upload not received: send the file to uploadUrl first');
  });

  it('Blob refuses another content type than announced', async () => {
    const upload = await start(4, 'image/png');
    expect((await send({ ...upload, headers: { ...upload.headers, 'x-content-type': 'text/html' } }, 'four')).ok).toBe(false);
    expect(fake.blobs.has(await keyOf(upload.uploadId))).toBe(false);
  });

  it('refuses fewer bytes than announced at complete and deletes the blob', async () => {
    const upload = await start(10);
    await send(upload, 'short');
    const key = await keyOf(upload.uploadId);

    const response = await api.client.post(completePath(upload.uploadId));

    expect(response.status).toBe(400);
    expect(errorOf(response).message).toBe('size: the uploaded file has 5 bytes, not the announced 10');
    expect(fake.blobs.has(key)).toBe(false);
  });

  it('removes the blob of an upload never completed once its time is up', async () => {
    const upload = await start(4);
    await send(upload, 'four');
    const key = await keyOf(upload.uploadId);

    await sweepExpiredUploads(db(), Date.now() + 30 * MINUTE_MS + 1000);

    expect(fake.blobs.has(key)).toBe(false);
    expect(await db().pendingUpload.findUnique({ where: { id: upload.uploadId } })).toBeNull();
  });

  it('a sweep that cannot delete the blob keeps the row, and a later sweep removes both', async () => {
    const upload = await start(4);
    await send(upload, 'four');
    const key = await keyOf(upload.uploadId);
    const due = Date.now() + 30 * MINUTE_MS + 1000;

    fake.unavailable = true;
    try {
      await expect(sweepExpiredUploads(db(), due)).rejects.toThrow();
    } finally {
      fake.unavailable = false;
    }
    expect(await db().pendingUpload.findUnique({ where: { id: upload.uploadId } })).not.toBeNull();
    expect(fake.blobs.has(key)).toBe(true);

    expect((await sweepExpiredUploads(db(), due)).deleted).toBeGreaterThan(0);
    expect(await db().pendingUpload.findUnique({ where: { id: upload.uploadId } })).toBeNull();
    expect(fake.blobs.has(key)).toBe(false);
  });
});
