import { randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { db } from '../../server/db/client';
import { createProject } from '../../server/projects/projects';
import { createEndpoint } from '../../server/webhooks/endpoints';
import { useApi } from '../support/api';
import { errorOf } from '../support/client';
import type { Task } from '../support/types';
import { FIXTURE_AUDIT } from '../support/fixtures';

process.env.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = 'true';

const api = useApi();

async function freshProject() {
  const suffix = randomBytes(3).toString('hex');
  return createProject(db(), {
    workspaceId: api.fixture.workspace.id,
    slug: `bat-${suffix}`,
    name: 'Batches',
    keyPrefix: `B${suffix.toUpperCase()}`,
  });
}

type Project = Awaited<ReturnType<typeof freshProject>>;

const titles = (count: number, prefix = 'task') => Array.from({ length: count }, (_, i) => ({ title: `${prefix} ${i}` }));
const totalOf = async (project: Project) => (await api.client.get(`/${project.slug}/tasks?limit=1`)).body.meta.total;

describe('POST /{projectSlug}/tasks/batch', () => {
  it('creates every task in one request, answered in the order sent, with consecutive numbers', async () => {
    const project = await freshProject();
    const { ada } = api.fixture.members;

    const response = await api.client.post(`/${project.slug}/tasks/batch`, {
      tasks: [{ title: 'first', priority: 'high', assigneeIds: [ada.id] }, ...titles(99)],
    });

    expect(response.status).toBe(201);
    expect(response.body.tasks).toHaveLength(100);
    expect(response.body.tasks.map((task) => task.externalId)).toEqual(
      Array.from({ length: 100 }, (_, i) => `${project.keyPrefix}-${i + 1}`),
    );
    expect(response.body.tasks[0]).toMatchObject({
      title: 'first',
      priority: 'high',
      assignees: [{ id: ada.id, name: ada.name }],
      status: { name: 'To Do' },
    });
    expect(await totalOf(project)).toBe(100);
    const newest = await api.client.get(`/${project.slug}/tasks?limit=2`);
    expect(newest.body.tasks.map((task) => task.title)).toEqual(['task 98', 'task 97']);
  });

  it('a batch with one bad item writes nothing, takes no number, and names the item', async () => {
    const project = await freshProject();
    const stranger = randomUUID();

    const response = await api.client.post(`/${project.slug}/tasks/batch`, {
      tasks: [...titles(2), { title: 'bad', assigneeIds: [stranger] }, ...titles(2)],
    });
    const next = await api.client.post(`/${project.slug}/tasks`, { title: 'after' });

    expect(response.status).toBe(400);
    expect(errorOf(response).message).toBe(`tasks[2].assigneeIds: ${stranger} is not a member of this workspace`);
    expect(next.body.externalId).toBe(`${project.keyPrefix}-1`);
    expect(await totalOf(project)).toBe(1);
  });

  it('a field refused by its rule names the item', async () => {
    const project = await freshProject();

    const response = await api.client.post(`/${project.slug}/tasks/batch`, { tasks: [...titles(3), { title: '   ' }] });

    expect(response.status).toBe(400);
    expect(errorOf(response).message).toBe('tasks[3].title: must be 1 to 500 characters');
    expect(await totalOf(project)).toBe(0);
  });

  it.each([0, 101])('a batch of %i tasks is 400', async (count) => {
    const project = await freshProject();

    const response = await api.client.post(`/${project.slug}/tasks/batch`, { tasks: titles(count) });

    expect(response.status).toBe(400);
    expect(errorOf(response).message).toBe('tasks: must hold 1 to 100 tasks');
  });

  it('a batch whose body passes 1 MiB is 413 and writes nothing', async () => {
    const project = await freshProject();
    const description = 'x'.repeat(20_000);

    const response = await api.client.post(`/${project.slug}/tasks/batch`, {
      tasks: Array.from({ length: 100 }, (_, i) => ({ title: `long ${i}`, description })),
    });

    expect(response.status).toBe(413);
    expect(await totalOf(project)).toBe(0);
  });

  it('a replayed batch answers the first answer and creates nothing more', async () => {
    const project = await freshProject();
    const headers = { 'idempotency-key': randomUUID() };
    const body = { tasks: titles(3) };

    const first = await api.client.post(`/${project.slug}/tasks/batch`, body, headers);
    const again = await api.client.post(`/${project.slug}/tasks/batch`, body, headers);
    const other = await api.client.post(`/${project.slug}/tasks/batch`, { tasks: titles(4) }, headers);

    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.text).toBe(first.text);
    expect(other.status).toBe(422);
    expect(await totalOf(project)).toBe(3);
  });

  it('counts as one request against the key’s limit', async () => {
    const project = await freshProject();

    const first = await api.client.post(`/${project.slug}/tasks/batch`, { tasks: titles(50) });
    const second = await api.client.post(`/${project.slug}/tasks/batch`, { tasks: titles(50) });

    const remaining = (answer: typeof first) => Number(answer.headers.get('x-ratelimit-remaining'));
    expect(remaining(first) - remaining(second)).toBe(1);
  });

  it('sends one task.created event per task', async () => {
    const project = await freshProject();
    const endpoint = await createEndpoint(
      db(),
      api.fixture.workspace.id,
      {
        url: `http://127.0.0.1:9/${randomUUID()}`,
        events: ['task.created'],
        projectId: project.id,
      },
      FIXTURE_AUDIT,
    );

    const response = await api.client.post(`/${project.slug}/tasks/batch`, { tasks: titles(5) });

    const deliveries = await db().webhookDelivery.findMany({ where: { endpointId: endpoint.id } });
    const sent = deliveries.map((delivery) => (JSON.parse(delivery.payload) as { type: string; data: { task: Task } }).data.task);
    expect(deliveries.map((delivery) => delivery.eventType)).toEqual(Array(5).fill('task.created'));
    expect(sent.map((task) => task.id).sort()).toEqual(response.body.tasks.map((task) => task.id).sort());
    expect(sent.find((task) => task.id === response.body.tasks[0]!.id)).toEqual(response.body.tasks[0]);
  });
});

