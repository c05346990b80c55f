import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { db } from '../../server/db/client';
import { PREVIOUS_SECRET_GRACE_MS } from '../../server/webhooks/endpoints';
import { startWebhookWorker, type WebhookWorker } from '../../server/jobs/worker';
import { apiClient } from '../support/client';
import { createWorkspaceFixture, type WorkspaceFixture } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/http';
import { createPerson, settingsClient, signIn } from '../support/settings';
import { startReceiver, type Received } from '../webhooks/receiver';
import { PATIENCE_MS } from '../support/patience';

process.env.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = 'true';
// One retry, at once: a delivery failing twice ends failed and disables its endpoint.
process.env.WEBHOOK_RETRY_DELAYS = '0';

let server: TestServer;
let fx: WorkspaceFixture;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let worker: WebhookWorker;
let owner: string;
let admin: string;

async function cookieOf(role: 'owner' | 'admin' | 'member') {
  const person = await createPerson(fx.workspace.id, role);
  return (await signIn(server.baseUrl, person.email, person.password)).cookie;
}

const owned = () => settingsClient(server.baseUrl, { cookie: owner });

async function createHook(cookie = owner, fields: { events?: string[]; projectId?: string | null } = {}) {
  const path = randomUUID();
  const client = settingsClient(server.baseUrl, { cookie });
  const answer = await client.mutate('webhooks.create', {
    workspace: fx.workspace.slug,
    url: receiver.url(path),
    events: fields.events ?? [],
    projectId: fields.projectId ?? null,
  });
  expect(answer.status).toBe(200);
  return { ...answer.data, path, received: () => receiver.received(path) };
}

async function deliveries(id: string) {
  const answer = await owned().query('webhooks.deliveries', { workspace: fx.workspace.slug, id });
  expect(answer.status).toBe(200);
  return answer.data;
}

async function rotate(id: string, expirePrevious?: boolean) {
  const answer = await owned().mutate('webhooks.rotate', { workspace: fx.workspace.slug, id, expirePrevious });
  expect(answer.status).toBe(200);
  return answer.data;
}

/** The request of a task's creation, the hook's first delivery. */
async function nextDelivery(hook: Awaited<ReturnType<typeof createHook>>) {
  await createTask();
  await settled(hook.endpoint.id, 1);
  const [request] = hook.received();
  return request!;
}

/** What `standardwebhooks` makes of a request, verified with this secret. */
function verifies(secret: string, request: Received): boolean {
  try {
    new Webhook(secret).verify(request.body, request.headers);
    return true;
  } catch {
    return false;
  }
}

/** Waits until the endpoint has this many deliveries and none is pending. */
async function settled(id: string, count: number) {
  await vi.waitFor(
    async () => {
      const list = await deliveries(id);
      expect(list.filter((delivery) => delivery.status !== 'pending')).toHaveLength(count);
    },
    { timeout: PATIENCE_MS, interval: 100 },
  );
  return deliveries(id);
}

async function createTask() {
  const api = apiClient(server.baseUrl, await fx.key());
  expect((await api.post('/web/tasks', { title: 'Ship the settings page' })).status).toBe(201);
}

beforeAll(async () => {
  server = await startTestServer();
  fx = await createWorkspaceFixture();
  receiver = await startReceiver();
  worker = await startWebhookWorker(process.env.DATABASE_URL!);
  [owner, admin] = await Promise.all([cookieOf('owner'), cookieOf('admin')]);
});
afterAll(async () => {
  await worker.stop();
  await receiver.close();
  await server.close();
});

