import { describe, expect, it } from 'vitest';
import { db } from '../../server/db/client';
import { purgeStorage } from '../../server/retention/purge';
import { settleStorage } from '../../server/storage/storage';
import { useApi } from '../support/api';
import { useFakeBlobStore } from '../support/fake-blob-api';

// Attachments in a private Vercel Blob store: the fake Blob API, which lists too.
const fake = await useFakeBlobStore();

const api = useApi();
const MINUTE_MS = 60_000;

async function uploadTo(taskId: string, bytes: string) {
  const started = await api.client.post(`/web/tasks/${taskId}/attachments/uploads`, { filename: 'a.txt', size: bytes.length });
  const upload = started.body;
  const put = () => fetch(upload.uploadUrl, { method: upload.method, headers: upload.headers, body: bytes });
  expect((await put()).status).toBe(200);
  const key = (await db().pendingUpload.findUniqueOrThrow({ where: { id: upload.uploadId } })).storageKey;
  return { ...upload, key, put };
}

const newTask = async () => (await api.client.post('/web/tasks', { title: 'Gets a file' })).body.id;

describe('objects under the upload prefix that nothing references', () => {
  it('are deleted once their URL has expired; referenced and younger ones stay', async () => {
    // The URL still works after its upload was completed and its task deleted.
    const doomedTask = await newTask();
    const orphan = await uploadTo(doomedTask, 'late');
    expect((await api.client.post(`/web/tasks/${doomedTask}/attachments/uploads/${orphan.uploadId}/complete`)).status).toBe(201);
    expect((await api.client.delete(`/web/tasks/${doomedTask}`)).status).toBe(200);
    await settleStorage();
    expect(fake.blobs.has(orphan.key)).toBe(false);
    expect((await orphan.put()).status).toBe(200);
    expect(fake.blobs.has(orphan.key)).toBe(true);

    const keptTask = await newTask();
    const attached = await uploadTo(keptTask, 'kept');
    expect((await api.client.post(`/web/tasks/${keptTask}/attachments/uploads/${attached.uploadId}/complete`)).status).toBe(201);
    const pending = await uploadTo(keptTask, 'wait');

    // 15 minutes for the URL and one of margin: the orphan cannot be written again.
    const young = await purgeStorage(db(), { now: Date.now() + 15 * MINUTE_MS });
    expect(young.orphanedObjects).toBe(0);
    const due = await purgeStorage(db(), { now: Date.now() + 17 * MINUTE_MS });

    expect(due.orphanedObjects).toBe(1);
    expect([fake.blobs.has(orphan.key), fake.blobs.has(attached.key), fake.blobs.has(pending.key)]).toEqual([false, true, true]);
  });

  it('are looked for in the hours their URLs were issued, a page of 1,000 at a time', async () => {
    const before = fake.requests.length;
    await purgeStorage(db(), { now: Date.now() + 17 * MINUTE_MS });
    const lists = fake.requests.slice(before).filter((request) => request.method === 'GET' && request.url.searchParams.has('prefix'));
    expect(lists.length).toBeGreaterThanOrEqual(2);
    expect(lists.length).toBeLessThanOrEqual(3);
    for (const request of lists) {
      expect(request.url.searchParams.get('prefix')).toMatch(/^upload-\d{10}-$/);
      expect(request.url.searchParams.get('limit')).toBe('1000');
    }
  });
});
