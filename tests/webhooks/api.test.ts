import fc from 'fast-check';
import { Webhook } from 'standardwebhooks';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { z } from 'zod';
import { db } from '../../server/db/client';
import type { deliveryListSchema, deliverySchema, webhookSchema } from '../../server/webhooks/schemas';
import { startWebhookWorker, type WebhookWorker } from '../../server/jobs/worker';
import { useApi } from '../support/api';
import { apiClient, errorOf, type Answer } from '../support/client';
import { createWorkspaceFixture } from '../support/fixtures';
import { connectApp, personSignedIn, restResource } from '../support/oauth';
import { PATIENCE_MS } from '../support/patience';
import { settingsClient } from '../support/settings';
import { createTask, startReceiver, type Received } from './receiver';

process.env.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = 'true';
// One retry, at once.
process.env.WEBHOOK_RETRY_DELAYS = '0';

const api = useApi();
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let worker: WebhookWorker;
/** A key with webhook:manage, as an integration platform holds it. */
let integration: ReturnType<typeof apiClient>;
let integrationKeyId: string;

type Hook = z.output<typeof webhookSchema> & { secret?: string };
type Delivery = z.output<typeof deliverySchema>;
type DeliveryList = z.output<typeof deliveryListSchema>;

beforeAll(async () => {
  receiver = await startReceiver();
  worker = await startWebhookWorker(process.env.DATABASE_URL!);
  integration = apiClient(api.server.baseUrl, await api.fixture.key({ name: 'Zapier', scopes: ['task:read', 'webhook:manage'] }));
  integrationKeyId = (await db().apiKey.findFirstOrThrow({ where: { workspaceId: api.fixture.workspace.id, name: 'Zapier' } })).id;
});
afterAll(async () => {
  await worker.stop();
  await receiver.close();
});

/** Subscribes a fresh receiver path through the API. */
async function subscribe(body: Record<string, unknown> = {}, client = integration) {
  const path = randomUUID();
  const answer = (await client.post('/webhooks/endpoints', { url: receiver.url(path), ...body })) as Answer<Hook>;
  expect(answer.status, answer.text).toBe(201);
  return { ...answer.body, path, received: () => receiver.received(path) };
}

const verify = (secret: string, request: Received) => new Webhook(secret).verify(request.body, request.headers) as { type: string };

async function deliveries(endpointId: string, query = '') {
  const answer = (await integration.get(`/webhooks/endpoints/${endpointId}/deliveries${query}`)) as Answer<DeliveryList>;
  expect(answer.status).toBe(200);
  return answer.body;
}

/** Waits until the endpoint's deliveries have all ended, delivered or failed. */
async function settled(endpointId: string, count: number) {
  await vi.waitFor(
    async () => {
      const { deliveries: listed } = await deliveries(endpointId);
      expect(listed.filter((delivery) => delivery.status !== 'pending')).toHaveLength(count);
    },
    { timeout: PATIENCE_MS, interval: 100 },
  );
}

const auditOf = (targetId: string) =>
  db().auditEvent.findMany({
    where: { targetId },
    orderBy: { occurredAt: 'asc' },
    select: { action: true, actorType: true, actorId: true },
  });

