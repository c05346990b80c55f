import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { appSecret } from '../../server/app-secret';
import { db } from '../../server/db/client';
import { createEndpoint } from '../../server/webhooks/endpoints';
import { deliverJob } from '../../server/outbox/delivery-job';
import { ensureBuild } from '../support/build';
import { withoutTestMarkers } from '../e2e/app-server';
import { apiClient } from '../support/client';
import { FIXTURE_AUDIT, createWorkspaceFixture, type WorkspaceFixture } from '../support/fixtures';
import { freePort } from '../support/ports';
import { startReceiver } from './receiver';
import { PATIENCE_MS } from '../support/patience';

process.env.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = 'true';

const root = path.resolve(import.meta.dirname, '../..');
const nextBin = createRequire(import.meta.url).resolve('next/dist/bin/next');

let fx: WorkspaceFixture;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let server: ChildProcess;
let baseUrl: string;
let dataDir: string;

// `next start` runs the App Router routes as Vercel does, with no worker beside them: what
// a request queues is attempted by the request itself once it has answered, or not at all.
// It runs as a preview (VERCEL_ENV=preview), where no Cron Job calls either: its answers
// also carry the overdue retries and the purge.
beforeAll(async () => {
  await ensureBuild();
  fx = await createWorkspaceFixture();
  receiver = await startReceiver();
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'taskapi-after-'));
  const { WEBHOOK_RESIDENT_WORKER: _resident, ...environment } = withoutTestMarkers(process.env);
  server = spawn(process.execPath, [nextBin, 'start', '--port', String(port), '--hostname', '127.0.0.1'], {
    cwd: root,
    stdio: 'ignore',
    env: {
      ...environment,
      NODE_ENV: 'production',
      NEXT_TELEMETRY_DISABLED: '1',
      DATABASE_URL: process.env.DATABASE_URL,
      DATABASE_POOL_SIZE: '4',
      APP_URL: baseUrl,
      APP_SECRET: appSecret(),
      DATA_DIR: dataDir,
      WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
      VERCEL_ENV: 'preview',
    },
  });
  await vi.waitFor(
    async () => {
      expect(server.exitCode).toBeNull();
      expect((await fetch(`${baseUrl}/v1/public/openapi.json`)).status).toBe(200);
    },
    { timeout: PATIENCE_MS, interval: 250 },
  );
});

afterAll(async () => {
  if (server?.exitCode === null) {
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
  await receiver?.close();
  if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
});

/** Made by this process, which is production's: marked for previews, so the preview sends to it. */
const endpointForPreviews = (hookPath: string) =>
  createEndpoint(
    db(),
    fx.workspace.id,
    { url: receiver.url(hookPath), events: ['task.created'], projectId: null, deliverOnPreviews: true },
    FIXTURE_AUDIT,
  );

describe('webhooks where no worker runs beside the server (Vercel)', () => {
  // The first answer of the routes: the preview's overdue work runs at most once a minute.
  it("a preview's answer, a read too, runs the overdue retries and the purge, with no worker and no Cron call", async () => {
    const hookPath = randomUUID();
    const hook = await endpointForPreviews(hookPath);
    // A retry due now, as a failed attempt leaves it, and an Idempotency-Key record past its day.
    const retry = await db().webhookDelivery.create({
      data: {
        endpointId: hook.id,
        messageId: `msg_${randomUUID()}`,
        eventType: 'task.created',
        payload: '{"type":"task.created"}',
        attempts: 1,
      },
    });
    await db().$executeRaw`SELECT ${deliverJob(retry.id)}`;
    const key = await fx.key();
    const keyId = (await db().apiKey.findFirstOrThrow({ where: { workspaceId: fx.workspace.id }, select: { id: true } })).id;
    await db().idempotencyRecord.create({
      data: {
        apiKeyId: keyId,
        key: 'expired',
        fingerprint: '0'.repeat(64),
        claimToken: randomUUID(),
        expiresAt: new Date(Date.now() - 60_000),
      },
    });

    expect((await apiClient(baseUrl, key).get('/web/statuses')).status).toBe(200);

    await vi.waitFor(() => expect(receiver.received(hookPath)).toHaveLength(1), { timeout: PATIENCE_MS, interval: 100 });
    expect(receiver.received(hookPath)[0]!.body).toBe('{"type":"task.created"}');
    await vi.waitFor(async () => expect(await db().idempotencyRecord.count()).toBe(0), { timeout: PATIENCE_MS, interval: 100 });
  });

  it('a change that queued an event attempts its delivery right after the response, with no worker and no Cron call', async () => {
    const hookPath = randomUUID();
    const hook = await endpointForPreviews(hookPath);
    const client = apiClient(baseUrl, await fx.key());

    const created = await client.post('/web/tasks', { title: 'Attempted after the answer' });
    expect(created.status).toBe(201);

    await vi.waitFor(() => expect(receiver.received(hookPath)).toHaveLength(1), { timeout: PATIENCE_MS, interval: 100 });
    const [request] = receiver.received(hookPath);
    const event = new Webhook(hook.secret).verify(request!.body, request!.headers) as { type: string; data: { task: { id: string } } };
    expect(event.type).toBe('task.created');
    expect(event.data.task.id).toBe(created.body.id);
    await vi.waitFor(async () =>
      expect((await db().webhookDelivery.findFirstOrThrow({ where: { endpointId: hook.id } })).status).toBe('delivered'),
    );
  });
});
