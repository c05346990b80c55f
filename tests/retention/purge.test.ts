import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { db, processPool } from '../../server/db/client';
import { purgeStorage } from '../../server/retention/purge';
import { createEndpoint } from '../../server/webhooks/endpoints';
import { runPurge } from '../../server/jobs/worker';
import { useApi } from '../support/api';
import { FIXTURE_AUDIT } from '../support/fixtures';

process.env.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = 'true';
process.env.CRON_SECRET = 'cron-secret-for-tests';

const api = useApi();
const DAY_MS = 24 * 3_600_000;

async function endpoint() {
  return (
    await createEndpoint(
      db(),
      api.fixture.workspace.id,
      { url: `http://127.0.0.1:9/${randomUUID()}`, events: [], projectId: null },
      FIXTURE_AUDIT,
    )
  ).id;
}

/** `count` deliveries of the endpoint, the newest `newestDaysAgo` days old, one a minute before each other. */
async function deliveries(endpointId: string, count: number, newestDaysAgo: number) {
  await db().$executeRaw`
    INSERT INTO webhook_delivery (id, endpoint_id, message_id, event_type, payload, status, created_at, updated_at)
    SELECT gen_random_uuid(), ${endpointId}::uuid, 'msg_' || gen_random_uuid(), 'task.created', '{}', 'delivered',
           now() - ${newestDaysAgo}::int * interval '1 day' - n * interval '1 minute', now()
    FROM generate_series(0, ${count - 1}::int) AS n`;
}

const countOf = (endpointId: string) => db().webhookDelivery.count({ where: { endpointId } });

/** Purges until a run stops at no bound, as the worker's job and the runs it queues do. */
async function purgeAll(now?: number) {
  let after = {};
  for (;;) {
    const { next } = await purgeStorage(db(), { now, after });
    if (!next) return;
    after = next;
  }
}

describe('the purge of webhook deliveries', () => {
  it('deletes those older than 30 days except the newest 50 of each endpoint', async () => {
    const busy = await endpoint();
    const quiet = await endpoint();
    const recent = await endpoint();
    await deliveries(busy, 10, 1);
    await deliveries(busy, 120, 31);
    await deliveries(quiet, 60, 40);
    await deliveries(recent, 70, 2);
    expect([await countOf(busy), await countOf(quiet), await countOf(recent)]).toEqual([130, 60, 70]);

    await purgeAll();

    // busy: its 10 recent and the 40 newest old ones; quiet: its newest 50, old as they are.
    expect([await countOf(busy), await countOf(quiet), await countOf(recent)]).toEqual([50, 50, 70]);
    const oldestKept = await db().webhookDelivery.findFirstOrThrow({ where: { endpointId: busy }, orderBy: { createdAt: 'asc' } });
    expect(Date.now() - oldestKept.createdAt.getTime()).toBeLessThan(31 * DAY_MS + 41 * 60_000);
  });

  it('keeps exactly 50 when many share one time, as deliveries of one transaction do', async () => {
    const hook = await endpoint();
    await db().$executeRaw`
      INSERT INTO webhook_delivery (id, endpoint_id, message_id, event_type, payload, status, created_at, updated_at)
      SELECT gen_random_uuid(), ${hook}::uuid, 'msg_' || gen_random_uuid(), 'task.deleted', '{}', 'delivered', now() - interval '31 days', now()
      FROM generate_series(1, 70)`;

    await purgeAll();

    expect(await countOf(hook)).toBe(50);
  });

  it('does a bounded amount per run and goes on from where it stopped', async () => {
    const hook = await endpoint();
    await deliveries(hook, 50, 0);
    await deliveries(hook, 10_500, 31);

    // A run looks at 10,000 deliveries at most, the kept ones of other tests' endpoints among them.
    const first = await purgeStorage(db());
    expect(first.deliveries).toBeGreaterThan(9_000);
    expect(first.deliveries).toBeLessThanOrEqual(10_000);
    expect(first.next?.deliveriesAfter).toBeDefined();
    const second = await purgeStorage(db(), { after: first.next! });
    expect([first.deliveries + second.deliveries, second.next]).toEqual([10_500, null]);
    expect(await countOf(hook)).toBe(50);
  });
});

describe('the purge of expired records and uploads', () => {
  it('deletes expired Idempotency-Key records and keeps live ones', async () => {
    const { id: apiKeyId } = await db().apiKey.findFirstOrThrow({ where: { workspaceId: api.fixture.workspace.id } });
    const record = (key: string, expiresAt: Date) => ({ apiKeyId, key, fingerprint: '0'.repeat(64), claimToken: randomUUID(), expiresAt });
    await db().idempotencyRecord.createMany({
      data: [record('expired', new Date(Date.now() - 1_000)), record('live', new Date(Date.now() + 60_000))],
    });

    await purgeAll();

    expect((await db().idempotencyRecord.findMany({ where: { apiKeyId }, select: { key: true } })).map((r) => r.key)).toEqual(['live']);
  });

  it('removes a direct upload never completed once its time to complete has passed', async () => {
    const task = (await api.client.post('/web/tasks', { title: 'Gets a file' })).body;
    const started = await api.client.post(`/web/tasks/${task.id}/attachments/uploads`, { filename: 'a.txt', size: 1 });
    const uploadId = started.body.uploadId;

    await purgeAll(Date.now() + 29 * 60_000);
    expect(await db().pendingUpload.count({ where: { id: uploadId } })).toBe(1);
    await purgeAll(Date.now() + 31 * 60_000);
    expect(await db().pendingUpload.count({ where: { id: uploadId } })).toBe(0);
  });
});

describe('the purge where no worker keeps a schedule (Vercel Cron)', () => {
  const cron = (authorization?: string) =>
    fetch(`${api.server.baseUrl}/api/cron/purge`, { headers: authorization ? { authorization } : {} });

  it('answers 401 without CRON_SECRET, and purges with it, the runs it queued after the first included', async () => {
    const hook = await endpoint();
    await deliveries(hook, 50, 0);
    await deliveries(hook, 10_200, 35);

    expect((await cron('Bearer wrong')).status).toBe(401);
    expect(await countOf(hook)).toBe(10_250);
    expect((await cron('Bearer cron-secret-for-tests')).status).toBe(200);
    expect(await countOf(hook)).toBe(50);
  });

  it('runPurge leaves no job of its own behind', async () => {
    await runPurge(processPool(), db, 50_000);
    const jobs = await db().$queryRaw<{ count: number }[]>`
      SELECT count(*)::int AS count FROM graphile_worker.jobs WHERE task_identifier = 'storage_purge'`;
    expect(jobs).toEqual([{ count: 0 }]);
  });
});