describe('a subscription as an integration platform makes it', () => {
  it('subscribe, receive a verified event, test, redeliver, unsubscribe; a second delete is 404', async () => {
    const hook = await subscribe({ events: ['task.created'] });
    expect(hook).toMatchObject({
      url: receiver.url(hook.path),
      events: ['task.created'],
      project: null,
      enabled: true,
      createdBy: { kind: 'api_key', id: integrationKeyId, name: 'Zapier', revoked: false },
    });
    expect(hook.secret).toMatch(/^whsec_/);
    // The secret leaves the server in the create answer only.
    const fetched = await integration.get(`/webhooks/endpoints/${hook.id}`);
    expect(fetched.text).not.toContain(hook.secret!);
    expect((await integration.get('/webhooks/endpoints')).text).not.toContain(hook.secret!);

    const task = await createTask(api);
    await settled(hook.id, 1);
    const [event] = hook.received();
    expect(verify(hook.secret!, event!)).toMatchObject({ type: 'task.created', data: { task: { id: task.id } } });

    const tested = (await integration.post(`/webhooks/endpoints/${hook.id}/test`)) as Answer<Delivery>;
    expect(tested.status).toBe(201);
    expect(tested.body).toMatchObject({ eventType: 'webhook.test', status: 'pending', attempts: 0 });
    await settled(hook.id, 2);
    const test = hook.received().find((request) => request.headers['webhook-id'] === tested.body.messageId)!;
    expect(verify(hook.secret!, test)).toMatchObject({
      type: 'webhook.test',
      data: { workspace: { slug: api.fixture.workspace.slug }, webhook: { id: hook.id } },
    });

    const listed = await deliveries(hook.id);
    expect(listed.deliveries.map((delivery) => [delivery.eventType, delivery.status, delivery.attempts, delivery.responseCode])).toEqual([
      ['webhook.test', 'delivered', 1, 204],
      ['task.created', 'delivered', 1, 204],
    ]);
    const created = listed.deliveries[1]!;
    const redelivered = (await integration.post(`/webhooks/endpoints/${hook.id}/deliveries/${created.id}/redeliver`)) as Answer<Delivery>;
    expect(redelivered.status).toBe(200);
    expect(redelivered.body).toMatchObject({ id: created.id, status: 'pending', attempts: 0 });
    await settled(hook.id, 2);
    const again = hook.received().filter((request) => request.headers['webhook-id'] === created.messageId);
    expect(again).toHaveLength(2);
    expect(again[1]!.body).toBe(again[0]!.body);
    verify(hook.secret!, again[1]!);

    const removed = await integration.delete(`/webhooks/endpoints/${hook.id}`);
    expect([removed.status, removed.body]).toEqual([200, { success: true }]);
    expect(errorOf(await integration.delete(`/webhooks/endpoints/${hook.id}`))).toEqual({
      statusCode: 404,
      message: 'Webhook endpoint not found',
    });
    expect(errorOf(await integration.get(`/webhooks/endpoints/${hook.id}`)).statusCode).toBe(404);

    expect((await auditOf(hook.id)).map((event) => [event.action, event.actorType, event.actorId])).toEqual([
      ['webhook_endpoint.created', 'api_key', integrationKeyId],
      ['webhook_endpoint.deleted', 'api_key', integrationKeyId],
    ]);
    expect((await auditOf(created.id)).map((event) => [event.action, event.actorType])).toEqual([['webhook_delivery.resent', 'api_key']]);
  });

  it('a receiver answering 410 Gone is disabled at once, and the API and the settings page say so', async () => {
    const hook = await subscribe();
    receiver.answer(hook.path, 410);
    await integration.post(`/webhooks/endpoints/${hook.id}/test`);
    await settled(hook.id, 1);

    const answer = (await integration.get(`/webhooks/endpoints/${hook.id}`)) as Answer<Hook>;
    expect(answer.body).toMatchObject({ enabled: false, disabledReason: 'The endpoint answered 410 Gone.' });
    const admin = await personSignedIn(api.server.baseUrl, api.fixture.workspace.id, 'admin');
    const page = await settingsClient(api.server.baseUrl, { cookie: admin.cookie }).query('webhooks.list', {
      workspace: api.fixture.workspace.slug,
    });
    expect(page.data.find((endpoint: { id: string }) => endpoint.id === hook.id)).toMatchObject({
      disabledReason: 'The endpoint answered 410 Gone.',
      createdBy: { kind: 'api_key', name: 'Zapier', revoked: false },
    });
    // A disabled endpoint is enabled again before it is sent anything.
    expect(errorOf(await integration.post(`/webhooks/endpoints/${hook.id}/test`))).toEqual({
      statusCode: 409,
      message: 'Enable the endpoint before sending a delivery again',
    });
  });

  it('an app connected with webhook:manage subscribes too; revoking it or its key leaves the endpoint as it is', async () => {
    const admin = await personSignedIn(api.server.baseUrl, api.fixture.workspace.id, 'admin');
    const connected = await connectApp(
      api.server.baseUrl,
      admin.cookie,
      { workspace: api.fixture.workspace.slug, scopes: ['webhook:manage'] },
      { resource: restResource(), scope: 'webhook:manage offline_access' },
    );
    const grant = await db().oauthGrant.findFirstOrThrow({ where: { clientId: connected.clientId }, select: { id: true } });
    const app = apiClient(api.server.baseUrl, connected.tokens.access_token);
    const byApp = await subscribe({}, app);
    expect(byApp.createdBy).toEqual({ kind: 'app', id: grant.id, name: 'Agent Desk', revoked: false });
    const keyed = await api.fixture.key({ name: 'Short-lived', scopes: ['webhook:manage'] });
    const byKey = await subscribe({}, apiClient(api.server.baseUrl, keyed));

    const settings = settingsClient(api.server.baseUrl, { cookie: admin.cookie });
    expect((await settings.mutate('apps.revoke', { workspace: api.fixture.workspace.slug, id: grant.id })).status).toBe(200);
    const keyId = byKey.createdBy!.id;
    expect((await settings.mutate('keys.revoke', { workspace: api.fixture.workspace.slug, id: keyId })).status).toBe(200);

    for (const hook of [byApp, byKey]) {
      const answer = (await integration.get(`/webhooks/endpoints/${hook.id}`)) as Answer<Hook>;
      expect(answer.body).toMatchObject({ enabled: true, createdBy: { revoked: true } });
    }
  });
});