describe('settings router: who manages webhooks', () => {
  it('lets an owner add an endpoint and returns its secret once, never in the list', async () => {
    const hook = await createHook(owner, { events: ['task.created'], projectId: fx.projects.web.id });
    expect(hook.secret).toMatch(/^whsec_/);
    expect(hook.endpoint).toMatchObject({ events: ['task.created'], projectId: fx.projects.web.id, disabledAt: null });
    const listed = await owned().query('webhooks.list', { workspace: fx.workspace.slug });
    expect(listed.data.map((endpoint) => endpoint.id)).toContain(hook.endpoint.id);
    expect(JSON.stringify(listed.data)).not.toContain(hook.secret);
  });

  it('lets an admin add and delete an endpoint', async () => {
    const hook = await createHook(admin);
    const client = settingsClient(server.baseUrl, { cookie: admin });
    expect((await client.mutate('webhooks.delete', { workspace: fx.workspace.slug, id: hook.endpoint.id })).status).toBe(200);
    const listed = await client.query('webhooks.list', { workspace: fx.workspace.slug });
    expect(listed.data.map((endpoint) => endpoint.id)).not.toContain(hook.endpoint.id);
  });

  it('refuses a member with 403 on every call, as the keys page does', async () => {
    const hook = await createHook();
    const client = settingsClient(server.baseUrl, { cookie: await cookieOf('member') });
    const workspace = fx.workspace.slug;
    const id = hook.endpoint.id;
    const answers = await Promise.all([
      client.query('webhooks.list', { workspace }),
      client.query('webhooks.deliveries', { workspace, id }),
      client.mutate('webhooks.create', { workspace, url: receiver.url('x'), events: [], projectId: null }),
      client.mutate('webhooks.rotate', { workspace, id }),
      client.mutate('webhooks.setEnabled', { workspace, id, enabled: false }),
      client.mutate('webhooks.delete', { workspace, id }),
      client.mutate('webhooks.resend', { workspace, id, deliveryId: randomUUID() }),
    ]);
    for (const answer of answers) {
      expect(answer.status).toBe(403);
      expect(answer.error.message).toBe('Only owners and admins of this workspace manage its webhooks');
    }
  });

  it('refuses a signed-out caller with 401', async () => {
    const client = settingsClient(server.baseUrl);
    expect((await client.query('webhooks.list', { workspace: fx.workspace.slug })).status).toBe(401);
  });

  it("answers 404 for another workspace's endpoint", async () => {
    const hook = await createHook();
    const other = await createWorkspaceFixture();
    const person = await createPerson(other.workspace.id, 'owner');
    const { cookie } = await signIn(server.baseUrl, person.email, person.password);
    const answer = await settingsClient(server.baseUrl, { cookie }).mutate('webhooks.delete', {
      workspace: other.workspace.slug,
      id: hook.endpoint.id,
    });
    expect(answer.status).toBe(404);
    expect(answer.error.message).toBe('Webhook endpoint not found');
  });

  it('refuses a mutation from another origin even with a valid session, adding nothing', async () => {
    const before = (await owned().query('webhooks.list', { workspace: fx.workspace.slug })).data.length;
    const client = settingsClient(server.baseUrl, { cookie: owner, origin: 'https://evil.example' });
    const answer = await client.mutate('webhooks.create', {
      workspace: fx.workspace.slug,
      url: 'https://evil.example/hook',
      events: [],
      projectId: null,
    });
    expect(answer.status).toBe(403);
    expect(answer.error.message).toBe('Cross-site request refused');
    expect((await owned().query('webhooks.list', { workspace: fx.workspace.slug })).data).toHaveLength(before);
  });

  it('refuses an unknown event type with 400 naming the field', async () => {
    const answer = await owned().mutate('webhooks.create', {
      workspace: fx.workspace.slug,
      url: receiver.url('x'),
      events: ['task.exploded'],
      projectId: null,
    });
    expect(answer.status).toBe(400);
    expect(Object.keys(answer.error.data.fieldErrors!)).toEqual(['events']);
  });
});

