import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../server/db/client';
import { createEndpoint } from '../../server/webhooks/endpoints';
import { useApi } from '../support/api';
import { startReceiver } from './receiver';

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
    const hook = await createEndpoint(db(), api.fixture.workspace.id, {
      url: receiver.url(path),
      events: ['task.created'],
      projectId: null,
    });
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