describe('managing an endpoint', () => {
  it('PATCH changes what is sent and keeps the rest; disabling and enabling say who; each change is audited', async () => {
    const hook = await subscribe();
    const changed = (await integration.patch(`/webhooks/endpoints/${hook.id}`, {
      events: ['task.updated', 'comment.created'],
      project: 'web',
    })) as Answer<Hook>;
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({
      url: receiver.url(hook.path),
      events: ['task.updated', 'comment.created'],
      project: { id: api.fixture.projects.web.id, slug: 'web' },
    });
    const disabled = (await integration.patch(`/webhooks/endpoints/${hook.id}`, { enabled: false })) as Answer<Hook>;
    expect(disabled.body).toMatchObject({
      enabled: false,
      disabledReason: 'Disabled by Zapier.',
      events: ['task.updated', 'comment.created'],
    });
    const enabled = (await integration.patch(`/webhooks/endpoints/${hook.id}`, { enabled: true, project: null })) as Answer<Hook>;
    expect(enabled.body).toMatchObject({ enabled: true, disabledReason: null, project: null });

    const rotated = (await integration.post(`/webhooks/endpoints/${hook.id}/rotate-secret`)) as Answer<Hook>;
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(hook.secret);

    expect((await auditOf(hook.id)).map((event) => [event.action, event.actorId])).toEqual([
      ['webhook_endpoint.created', integrationKeyId],
      ['webhook_endpoint.updated', integrationKeyId],
      ['webhook_endpoint.disabled', integrationKeyId],
      ['webhook_endpoint.updated', integrationKeyId],
      ['webhook_endpoint.enabled', integrationKeyId],
      ['webhook_endpoint.secret_rotated', integrationKeyId],
    ]);
  });

  it('after a rotation each delivery is signed with both secrets for a day', async () => {
    const hook = await subscribe({ events: ['task.created'] });
    const rotated = (await integration.post(`/webhooks/endpoints/${hook.id}/rotate-secret`, {})) as Answer<Hook>;
    await createTask(api);
    await settled(hook.id, 1);
    const [request] = hook.received();
    verify(hook.secret!, request!);
    verify(rotated.body.secret!, request!);
  });

  it('a retried create with the same Idempotency-Key answers the same secret, which the record keeps sealed', async () => {
    const key = randomUUID();
    const body = { url: receiver.url(randomUUID()) };
    const first = (await integration.post('/webhooks/endpoints', body, { 'idempotency-key': key })) as Answer<Hook>;
    const again = (await integration.post('/webhooks/endpoints', body, { 'idempotency-key': key })) as Answer<Hook>;
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    const record = await db().idempotencyRecord.findFirstOrThrow({ where: { key } });
    expect(record.body).not.toContain(first.body.secret!);
    expect(await db().webhookEndpoint.count({ where: { url: body.url } })).toBe(1);
  });

  it('reads deliveries page by page', async () => {
    const hook = await subscribe();
    for (let i = 0; i < 3; i++) await integration.post(`/webhooks/endpoints/${hook.id}/test`);
    await settled(hook.id, 3);
    const first = await deliveries(hook.id, '?limit=2');
    const second = await deliveries(hook.id, `?limit=2&after=${first.meta.nextCursor}`);
    expect(first.meta.hasMore).toBe(true);
    expect(second.meta).toEqual({ hasMore: false, nextCursor: null });
    expect(new Set([...first.deliveries, ...second.deliveries].map((delivery) => delivery.id)).size).toBe(3);
  });
});

