import { createHash } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it, vi } from 'vitest';
import {
  ConflictError,
  NotFoundError,
  NotModifiedError,
  PreconditionFailedError,
  TaskApi,
  TooLargeError,
  verifyWebhook,
  WebhookVerificationError,
  type RequestEvent,
  type ResponseEvent,
} from '../../client/src/index';
import { OPERATIONS } from '../../client/src/generated/operations';
import { PATIENCE_MS } from '../support/patience';
import { startReceiver } from '../webhooks/receiver';
import { RATE_LIMIT_PER_MINUTE, type ClientContext } from './context';
import { startDroppingProxy, startScriptedServer } from './support';

const MB = 1024 * 1024;

/** Every attempt a client makes, as its events report them. */
function recordAttempts(api: TaskApi) {
  const sent: RequestEvent[] = [];
  const answered: ResponseEvent[] = [];
  api.on('request', (event) => sent.push(event));
  api.on('response', (event) => answered.push(event));
  return { sent, answered };
}

export function clientCases(context: ClientContext) {
  describe.sequential('the client against the production server', () => {
    it('calls every operation of the document once, each resolving to its parsed body with lastResponse', async () => {
      const api = await context.client();
      const small = await context.client({ directUploadAbove: 0 });
      const { sent } = recordAttempts(api);
      const smallAttempts = recordAttempts(small);
      const web = { project: 'web' };

      const statuses = await api.statuses.list(web);
      const labels = await api.labels.list(web);
      const members = await api.members.list(web);
      expect(statuses.map((status) => status.name)).toEqual(['To Do', 'In Progress', 'Done', 'In Review']);
      expect(labels.map((label) => label.name)).toEqual(['bug', 'design']);
      expect(members.lastResponse.status).toBe(200);

      const task = await api.tasks.create({ ...web, title: 'Every method', priority: 'high', labelIds: [labels[0]!.id] });
      expect(task.lastResponse).toMatchObject({ status: 201, requestId: expect.any(String), idempotencyKey: expect.any(String) });
      expect(task.lastResponse.headers.etag).toMatch(/^"/);
      expect(JSON.parse(JSON.stringify(task))).not.toHaveProperty('lastResponse');
      const read = await api.tasks.get({ ...web, task: task.externalId.toLowerCase() });
      expect(read.id).toBe(task.id);
      await expect(api.tasks.get({ ...web, task: task.id }, { ifNoneMatch: read.lastResponse.headers.etag })).rejects.toBeInstanceOf(
        NotModifiedError,
      );
      const updated = await api.tasks.update(
        { ...web, task: task.id, statusId: statuses[1]!.id },
        { ifMatch: read.lastResponse.headers.etag },
      );
      expect(updated.status?.name).toBe('In Progress');
      const page = await api.tasks.list({ ...web, search: 'Every method' });
      expect(page.tasks.map((listed) => listed.id)).toEqual([task.id]);
      expect(page.meta.total).toBe(1);

      const batch = await api.tasks.createMany({ ...web, tasks: [{ title: 'Batch one' }, { title: 'Batch two' }] });
      const changed = await api.tasks.updateMany({ ...web, tasks: batch.tasks.map((made) => ({ id: made.id, priority: 'low' as const })) });
      expect(changed.tasks.map((made) => made.priority)).toEqual(['low', 'low']);

      const comment = await api.comments.create({ ...web, task: task.externalId, content: 'First!' });
      const comments = await api.comments.list({ ...web, task: task.externalId });
      expect(comments.map((listed) => listed.id)).toEqual([comment.id]);

      const file = new File(['hello'], 'hello.txt', { type: 'text/plain' });
      const multipart = await api.attachments.uploadMultipart({ ...web, task: task.id, file });
      const direct = await small.attachments.upload({ ...web, task: task.id }, new TextEncoder().encode('direct'), { filename: 'd.txt' });
      const attachment = await api.attachments.get({ ...web, task: task.id, attachment: direct.id });
      expect([multipart.filename, direct.filename, attachment.size]).toEqual(['hello.txt', 'd.txt', 6]);
      expect(smallAttempts.sent.map((event) => event.operation)).toEqual(['uploads-create', undefined, 'uploads-complete']);

      expect(await api.tasks.delete({ ...web, task: task.id })).toEqual({ success: true });
      const deleted = [];
      for await (const gone of api.tasks.deleted(web)) deleted.push(gone.id);
      expect(deleted).toContain(task.id);

      const events = await api.auditEvents.list({ limit: 1 });
      expect(events.meta).toHaveProperty('nextCursor');
      const exported = await api.auditEvents.export({ format: 'ndjson' });
      expect(exported.headers.get('content-type')).toContain('application/x-ndjson');
      await exported.text();
      expect((await api.requests.list({ limit: 1 })).lastResponse.status).toBe(200);
      expect((await api.requests.mine({ limit: 1 })).lastResponse.status).toBe(200);
      expect((await api.usage.get()).lastResponse.status).toBe(200);

      const me = await api.me.get();
      expect([me.kind, me.workspace.slug, me.project, me.rateLimit.limit]).toEqual([
        'api_key',
        context.fx.workspace.slug,
        null,
        RATE_LIMIT_PER_MINUTE,
      ]);
      const slugs: string[] = [];
      for await (const project of api.projects.list({ limit: 2 })) slugs.push(project.slug);
      // Pages of two, by slug: the fixture's projects and the file's own three.
      expect(slugs).toEqual([...slugs].sort());
      expect(slugs).toEqual(expect.arrayContaining(['hooks', 'import', 'walk', 'web']));

      const receiver = await startReceiver();
      try {
        const endpoint = await api.webhooks.create({ url: receiver.url('every-method'), events: ['task.created'], project: 'hooks' });
        expect([endpoint.lastResponse.status, endpoint.createdBy?.kind, endpoint.secret]).toEqual([
          201,
          'api_key',
          expect.stringMatching(/^whsec_/),
        ]);
        expect((await api.webhooks.list()).webhooks.map((listed) => listed.id)).toContain(endpoint.id);
        expect((await api.webhooks.get({ endpoint: endpoint.id })).project?.slug).toBe('hooks');
        expect((await api.webhooks.update({ endpoint: endpoint.id, events: [] })).events).toEqual([]);
        const rotated = await api.webhooks.rotateSecret({ endpoint: endpoint.id });
        expect(rotated.secret).not.toBe(endpoint.secret);
        const test = await api.webhooks.test({ endpoint: endpoint.id });
        expect(test.eventType).toBe('webhook.test');
        await vi.waitFor(
          async () => {
            const { deliveries } = await api.webhookDeliveries.list({ endpoint: endpoint.id });
            expect(deliveries.map((delivery) => [delivery.id, delivery.status])).toEqual([[test.id, 'delivered']]);
          },
          { timeout: PATIENCE_MS, interval: 100 },
        );
        const again = await api.webhookDeliveries.redeliver({ endpoint: endpoint.id, delivery: test.id });
        expect([again.id, again.status]).toEqual([test.id, 'pending']);
        const received = await vi.waitFor(
          () => {
            const both = receiver.received('every-method');
            if (both.length < 2) throw new Error('not delivered again yet');
            return both;
          },
          { timeout: PATIENCE_MS, interval: 100 },
        );
        expect((await verifyWebhook(rotated.secret, received[1]!.headers, received[1]!.body)).type).toBe('webhook.test');
        expect(await api.webhooks.delete({ endpoint: endpoint.id })).toEqual({ success: true });
        await expect(api.webhooks.delete({ endpoint: endpoint.id })).rejects.toBeInstanceOf(NotFoundError);
      } finally {
        await receiver.close();
      }

      const all = Object.values(OPERATIONS).flatMap((methods) => Object.values(methods).map((spec) => spec.id));
      const called = new Set([...sent, ...smallAttempts.sent].map((event) => event.operation));
      expect(all.filter((id) => !called.has(id))).toEqual([]);
    });

    it('walks 1,000 tasks page by page with for await, and reads one page at a time when asked', async () => {
      const api = await context.client();
      const project = context.projects.walk;
      for (let start = 0; start < 1000; start += 100) {
        await api.tasks.createMany({ project, tasks: Array.from({ length: 100 }, (_, i) => ({ title: `Walk ${start + i}` })) });
      }
      const { sent } = recordAttempts(api);

      const seen = new Set<string>();
      for await (const task of api.tasks.list({ project, limit: 100 })) seen.add(task.id);

      expect(seen.size).toBe(1000);
      expect(sent.filter((event) => event.operation === 'tasks-list')).toHaveLength(10);
      const first = await api.tasks.list({ project, limit: 100, sort: 'createdAt', order: 'asc' });
      const second = await api.tasks.list({ project, limit: 100, sort: 'createdAt', order: 'asc', after: first.meta.nextCursor! });
      expect([first.tasks[0]!.title, second.tasks[0]!.title, second.meta.hasMore]).toEqual(['Walk 0', 'Walk 100', true]);
      let pages = 0;
      for await (const listed of api.tasks.list({ project, limit: 100, search: 'Walk 99' }).pages())
        pages += listed.tasks.length > 0 ? 1 : 0;
      expect(pages).toBe(1);
    });

    it('retries a create whose connection dropped after the server took it: one task, the answer replayed', async () => {
      const title = `Dropped ${Date.now()}`;
      const proxy = await startDroppingProxy(new URL(context.app.baseUrl), title);
      try {
        const api = await context.client({ baseUrl: `${proxy.url}/v1/public` });
        const { answered } = recordAttempts(api);

        const task = await api.tasks.create({ project: 'web', title });

        expect(proxy.dropped()).toBe(true);
        expect(answered.map((event) => [event.attempt, event.status, event.idempotencyKey])).toEqual([
          [0, undefined, task.lastResponse.idempotencyKey],
          [1, 201, task.lastResponse.idempotencyKey],
        ]);
        expect(task.lastResponse.headers['idempotent-replayed']).toBe('true');
        const found = await (await context.client()).tasks.list({ project: 'web', search: title });
        expect(found.tasks.map((listed) => listed.id)).toEqual([task.id]);
      } finally {
        await proxy.close();
      }
    });

    it('retries a 409 that says when, no answer in time and a 503, with one Idempotency-Key, and not another 409', async () => {
      const stub = await startScriptedServer([
        { status: 409, headers: { 'retry-after': '1' }, body: { statusCode: 409, message: 'Idempotency-Key: still being processed' } },
        'no answer',
        { status: 503, body: { statusCode: 503, message: 'Service temporarily unavailable' } },
        { status: 201, headers: { 'x-request-id': 'req-4' }, body: { id: 'created' } },
        { status: 409, body: { statusCode: 409, message: 'Task already has 1000 comments, the most a task may have' } },
      ]);
      try {
        const api = new TaskApi({ apiKey: 'tk_stub', baseUrl: stub.url, timeout: 1000 });
        const { answered } = recordAttempts(api);

        const created = await api.tasks.create({ project: 'web', title: 'Patient' });
        const conflict = await api.comments
          .create({ project: 'web', task: 'WEB-1', content: 'One too many' })
          .catch((error: unknown) => error);

        expect([created.id, created.lastResponse.requestId]).toEqual(['created', 'req-4']);
        expect(answered.map((event) => [event.status, event.failure, event.retryIn === undefined ? 'final' : 'retried'])).toEqual([
          [409, undefined, 'retried'],
          [undefined, 'no answer within 1000 ms', 'retried'],
          [503, undefined, 'retried'],
          [201, undefined, 'final'],
          [409, undefined, 'final'],
        ]);
        expect(answered[0]!.retryIn).toBe(1000);
        expect(new Set(stub.requests.slice(0, 4).map((request) => request.idempotencyKey))).toEqual(
          new Set([created.lastResponse.idempotencyKey]),
        );
        expect(conflict).toBeInstanceOf(ConflictError);
        expect((conflict as ConflictError).message).toBe('Task already has 1000 comments, the most a task may have');
      } finally {
        await stub.close();
      }
    });

    it('makes its Idempotency-Keys of getRandomValues where the platform has no randomUUID (a page served over plain http)', async () => {
      const stub = await startScriptedServer([{ status: 201, body: { id: 'created' } }]);
      const platform = globalThis.crypto;
      vi.stubGlobal('crypto', { getRandomValues: (bytes: Uint8Array) => platform.getRandomValues(bytes) });
      try {
        const api = new TaskApi({ apiKey: 'tk_stub', baseUrl: stub.url });
        await api.tasks.create({ project: 'web', title: 'Over plain http' });
      } finally {
        vi.unstubAllGlobals();
        await stub.close();
      }
      expect(stub.requests[0]!.idempotencyKey).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    });

    it('refuses a change sent with a stale If-Match with a PreconditionFailedError carrying the current task', async () => {
      const api = await context.client();
      const task = await api.tasks.create({ project: 'web', title: 'Renew the certificate' });
      const stale = task.lastResponse.headers.etag!;
      const renamed = await api.tasks.update({ project: 'web', task: task.id, title: 'Renew it today' }, { ifMatch: stale });

      const error = await api.tasks.update({ project: 'web', task: task.id, priority: 'urgent' }, { ifMatch: stale }).then(
        () => expect.unreachable(),
        (refused: PreconditionFailedError) => refused,
      );

      expect(error).toBeInstanceOf(PreconditionFailedError);
      expect([error.statusCode, error.message]).toEqual([412, 'Task was changed since you read it (ETag mismatch)']);
      expect(error.requestId).toEqual(expect.any(String));
      expect(error.current?.title).toBe('Renew it today');
      expect(error.current?.lastResponse.headers.etag).toBe(renamed.lastResponse.headers.etag);
      const retried = await api.tasks.update(
        { project: 'web', task: task.id, priority: 'urgent' },
        { ifMatch: error.current!.lastResponse.headers.etag },
      );
      expect([retried.title, retried.priority]).toEqual(['Renew it today', 'urgent']);
      await expect(api.tasks.get({ project: 'web', task: 'WEB-999999' })).rejects.toMatchObject({
        name: 'NotFoundError',
        statusCode: 404,
        message: 'Task not found',
      });
      await expect(api.tasks.get({ project: 'web', task: 'WEB-999999' })).rejects.toBeInstanceOf(NotFoundError);
    });

    it('refuses a 12 MB file before sending it, and uploads an 8 MB one by the direct upload', async () => {
      const api = await context.client();
      const task = await api.tasks.create({ project: 'web', title: 'Large files' });
      const { sent } = recordAttempts(api);

      const tooLarge = await api.attachments
        .upload({ project: 'web', task: task.id }, new Uint8Array(12 * MB), { filename: 'big.bin' })
        .catch((error: unknown) => error);
      expect(tooLarge).toBeInstanceOf(TooLargeError);
      expect((tooLarge as TooLargeError).statusCode).toBe(413);
      expect(sent).toEqual([]);

      const bytes = new Uint8Array(8 * MB).map((_, i) => i % 251);
      const attachment = await api.attachments.upload({ project: 'web', task: task.id }, bytes, { filename: 'eight.bin' });

      expect(sent.map((event) => [event.operation, event.method])).toEqual([
        ['uploads-create', 'POST'],
        [undefined, 'PUT'],
        ['uploads-complete', 'POST'],
      ]);
      expect([attachment.filename, attachment.size]).toEqual(['eight.bin', 8 * MB]);
      const downloaded = Buffer.from(await (await fetch(attachment.url)).arrayBuffer());
      expect(createHash('sha256').update(downloaded).digest('hex')).toBe(createHash('sha256').update(bytes).digest('hex'));
    });

    it('verifies a delivery the server signed, and refuses it tampered with, too old, or under another secret', async () => {
      const receiver = await startReceiver();
      try {
        const secret = await context.webhook(receiver.url('client'));
        const api = await context.client();
        const task = await api.tasks.create({ project: context.projects.hooks, title: 'Signed and sealed' });
        const delivery = await vi.waitFor(
          () => {
            const found = receiver.received('client').find((received) => received.body.includes(task.id));
            if (!found) throw new Error('not delivered yet');
            return found;
          },
          { timeout: PATIENCE_MS, interval: 100 },
        );

        const event = await verifyWebhook(secret, delivery.headers, delivery.body);
        expect(event.type).toBe('task.created');
        if (event.type === 'task.created') expect(event.data.task.externalId).toBe(task.externalId);
        expect((await verifyWebhook(secret, new Headers(delivery.headers), new TextEncoder().encode(delivery.body))).type).toBe(
          'task.created',
        );

        const another = `whsec_${Buffer.from('another secret').toString('base64')}`;
        const refusals = await Promise.all(
          [
            verifyWebhook(secret, delivery.headers, delivery.body.replace('Signed and sealed', 'Signed and sealed!')),
            verifyWebhook(secret, delivery.headers, delivery.body, { now: new Date(Date.now() + 10 * 60_000) }),
            verifyWebhook(another, delivery.headers, delivery.body),
          ].map((check) =>
            check.then(
              () => 'accepted',
              (error: unknown) => (error instanceof WebhookVerificationError ? error.message : error),
            ),
          ),
        );
        expect(refusals).toEqual([
          'No signature matches the body under this secret',
          'webhook-timestamp is too old or too new',
          'No signature matches the body under this secret',
        ]);
      } finally {
        await receiver.close();
      }
    });

    it('verifies what the Standard Webhooks reference library signs', async () => {
      const secret = `whsec_${Buffer.from('a secret of the reference library').toString('base64')}`;
      const body = JSON.stringify({ type: 'comment.created', timestamp: new Date().toISOString(), data: {} });
      const signature = new Webhook(secret).sign('msg_1', new Date(), body);
      const headers = { 'webhook-id': 'msg_1', 'webhook-timestamp': String(Math.floor(Date.now() / 1000)), 'webhook-signature': signature };

      expect((await verifyWebhook(secret, headers, body)).type).toBe('comment.created');
    });
  });
}

export function burstCase(context: ClientContext) {
  describe('a burst past the rate limit', () => {
    it('answers every call, none lost or made twice, each retry waiting as Retry-After said', async () => {
      const api = await context.client();
      const { sent, answered } = recordAttempts(api);
      const calls = 50;
      const prefix = `Burst ${Date.now()}`;

      const created = await Promise.all(
        Array.from({ length: calls }, (_, i) => api.tasks.create({ project: 'web', title: `${prefix} ${i}` })),
      );

      expect(new Set(created.map((task) => task.title)).size).toBe(calls);
      const refused = answered.filter((event) => event.status === 429);
      // The limiter's window slides: a burst that straddles the minute's turn is allowed a few past 40.
      expect(refused.length).toBeGreaterThan(0);
      for (const refusal of refused) {
        const retry = sent.find((event) => event.idempotencyKey === refusal.idempotencyKey && event.attempt === refusal.attempt + 1)!;
        expect(retry.startedAt).toBeGreaterThanOrEqual(refusal.endedAt + refusal.retryAfter! * 1000);
      }
      // Another key: this one's window is full.
      const stored = await (await context.client()).tasks.list({ project: 'web', search: prefix, limit: 100 });
      expect(stored.meta.total).toBe(calls);
    });
  });
}
