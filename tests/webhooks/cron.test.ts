import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { db, processPool } from '../../server/db/client';
import { ATTEMPT_TIMEOUT_MS } from '../../server/webhooks/deliver';
import { createEndpoint } from '../../server/webhooks/endpoints';
import { runDueWebhooks } from '../../server/jobs/worker';
import { useApi } from '../support/api';
import { PATIENCE_MS } from '../support/patience';
import { startReceiver } from './receiver';
import { FIXTURE_AUDIT } from '../support/fixtures';

process.env.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = 'true';
process.env.CRON_SECRET = 'cron-secret-for-tests';

const api = useApi();
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

const cron = (authorization?: string) =>
  fetch(`${api.server.baseUrl}/api/cron/webhooks`, { headers: authorization ? { authorization } : {} });

describe('the Vercel Cron route', () => {
  it('with CRON_SECRET as bearer token, delivers what is due; without it, answers 401 and sends nothing', async () => {
    const path = randomUUID();
    const hook = await createEndpoint(
      db(),
      api.fixture.workspace.id,
      {
        url: receiver.url(path),
        events: ['task.created'],
        projectId: null,
      },
      FIXTURE_AUDIT,
    );
    expect((await api.client.post('/web/tasks', { title: 'Via cron' })).status).toBe(201);

    expect((await cron()).status).toBe(401);
    expect((await cron('Bearer wrong')).status).toBe(401);
    expect(receiver.received(path)).toEqual([]);

    const response = await cron('Bearer cron-secret-for-tests');
    expect(response.status).toBe(200);
    const [request, ...more] = receiver.received(path);
    expect(more).toEqual([]);
    expect(new Webhook(hook.secret).verify(request!.body, request!.headers)).toMatchObject({ type: 'task.created' });
  });
});

describe('a run within a time limit (the Cron route, after a response)', () => {
  it('starts no attempt later than one timeout before its end, and leaves the rest queued for the next run', async () => {
    await db().webhookEndpoint.deleteMany({ where: { workspaceId: api.fixture.workspace.id } });
    const path = randomUUID();
    const release = receiver.hold(path);
    const hook = await createEndpoint(
      db(),
      api.fixture.workspace.id,
      {
        url: receiver.url(path),
        events: ['task.created'],
        projectId: null,
      },
      FIXTURE_AUDIT,
    );
    for (let i = 0; i < 8; i += 1) expect((await api.client.post('/web/tasks', { title: `Queued ${i}` })).status).toBe(201);

    // Attempts may start in the run's first 5 s: the worker takes four at once, which the receiver
    // answers only after that (within their 10 s), so the other four find no time left.
    const startBy = Date.now() + 5_000;
    const run = runDueWebhooks(processPool(), db, ATTEMPT_TIMEOUT_MS + 5_000);
    await vi.waitFor(() => expect(receiver.received(path)).toHaveLength(4), { timeout: PATIENCE_MS });
    await new Promise((resolve) => setTimeout(resolve, startBy - Date.now() + 100));
    release();
    await run;
    expect(receiver.received(path)).toHaveLength(4);
    const waiting = await db().webhookDelivery.findMany({ where: { endpointId: hook.id, status: 'pending' }, select: { attempts: true } });
    expect(waiting.map((delivery) => delivery.attempts)).toEqual([0, 0, 0, 0]);

    // Queued again a moment ahead, so the run that had no time for them ended.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await runDueWebhooks(processPool(), db, 60_000);
    expect(receiver.received(path)).toHaveLength(8);
    expect(await db().webhookDelivery.count({ where: { endpointId: hook.id, status: 'delivered' } })).toBe(8);
  });
});
