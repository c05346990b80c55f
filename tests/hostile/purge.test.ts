import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { db } from '../../server/db/client';
import { purgeStorage } from '../../server/retention/purge';
import { createEndpoint } from '../../server/webhooks/endpoints';
import { apiClient } from '../support/client';
import { useFakeBlobStore } from '../support/fake-blob-api';
import { FIXTURE_AUDIT, createWorkspaceFixture, type WorkspaceFixture } from '../support/fixtures';
import { ensureBuild } from '../support/build';
import { startAppServer, type AppServer } from '../e2e/app-server';
import { PATIENCE_MS } from '../support/patience';

// The whole of `npm start`, the resident worker with its schedule included, on Vercel
// Blob (the fake Blob API), after a while of use: what was left behind goes.
const fake = await useFakeBlobStore();
process.env.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = 'true';

const MINUTE_MS = 60_000;
let app: AppServer;
let fx: WorkspaceFixture;
let endpointId: string;
let apiKeyId: string;

beforeAll(async () => {
  await ensureBuild();
  fx = await createWorkspaceFixture();
  const key = await fx.key();
  apiKeyId = (await db().apiKey.findFirstOrThrow({ where: { workspaceId: fx.workspace.id } })).id;
  // What the months before left: an answer kept past its 24 hours, and deliveries past
  // their 30 days, 60 of one endpoint (the newest 50 stay).
  await db().idempotencyRecord.create({
    data: {
      apiKeyId,
      key: 'yesterday',
      fingerprint: '0'.repeat(64),
      claimToken: randomUUID(),
      expiresAt: new Date(Date.now() - MINUTE_MS),
    },
  });
  endpointId = (await createEndpoint(db(), fx.workspace.id, { url: 'http://127.0.0.1:9/hook', events: [], projectId: null }, FIXTURE_AUDIT))
    .id;
  await db().$executeRaw`
    INSERT INTO webhook_delivery (id, endpoint_id, message_id, event_type, payload, status, created_at, updated_at)
    SELECT gen_random_uuid(), ${endpointId}::uuid, 'msg_' || gen_random_uuid(), 'task.created', '{}', 'delivered',
           now() - interval '31 days' - n * interval '1 minute', now()
    FROM generate_series(1, 60) AS n`;
  // The schedule known for an hour, its last quarter-hour missed while no worker ran:
  // the worker makes that run up as it starts.
  await db().$executeRaw`
    INSERT INTO graphile_worker._private_known_crontabs (identifier, known_since) VALUES ('storage_purge', now() - interval '1 hour')`;
  app = await startAppServer(process.env.DATABASE_URL!, {}, { launcher: true });
  client = apiClient(app.baseUrl, key);
});

let client: ReturnType<typeof apiClient>;

afterAll(async () => {
  await app?.stop();
});

describe('the purge beside npm start', () => {
  it('is on the resident worker’s schedule, and a run missed while it was down is made up at start', async () => {
    await vi.waitFor(
      async () => {
        expect(await db().webhookDelivery.count({ where: { endpointId } })).toBe(50);
        expect(await db().idempotencyRecord.count({ where: { apiKeyId, key: 'yesterday' } })).toBe(0);
      },
      { timeout: PATIENCE_MS, interval: 250 },
    );
    const [known] = await db().$queryRaw<{ last_execution: Date | null }[]>`
      SELECT last_execution FROM graphile_worker._private_known_crontabs WHERE identifier = 'storage_purge'`;
    expect(known?.last_execution).not.toBeNull();
    expect(app.events().find((event) => event.event === 'storage.purged')).toMatchObject({ deliveries: 10, idempotencyRecords: 1 });
  });

  it('removes an object a presigned URL stored after its upload was completed and its task deleted', async () => {
    const task = (await client.post('/web/tasks', { title: 'Gets a file, then goes' })).body;
    const upload = (await client.post(`/web/tasks/${task.id}/attachments/uploads`, { filename: 'a.txt', size: 4 })).body;
    const put = () => fetch(upload.uploadUrl, { method: upload.method, headers: upload.headers, body: 'late' });
    expect((await put()).status).toBe(200);
    const key = (await db().pendingUpload.findUniqueOrThrow({ where: { id: upload.uploadId } })).storageKey;
    expect((await client.post(`/web/tasks/${task.id}/attachments/uploads/${upload.uploadId}/complete`)).status).toBe(201);
    expect((await client.delete(`/web/tasks/${task.id}`)).status).toBe(200);
    await vi.waitFor(() => expect(fake.blobs.has(key)).toBe(false), { timeout: PATIENCE_MS });

    // Its URL still takes the bytes for the rest of its 15 minutes: an object nobody references.
    expect((await put()).status).toBe(200);
    expect(fake.blobs.has(key)).toBe(true);
    const objects = fake.blobs.size;

    // The purge's next run once the URL has expired.
    const purged = await purgeStorage(db(), { now: Date.now() + 17 * MINUTE_MS });

    expect(purged.orphanedObjects).toBe(1);
    expect(fake.blobs.has(key)).toBe(false);
    expect(fake.blobs.size).toBe(objects - 1);
  });
});
