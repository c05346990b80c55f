import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { db } from '../../server/db/client';
import { createEndpoint } from '../../server/webhooks/endpoints';
import { DELIVER_JOB } from '../../server/outbox/delivery-job';
import { enqueueEvent, type EventType } from '../../server/webhooks/events';
import { openSecret } from '../../server/webhooks/secret';
import { useApi } from '../support/api';
import { FIXTURE_AUDIT, createWorkspaceFixture } from '../support/fixtures';
import { createTask } from './receiver';

process.env.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = 'true';
const api = useApi();

async function endpoint(options: { events?: EventType[]; projectId?: string | null; workspaceId?: string } = {}) {
  return createEndpoint(
    db(),
    options.workspaceId ?? api.fixture.workspace.id,
    {
      url: 'https://hooks.example.test/receive',
      events: options.events ?? [],
      projectId: options.projectId ?? null,
    },
    FIXTURE_AUDIT,
  );
}

/** The events recorded for an endpoint, oldest first, with their bodies parsed. */
async function events(endpointId: string) {
  const rows = await db().webhookDelivery.findMany({ where: { endpointId }, orderBy: { createdAt: 'asc' } });
  return rows.map((row) => ({ ...row, body: JSON.parse(row.payload) }));
}

// The public jobs view leaves payloads out.
async function queuedDeliveries(): Promise<string[]> {
  const jobs = await db().$queryRaw<{ payload: { deliveryId: string } }[]>`
    SELECT j.payload FROM graphile_worker._private_jobs j
    JOIN graphile_worker._private_tasks t ON t.id = j.task_id
    WHERE t.identifier = ${DELIVER_JOB}`;
  return jobs.map((job) => job.payload.deliveryId);
}

const context = () => ({
  workspace: { id: api.fixture.workspace.id, slug: api.fixture.workspace.slug },
  project: { id: api.fixture.projects.web.id, slug: 'web' },
});

describe('events recorded with the change', () => {
  it('task.created carries the workspace, the project and the task exactly as the API answered it', async () => {
    const hook = await endpoint();
    const task = await createTask(api);
    const [event, ...more] = await events(hook.id);
    expect(more).toEqual([]);
    expect(event!.body).toEqual({ type: 'task.created', timestamp: expect.any(String), data: { ...context(), task } });
    expect(new Date(event!.body.timestamp).toISOString()).toBe(event!.body.timestamp);
    expect(event!.messageId).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(await queuedDeliveries()).toContain(event!.id);
  });

  it('a PATCH of several fields is one task.updated naming the fields that changed', async () => {
    const task = await createTask(api);
    const hook = await endpoint({ events: ['task.updated'] });
    const response = await api.client.patch(`/web/tasks/${task.id}`, {
      title: 'Renamed',
      priority: 'high',
      description: task.description,
      labelIds: [api.fixture.labels.bug.id],
    });
    expect(response.status).toBe(200);
    const all = await events(hook.id);
    expect(all).toHaveLength(1);
    expect(all[0]!.body).toEqual({
      type: 'task.updated',
      timestamp: expect.any(String),
      data: { ...context(), task: response.body, changes: expect.any(Array) },
    });
    expect(all[0]!.body.data.changes.sort()).toEqual(['labels', 'priority', 'title']);
  });

  it('a PATCH that changes nothing sends no event', async () => {
    const task = await createTask(api, 'Same');
    const hook = await endpoint();
    expect((await api.client.patch(`/web/tasks/${task.id}`, { title: 'Same' })).status).toBe(200);
    expect(await events(hook.id)).toEqual([]);
  });

  it('task.deleted carries the id and external ID, and the subtasks deleted with it', async () => {
    const task = await createTask(api, 'Parent');
    const project = await db().project.update({ where: { id: api.fixture.projects.web.id }, data: { taskCounter: { increment: 1 } } });
    const child = await db().task.create({
      data: { projectId: project.id, number: project.taskCounter, title: 'Child', parentId: task.id, category: 'todo', priority: 'none' },
    });
    const hook = await endpoint({ events: ['task.deleted'] });
    expect((await api.client.delete(`/web/tasks/${task.externalId}`)).status).toBe(200);
    const all = await events(hook.id);
    expect(all.map((event) => event.body)).toEqual([
      {
        type: 'task.deleted',
        timestamp: expect.any(String),
        data: {
          ...context(),
          task: { id: task.id, externalId: task.externalId },
          subtasks: [{ id: child.id, externalId: `WEB-${child.number}` }],
        },
      },
    ]);
  });

  it('comment.created carries the comment as the API answered it and its task', async () => {
    const task = await createTask(api);
    const hook = await endpoint({ events: ['comment.created'] });
    const response = await api.client.post(`/web/tasks/${task.id}/comments`, { content: 'Looks good' });
    expect(response.status).toBe(201);
    const all = await events(hook.id);
    expect(all.map((event) => event.body)).toEqual([
      {
        type: 'comment.created',
        timestamp: expect.any(String),
        data: { ...context(), comment: response.body, task: { id: task.id, externalId: task.externalId } },
      },
    ]);
  });

  it('attachment.created carries the attachment without its download URL, and its task', async () => {
    const task = await createTask(api);
    const hook = await endpoint({ events: ['attachment.created'] });
    const form = new FormData();
    form.append('file', new Blob(['hello'], { type: 'text/plain' }), 'notes.txt');
    const response = await api.client.post(`/web/tasks/${task.id}/attachments`, form);
    expect(response.status).toBe(201);
    const { url, ...attachment } = response.body;
    expect(url).toEqual(expect.any(String));
    const all = await events(hook.id);
    expect(all.map((event) => event.body)).toEqual([
      {
        type: 'attachment.created',
        timestamp: expect.any(String),
        data: { ...context(), attachment, task: { id: task.id, externalId: task.externalId } },
      },
    ]);
  });
});

