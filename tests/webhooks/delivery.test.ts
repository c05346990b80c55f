import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { db } from '../../server/db/client';
import { createEndpoint } from '../../server/webhooks/endpoints';
import { attemptDelivery } from '../../server/webhooks/deliver';
import { deliverJob } from '../../server/outbox/delivery-job';
import type { EventType } from '../../server/webhooks/events';
import { startWebhookWorker, type WebhookWorker } from '../../server/jobs/worker';
import { useApi } from '../support/api';
import { createTask, startReceiver, type Received } from './receiver';
import { PATIENCE_MS } from '../support/patience';
import { FIXTURE_AUDIT } from '../support/fixtures';

process.env.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = 'true';
// Two retries, at once: a delivery is tried three times before its endpoint is disabled.
process.env.WEBHOOK_RETRY_DELAYS = '0,0';

const api = useApi();
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let worker: WebhookWorker;

beforeAll(async () => {
  receiver = await startReceiver();
  worker = await startWebhookWorker(process.env.DATABASE_URL!);
});
afterAll(async () => {
  await worker.stop();
  await receiver.close();
});

async function endpoint(events: EventType[] = []) {
  const path = randomUUID();
  const created = await createEndpoint(db(), api.fixture.workspace.id, { url: receiver.url(path), events, projectId: null }, FIXTURE_AUDIT);
  return {
    ...created,
    received: () => receiver.received(path),
    answer: (...statuses: number[]) => receiver.answer(path, ...statuses),
    /** What `standardwebhooks` makes of a request: throws unless the signature holds. */
    verify: (request: Received) => new Webhook(created.secret).verify(request.body, request.headers),
  };
}

/** Waits until every delivery of the endpoint has ended, delivered or failed. */
async function settled(endpointId: string, deliveries: number) {
  await vi.waitFor(
    async () => {
      const rows = await db().webhookDelivery.findMany({ where: { endpointId }, select: { status: true } });

      expect(rows.filter((row) => row.status !== 'pending')).toHaveLength(deliveries);
    },
    { timeout: PATIENCE_MS, interval: 100 },
  );
}