describe('settings router: endpoints at work', () => {
  it('rotates the secret: the new one is returned once, and the old one signs beside it for 24 hours', async () => {
    const hook = await createHook();
    const before = Date.now();
    const rotated = await rotate(hook.endpoint.id);
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(hook.secret);
    const until = Date.parse(rotated.endpoint.previousSecretExpiresAt!);
    expect(until).toBeGreaterThanOrEqual(before + PREVIOUS_SECRET_GRACE_MS - 1000);
    expect(until).toBeLessThanOrEqual(Date.now() + PREVIOUS_SECRET_GRACE_MS);
    const request = await nextDelivery(hook);
    expect(verifies(rotated.secret, request)).toBe(true);
    expect(verifies(hook.secret, request)).toBe(true);
  });

  it('rotates with the old secret stopped at once when it leaked: only the new one signs', async () => {
    const hook = await createHook();
    const rotated = await rotate(hook.endpoint.id, true);
    expect(rotated.endpoint.previousSecretExpiresAt).toBeNull();
    const request = await nextDelivery(hook);
    expect(verifies(rotated.secret, request)).toBe(true);
    expect(verifies(hook.secret, request)).toBe(false);
  });

  it('stops signing with the old secret once its 24 hours are over', async () => {
    const hook = await createHook();
    const rotated = await rotate(hook.endpoint.id);
    await db().webhookEndpoint.update({ where: { id: hook.endpoint.id }, data: { previousSecretExpiresAt: new Date(Date.now() - 1000) } });
    const request = await nextDelivery(hook);
    expect(verifies(rotated.secret, request)).toBe(true);
    expect(verifies(hook.secret, request)).toBe(false);
    const listed = await owned().query('webhooks.list', { workspace: fx.workspace.slug });
    expect(listed.data.find((endpoint) => endpoint.id === hook.endpoint.id)?.previousSecretExpiresAt).toBeNull();
  });

  it('keeps only the secret the last rotation replaced: two sign at most', async () => {
    const hook = await createHook();
    const second = await rotate(hook.endpoint.id);
    const third = await rotate(hook.endpoint.id);
    const request = await nextDelivery(hook);
    expect(request.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect([hook.secret, second.secret, third.secret].map((secret) => verifies(secret, request))).toEqual([false, true, true]);
  });

  it('disables an endpoint with the reason shown, sends it nothing, and enables it again', async () => {
    const hook = await createHook();
    const disabled = await owned().mutate('webhooks.setEnabled', { workspace: fx.workspace.slug, id: hook.endpoint.id, enabled: false });
    expect(disabled.data.disabledAt).not.toBeNull();
    expect(disabled.data.disabledReason).toMatch(/^Disabled by /);
    await createTask();
    expect(await deliveries(hook.endpoint.id)).toEqual([]);
    const enabled = await owned().mutate('webhooks.setEnabled', { workspace: fx.workspace.slug, id: hook.endpoint.id, enabled: true });
    expect(enabled.data).toMatchObject({ disabledAt: null, disabledReason: null });
    await createTask();
    expect(await settled(hook.endpoint.id, 1)).toHaveLength(1);
  });

  it('lists a delivery with its status, response code, duration and attempts', async () => {
    const hook = await createHook();
    receiver.answer(hook.path, 202);
    await createTask();
    const [delivery] = await settled(hook.endpoint.id, 1);
    expect(delivery).toMatchObject({ eventType: 'task.created', status: 'delivered', responseCode: 202, attempts: 1 });
    expect(delivery?.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('shows why an endpoint was disabled after its delivery failed', async () => {
    const hook = await createHook();
    receiver.answer(hook.path, 410);
    await createTask();
    await settled(hook.endpoint.id, 1);
    const listed = await owned().query('webhooks.list', { workspace: fx.workspace.slug });
    expect(listed.data.find((endpoint) => endpoint.id === hook.endpoint.id)?.disabledReason).toBe('The endpoint answered 410 Gone.');
  });

  it('sends a delivery again with the same webhook-id and body through the worker', async () => {
    const hook = await createHook();
    receiver.answer(hook.path, 500, 500);
    await createTask();
    const [failed] = await settled(hook.endpoint.id, 1);
    expect(failed).toMatchObject({ status: 'failed', responseCode: 500, attempts: 2 });
    // The failure disabled the endpoint: it is enabled before the resend.
    await owned().mutate('webhooks.setEnabled', { workspace: fx.workspace.slug, id: hook.endpoint.id, enabled: true });
    const resent = await owned().mutate('webhooks.resend', { workspace: fx.workspace.slug, id: hook.endpoint.id, deliveryId: failed!.id });
    expect(resent.status).toBe(200);
    const [again] = await settled(hook.endpoint.id, 1);
    expect(again).toMatchObject({ id: failed!.id, status: 'delivered', responseCode: 204, attempts: 1 });
    const requests = hook.received();
    expect(requests).toHaveLength(3);
    expect(requests[2]!.headers['webhook-id']).toBe(requests[0]!.headers['webhook-id']);
    expect(requests[2]!.body).toBe(requests[0]!.body);
  });

  it('refuses to resend while the endpoint is disabled, with 409', async () => {
    const hook = await createHook();
    receiver.answer(hook.path, 410);
    await createTask();
    const [failed] = await settled(hook.endpoint.id, 1);
    const answer = await owned().mutate('webhooks.resend', { workspace: fx.workspace.slug, id: hook.endpoint.id, deliveryId: failed!.id });
    expect(answer.status).toBe(409);
    expect(answer.error.message).toBe('Enable the endpoint before sending a delivery again');
  });

  it('answers 404 for a delivery of another endpoint', async () => {
    const hook = await createHook();
    const answer = await owned().mutate('webhooks.resend', {
      workspace: fx.workspace.slug,
      id: hook.endpoint.id,
      deliveryId: randomUUID(),
    });
    expect(answer.status).toBe(404);
    expect(answer.error.message).toBe('Webhook delivery not found');
  });
});