describe('PATCH /{projectSlug}/tasks/batch', () => {
  async function seeded(count: number) {
    const project = await freshProject();
    const created = await api.client.post(`/${project.slug}/tasks/batch`, { tasks: titles(count) });
    return { project, tasks: created.body.tasks };
  }

  it('changes each task named by id or external ID, only in the fields its item sends', async () => {
    const { project, tasks } = await seeded(3);
    const { bug } = api.fixture.labels;
    const done = project.statuses.find((status) => status.category === 'done')!;

    const response = await api.client.patch(`/${project.slug}/tasks/batch`, {
      tasks: [
        { id: tasks[0]!.id, priority: 'urgent' },
        { id: tasks[2]!.externalId.toLowerCase(), statusId: done.id, labelIds: [bug.id], description: 'now described' },
      ],
    });

    expect(response.status).toBe(200);
    expect(response.body.tasks.map((task) => task.id)).toEqual([tasks[0]!.id, tasks[2]!.id]);
    expect(response.body.tasks[0]).toMatchObject({ title: 'task 0', priority: 'urgent', description: null });
    expect(response.body.tasks[1]).toMatchObject({
      title: 'task 2',
      category: 'done',
      status: { id: done.id },
      labels: [{ id: bug.id }],
      description: 'now described',
    });
    const untouched = await api.client.get(`/${project.slug}/tasks/${tasks[1]!.id}`);
    expect(untouched.body).toEqual(tasks[1]);
  });

  it('a task not found among the items changes nothing and names the item', async () => {
    const { project, tasks } = await seeded(2);

    const response = await api.client.patch(`/${project.slug}/tasks/batch`, {
      tasks: [
        { id: tasks[0]!.id, title: 'changed' },
        { id: `${project.keyPrefix}-99`, title: 'nobody' },
      ],
    });

    expect(response.status).toBe(404);
    expect(errorOf(response).message).toBe('tasks[1].id: Task not found');
    expect((await api.client.get(`/${project.slug}/tasks/${tasks[0]!.id}`)).body.title).toBe('task 0');
  });

  it('an item whose ifMatch the task no longer has is 412 and nothing changes', async () => {
    const { project, tasks } = await seeded(2);
    const read = await api.client.get(`/${project.slug}/tasks/${tasks[1]!.id}`);
    await api.client.patch(`/${project.slug}/tasks/${tasks[1]!.id}`, { title: 'changed meanwhile' });

    const stale = await api.client.patch(`/${project.slug}/tasks/batch`, {
      tasks: [
        { id: tasks[0]!.id, title: 'mine' },
        { id: tasks[1]!.id, title: 'mine too', ifMatch: read.headers.get('etag')! },
      ],
    });
    const current = await api.client.get(`/${project.slug}/tasks/${tasks[1]!.id}`);
    const fresh = await api.client.patch(`/${project.slug}/tasks/batch`, {
      tasks: [{ id: tasks[1]!.id, title: 'mine too', ifMatch: current.headers.get('etag')! }],
    });

    expect(stale.status).toBe(412);
    expect(errorOf(stale).message).toBe('tasks[1].ifMatch: Task was changed since you read it (ETag mismatch)');
    expect((await api.client.get(`/${project.slug}/tasks/${tasks[0]!.id}`)).body.title).toBe('task 0');
    expect(fresh.status).toBe(200);
  });

  it('a bad id in one item changes nothing and names the item', async () => {
    const { project, tasks } = await seeded(2);
    const stranger = randomUUID();

    const response = await api.client.patch(`/${project.slug}/tasks/batch`, {
      tasks: [
        { id: tasks[0]!.id, title: 'changed' },
        { id: tasks[1]!.id, statusId: stranger },
      ],
    });

    expect(response.status).toBe(400);
    expect(errorOf(response).message).toBe(`tasks[1].statusId: ${stranger} is not a status of project ${project.slug}`);
    expect((await api.client.get(`/${project.slug}/tasks/${tasks[0]!.id}`)).body.title).toBe('task 0');
  });

  it('the same task named twice is 400 naming the second item', async () => {
    const { project, tasks } = await seeded(1);

    const response = await api.client.patch(`/${project.slug}/tasks/batch`, {
      tasks: [
        { id: tasks[0]!.id, title: 'one' },
        { id: tasks[0]!.externalId, title: 'two' },
      ],
    });

    expect(response.status).toBe(400);
    expect(errorOf(response).message).toBe('tasks[1].id: names the same task as tasks[0]');
  });

  it('a replayed batch update answers the first answer', async () => {
    const { project, tasks } = await seeded(2);
    const headers = { 'idempotency-key': randomUUID() };
    const body = { tasks: tasks.map((task) => ({ id: task.id, priority: 'low' })) };

    const first = await api.client.patch(`/${project.slug}/tasks/batch`, body, headers);
    await api.client.patch(`/${project.slug}/tasks/${tasks[0]!.id}`, { priority: 'high' });
    const again = await api.client.patch(`/${project.slug}/tasks/batch`, body, headers);

    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.text).toBe(first.text);
    expect((await api.client.get(`/${project.slug}/tasks/${tasks[0]!.id}`)).body.priority).toBe('high');
  });

  it("an item naming another project's task, by id or external ID, is 404 and changes nothing", async () => {
    const mine = await seeded(1);
    const theirs = await seeded(1);

    for (const id of [theirs.tasks[0]!.id, theirs.tasks[0]!.externalId]) {
      const response = await api.client.patch(`/${mine.project.slug}/tasks/batch`, {
        tasks: [
          { id: mine.tasks[0]!.id, title: 'mine' },
          { id, title: 'taken' },
        ],
      });

      expect(response.status).toBe(404);
      expect(errorOf(response).message).toBe('tasks[1].id: Task not found');
    }
    expect((await api.client.get(`/${theirs.project.slug}/tasks/${theirs.tasks[0]!.id}`)).body.title).toBe('task 0');
    expect((await api.client.get(`/${mine.project.slug}/tasks/${mine.tasks[0]!.id}`)).body.title).toBe('task 0');
  });

  it('batches changing the same tasks at once, each in its own order, all succeed: none deadlocks another', async () => {
    const { project, tasks } = await seeded(30);
    const shuffled = () => [...tasks].sort(() => Math.random() - 0.5);

    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, n) =>
        api.client.patch(`/${project.slug}/tasks/batch`, { tasks: shuffled().map((task) => ({ id: task.id, title: `by ${n}` })) }),
      ),
    );

    expect(answers.map((answer) => answer.status)).toEqual(Array(8).fill(200));
    const titles = new Set((await api.client.get(`/${project.slug}/tasks?limit=100`)).body.tasks.map((task) => task.title));
    expect(titles.size).toBe(1);
  });
});

describe('batches at once', () => {
  it('creates sent together take distinct numbers, and the total counts every task', async () => {
    const project = await freshProject();

    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, n) => api.client.post(`/${project.slug}/tasks/batch`, { tasks: titles(100, `batch ${n}`) })),
    );

    const numbers = answers.flatMap((answer) => answer.body.tasks.map((task) => task.externalId));
    expect(answers.map((answer) => answer.status)).toEqual(Array(6).fill(201));
    expect(new Set(numbers).size).toBe(600);
    expect(await totalOf(project)).toBe(600);
  });
});

describe('a refusal of many items', () => {
  it('names as many as the message holds, at most 1,000 characters, the rest cut with …', async () => {
    const response = await api.client.post('/web/tasks/batch', { tasks: Array.from({ length: 100 }, () => ({ title: '' })) });

    expect(response.status).toBe(400);
    const { message } = errorOf(response);
    expect(message).toMatch(/^tasks\[0\]\.title: must be 1 to 500 characters; tasks\[1\]\.title: /);
    expect([...message]).toHaveLength(1_000);
    expect(message.endsWith('…')).toBe(true);
  });
});