describe('refusals', () => {
  it('needs webhook:manage, named, on a key for every project', async () => {
    const reader = apiClient(api.server.baseUrl, await api.fixture.key({ scopes: ['task:read'] }));
    expect(errorOf(await reader.get('/webhooks/endpoints'))).toEqual({
      statusCode: 403,
      message: 'Missing required scope: webhook:manage',
    });
    const oneProject = apiClient(
      api.server.baseUrl,
      await api.fixture.key({ scopes: ['webhook:manage'], projectId: api.fixture.projects.web.id }),
    );
    expect(errorOf(await oneProject.post('/webhooks/endpoints', { url: receiver.url('x') }))).toEqual({
      statusCode: 403,
      message: "API key is limited to one project; the workspace's audit log, request log, usage and webhooks need a key for every project",
    });
  });

  it("answers another workspace's endpoint 404, and a malformed id 400", async () => {
    const other = await createWorkspaceFixture();
    const theirs = apiClient(api.server.baseUrl, await other.key({ scopes: ['webhook:manage'] }));
    const hook = await subscribe();
    for (const answer of [
      await theirs.get(`/webhooks/endpoints/${hook.id}`),
      await theirs.patch(`/webhooks/endpoints/${hook.id}`, { enabled: false }),
      await theirs.delete(`/webhooks/endpoints/${hook.id}`),
      await theirs.post(`/webhooks/endpoints/${hook.id}/test`),
      await theirs.get(`/webhooks/endpoints/${hook.id}/deliveries`),
    ]) {
      expect(errorOf(answer)).toEqual({ statusCode: 404, message: 'Webhook endpoint not found' });
    }
    expect(errorOf(await integration.get('/webhooks/endpoints/not-an-id'))).toEqual({
      statusCode: 400,
      message: 'endpointId: must be a UUID',
    });
  });

  it('names the field of bad input', async () => {
    const url = receiver.url(randomUUID());
    expect(errorOf(await integration.post('/webhooks/endpoints', { url, events: ['task.exploded'] })).message).toMatch(
      /^events\[0\]: must be one of task\.created/,
    );
    expect(errorOf(await integration.post('/webhooks/endpoints', { url: 'ftp://example.com/' }))).toEqual({
      statusCode: 400,
      message: 'url: must be an absolute http or https URL',
    });
    expect(errorOf(await integration.post('/webhooks/endpoints', { url, project: 'web', events: ['audit.event'] })).message).toBe(
      "events: audit.event is the whole workspace's; choose it on an endpoint for every project",
    );
    expect(errorOf(await integration.post('/webhooks/endpoints', { url, project: 'nope' }))).toEqual({
      statusCode: 404,
      message: 'Project not found',
    });
    expect(errorOf(await integration.post('/webhooks/endpoints', { url, secret: 'mine' }))).toEqual({
      statusCode: 400,
      message: 'Unknown field: secret',
    });
  });

  it('never answers 5xx, whatever a body holds, and every refusal is {statusCode, message}', async () => {
    const other = await createWorkspaceFixture();
    const client = apiClient(api.server.baseUrl, await other.key({ scopes: ['webhook:manage'] }));
    const existing = (await client.post('/webhooks/endpoints', { url: receiver.url(randomUUID()) })) as Answer<Hook>;
    const value = fc.oneof(fc.anything(), fc.webUrl(), fc.constantFrom('task.created', 'audit.event', 'web', 'nope'), fc.string());
    const body = fc.record({ url: value, events: fc.oneof(value, fc.array(value)), project: value, enabled: value }, { requiredKeys: [] });
    await fc.assert(
      fc.asyncProperty(body, fc.boolean(), async (fields, create) => {
        const answer = create
          ? await client.post('/webhooks/endpoints', fields)
          : await client.patch(`/webhooks/endpoints/${existing.body.id}`, fields);
        expect(answer.status).toBeLessThan(500);
        if (answer.status >= 400) errorOf(answer);
      }),
      { numRuns: 60 },
    );
  });

  it('keeps the per-workspace limit of 20 endpoints', async () => {
    const other = await createWorkspaceFixture();
    const client = apiClient(api.server.baseUrl, await other.key({ scopes: ['webhook:manage'] }));
    for (let i = 0; i < 20; i++) expect((await client.post('/webhooks/endpoints', { url: receiver.url(randomUUID()) })).status).toBe(201);
    expect(errorOf(await client.post('/webhooks/endpoints', { url: receiver.url(randomUUID()) }))).toEqual({
      statusCode: 409,
      message: 'A workspace has at most 20 webhook endpoints: delete one before adding another',
    });
    expect(((await client.get('/webhooks/endpoints')).body as { webhooks: unknown[] }).webhooks).toHaveLength(20);
  });
});