describe('delivery', () => {
  it('sends every event type signed to the Standard Webhooks spec, with the body recorded at the change', async () => {
    const hook = await endpoint();
    const task = await createTask(api);
    await api.client.patch(`/web/tasks/${task.id}`, { title: 'Renamed', priority: 'high' });
    await api.client.post(`/web/tasks/${task.id}/comments`, { content: 'Looks good' });
    const form = new FormData();
    form.append('file', new Blob(['hello'], { type: 'text/plain' }), 'notes.txt');
    await api.client.post(`/web/tasks/${task.id}/attachments`, form);
    await api.client.delete(`/web/tasks/${task.id}`);
    await settled(hook.id, 5);

    const rows = await db().webhookDelivery.findMany({ where: { endpointId: hook.id } });
    const requests = hook.received();
    expect(requests).toHaveLength(5);
    for (const request of requests) {
      const row = rows.find((candidate) => candidate.messageId === request.headers['webhook-id'])!;
      expect(request.body).toBe(row.payload);
      expect(hook.verify(request)).toEqual(JSON.parse(row.payload));
      expect(request.headers['content-type']).toBe('application/json');
      expect(request.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
      expect(row).toMatchObject({ status: 'delivered', attempts: 1, responseCode: 204 });
    }
    expect(requests.map((request) => JSON.parse(request.body).type).sort()).toEqual([
      'attachment.created',
      'comment.created',
      'task.created',
      'task.deleted',
      'task.updated',
    ]);
    const created = requests.map((request) => JSON.parse(request.body)).find((body) => body.type === 'task.created');
    expect(created.data.task).toEqual(task);
  });

  it('a signature made with another secret fails verification', async () => {
    const hook = await endpoint(['task.created']);
    const other = await endpoint(['task.created']);
    await createTask(api);
    await settled(hook.id, 1);
    expect(() => other.verify(hook.received()[0]!)).toThrow();
  });

  it('retries a failing receiver with the same webhook-id until it answers 2xx', async () => {
    const hook = await endpoint(['task.created']);
    hook.answer(500, 503);
    await createTask(api);
    await settled(hook.id, 1);
    const requests = hook.received();
    expect(requests).toHaveLength(3);
    expect(new Set(requests.map((request) => request.headers['webhook-id'])).size).toBe(1);
    for (const request of requests) hook.verify(request);
    const [row] = await db().webhookDelivery.findMany({ where: { endpointId: hook.id } });
    expect(row).toMatchObject({ status: 'delivered', attempts: 3, responseCode: 204, lastError: null });
  });

  it('a 410 disables the endpoint at once', async () => {
    const hook = await endpoint(['task.created']);
    hook.answer(410);
    await createTask(api);
    await settled(hook.id, 1);
    expect(hook.received()).toHaveLength(1);
    const row = await db().webhookEndpoint.findUniqueOrThrow({ where: { id: hook.id } });
    expect(row.disabledAt).not.toBeNull();
    expect(row.disabledReason).toBe('The endpoint answered 410 Gone.');
    // The audit log names the server as who disabled it, in the attempt's own transaction.
    expect(await db().auditEvent.findMany({ where: { action: 'webhook_endpoint.disabled', targetId: hook.id } })).toMatchObject([
      { actorType: 'system', actorName: 'webhook delivery', changes: { enabled: { before: true, after: false } } },
    ]);
    await createTask(api);
    expect(await db().webhookDelivery.count({ where: { endpointId: hook.id } })).toBe(1);
  });

  it('after the last retry fails the delivery fails and the endpoint is disabled with the reason', async () => {
    const hook = await endpoint(['task.created']);
    hook.answer(500, 500, 500);
    await createTask(api);
    await settled(hook.id, 1);
    expect(hook.received()).toHaveLength(3);
    const [delivery] = await db().webhookDelivery.findMany({ where: { endpointId: hook.id } });
    expect(delivery).toMatchObject({ status: 'failed', attempts: 3, responseCode: 500, lastError: 'HTTP 500' });
    const row = await db().webhookEndpoint.findUniqueOrThrow({ where: { id: hook.id } });
    expect(row.disabledReason).toBe('Every attempt failed for 0 s; the last: HTTP 500');
  });
});

describe('one attempt at a time', () => {
  /** A pending delivery with no job queued for it, as two racing jobs would find it. */
  async function pendingDelivery(endpointId: string) {
    const id = randomUUID();
    await db().webhookDelivery.create({
      data: { id, endpointId, messageId: `msg_${id.replaceAll('-', '')}`, eventType: 'task.created', payload: '{"type":"task.created"}' },
    });
    return id;
  }

  it('two attempts that reach the same pending delivery POST it once', async () => {
    const hook = await endpoint(['task.created']);
    const release = receiver.hold(hook.id);
    const id = await pendingDelivery(hook.id);
    const attempts = Promise.all([attemptDelivery(db(), id), attemptDelivery(db(), id)]);
    await vi.waitFor(() => expect(hook.received()).toHaveLength(1));
    release();
    await attempts;
    expect(hook.received()).toHaveLength(1);
    expect(await db().webhookDelivery.findUniqueOrThrow({ where: { id } })).toMatchObject({
      status: 'delivered',
      attempts: 1,
      claimedUntil: null,
    });
  });

  it('an attempt that died holding its claim is taken over once the claim runs out, with the same webhook-id', async () => {
    const hook = await endpoint(['task.created']);
    const id = await pendingDelivery(hook.id);
    await db().webhookDelivery.update({ where: { id }, data: { claimedUntil: new Date(Date.now() + 60_000) } });
    await attemptDelivery(db(), id);
    expect(hook.received()).toHaveLength(0);
    await db().webhookDelivery.update({ where: { id }, data: { claimedUntil: new Date(Date.now() - 1) } });
    await attemptDelivery(db(), id);
    expect(hook.received().map((request) => request.headers['webhook-id'])).toEqual([`msg_${id.replaceAll('-', '')}`]);
  });

  it('queuing a delivery again moves its one job instead of adding another', async () => {
    const hook = await endpoint(['task.created']);
    const id = await pendingDelivery(hook.id);
    const later = new Date(Date.now() + 3_600_000);
    await db().$executeRaw`SELECT ${deliverJob(id, later)}`;
    await db().$executeRaw`SELECT ${deliverJob(id, later)}`;
    const [row] = await db().$queryRaw<{ jobs: number }[]>`SELECT count(*)::int AS jobs FROM graphile_worker.jobs WHERE key = ${id}`;
    expect(row?.jobs).toBe(1);
  });
});