describe('the other ways in', () => {
  /** Links point at APP_URL; the test server listens elsewhere. */
  const onTestServer = (url: string) => {
    const link = new URL(url);
    return `${api.server.baseUrl}${link.pathname}${link.search}`;
  };

  it('a completed direct upload sends one attachment.created, however often it is completed', async () => {
    const task = await createTask(api);
    const hook = await endpoint({ events: ['attachment.created'] });
    const uploads = `/web/tasks/${task.id}/attachments/uploads` as const;
    const started = await api.client.post(uploads, { filename: 'notes.txt', size: 5 });
    expect(started.status).toBe(201);
    const { uploadId, uploadUrl, method, headers } = started.body;
    expect((await fetch(onTestServer(uploadUrl), { method, headers, body: 'hello' })).status).toBe(200);

    const first = await api.client.post(`${uploads}/${uploadId}/complete`);
    const again = await api.client.post(`${uploads}/${uploadId}/complete`);

    expect([first.status, again.status]).toEqual([201, 201]);
    const { url: _url, ...attachment } = first.body;
    expect((await events(hook.id)).map((event) => event.body.data)).toEqual([
      { ...context(), attachment, task: { id: task.id, externalId: task.externalId } },
    ]);
  });

  it('a create replayed by its Idempotency-Key sends task.created once', async () => {
    const hook = await endpoint({ events: ['task.created'] });
    const headers = { 'idempotency-key': randomUUID() };

    const first = await api.client.post('/web/tasks', { title: 'Once' }, headers);
    const replay = await api.client.post('/web/tasks', { title: 'Once' }, headers);

    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect((await events(hook.id)).map((event) => event.body.data.task.id)).toEqual([first.body.id]);
  });
});

describe('only what committed, only where it belongs', () => {
  it('a change that rolls back leaves neither an event nor a queued job', async () => {
    const hook = await endpoint();
    const jobsBefore = await queuedDeliveries();
    await expect(
      db().$transaction(async (tx) => {
        await enqueueEvent(tx, api.fixture.projects.web, 'task.created', { task: { id: randomUUID() } });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await events(hook.id)).toEqual([]);
    expect(await queuedDeliveries()).toEqual(jobsBefore);
  });

  it('queues the deliveries of every endpoint that wants an event in two statements, however many', async () => {
    const hooks = await Promise.all(Array.from({ length: 5 }, () => endpoint({ events: ['task.created'] })));
    let statements = 0;
    await db().$transaction(async (tx) => {
      const counted = new Proxy(tx, {
        get(target, name) {
          const value: unknown = Reflect.get(target, name);
          if (typeof value !== 'function' || !String(name).startsWith('$')) return value;
          return (...args: unknown[]) => {
            statements += 1;
            return value.apply(target, args);
          };
        },
      });
      await enqueueEvent(counted, api.fixture.projects.web, 'task.created', { task: { id: randomUUID() } });
    });
    expect(statements).toBe(2);
    const delivered = await Promise.all(hooks.map((hook) => events(hook.id)));
    expect(delivered.map((rows) => rows.length)).toEqual([1, 1, 1, 1, 1]);
    expect(new Set(delivered.map(([row]) => row!.messageId)).size).toBe(5);
    expect(await queuedDeliveries()).toEqual(expect.arrayContaining(delivered.map(([row]) => row!.id)));
  });

  it('an upload to a task deleted meanwhile sends no attachment.created', async () => {
    const task = await createTask(api);
    const hook = await endpoint();
    await api.client.delete(`/web/tasks/${task.id}`);
    const form = new FormData();
    form.append('file', new Blob(['late']), 'late.txt');
    expect((await api.client.post(`/web/tasks/${task.id}/attachments`, form)).status).toBe(404);
    expect((await events(hook.id)).map((event) => event.eventType)).toEqual(['task.deleted']);
  });

  it('an endpoint gets only its own workspace events, and of one project when it names one', async () => {
    const other = await createWorkspaceFixture();
    const otherHook = await endpoint({ workspaceId: other.workspace.id });
    const apiOnly = await endpoint({ projectId: api.fixture.projects.api.id });
    await createTask(api);
    const created = await api.client.post('/api/tasks', { title: 'In api' });
    expect(created.status).toBe(201);
    expect(await events(otherHook.id)).toEqual([]);
    expect((await events(apiOnly.id)).map((event) => event.body.data.task.id)).toEqual([created.body.id]);
  });

  it('a disabled endpoint gets nothing', async () => {
    const hook = await endpoint();
    await db().webhookEndpoint.update({ where: { id: hook.id }, data: { disabledAt: new Date(), disabledReason: 'test' } });
    await createTask(api);
    expect(await events(hook.id)).toEqual([]);
  });
});

describe('signing secret', () => {
  it('is shown once as whsec_ and base64, and stored only sealed', async () => {
    const hook = await endpoint();
    expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const row = await db().webhookEndpoint.findUniqueOrThrow({ where: { id: hook.id } });
    expect(row.secretSealed).not.toContain(hook.secret.slice('whsec_'.length));
    expect(openSecret(row.secretSealed)).toBe(hook.secret);
  });
});
