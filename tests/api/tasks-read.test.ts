import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../server/db/client';
import { useApi } from '../support/api';
import { errorOf } from '../support/client';
import type { Task } from '../support/types';

const api = useApi();

/** Creates tasks through the API, oldest first, with distinct creation times. */
async function createTasks(bodies: Record<string, unknown>[], project = 'web') {
  const created: Task[] = [];
  for (const body of bodies) {
    const response = await api.client.post(`/${project}/tasks`, body);
    expect(response.status).toBe(201);
    created.push(response.body);
  }
  return created;
}

describe('GET /{projectSlug}/tasks', () => {
  let tasks: Task[];

  beforeAll(async () => {
    const { statuses, members, labels } = api.fixture;
    tasks = await createTasks([
      { title: 'Fix login form', priority: 'high', assigneeIds: [members.ada.id], labelIds: [labels.bug.id] },
      { title: 'Design onboarding', priority: 'low', statusId: statuses.webReview.id, labelIds: [labels.design.id] },
      { title: 'Ship billing page', priority: 'high', statusId: statuses.webDone.id, assigneeIds: [members.grace.id] },
      {
        title: 'Refactor LOGIN service',
        priority: 'urgent',
        statusId: statuses.webInProgress.id,
        assigneeIds: [members.ada.id, members.grace.id],
      },
      { title: 'Write docs', dueDate: '2027-03-01T09:00:00+02:00' },
    ]);
    const parent = tasks[0]!;
    // A subtask: the API has no field for it, members create them in the app.
    await db().$transaction(async (tx) => {
      const { task_counter } = (
        await tx.$queryRaw<
          { task_counter: number }[]
        >`UPDATE project SET task_counter = task_counter + 1 WHERE id = ${api.fixture.projects.web.id}::uuid RETURNING task_counter`
      )[0]!;
      await tx.task.create({
        data: { projectId: api.fixture.projects.web.id, number: task_counter, title: 'Subtask of login', parentId: parent.id },
      });
    });
    await createTasks([{ title: 'Other project task' }], 'api');
  });

  it('answers the first 20 top-level tasks, newest first, with pagination meta', async () => {
    const { status, body } = await api.client.get('/web/tasks');
    expect(status).toBe(200);
    expect(body.tasks.map((t) => t.title)).toEqual([
      'Write docs',
      'Refactor LOGIN service',
      'Ship billing page',
      'Design onboarding',
      'Fix login form',
    ]);
    expect(body.meta).toEqual({ total: 5, page: 1, limit: 20, totalPages: 1, hasMore: false, nextCursor: expect.any(String) });
  });

  it('excludes subtasks from the list', async () => {
    const { body } = await api.client.get('/web/tasks?search=subtask');
    expect(body.tasks).toEqual([]);
    expect(body.meta.total).toBe(0);
  });

  it('gives list items the full Task shape, labels and attachments included', async () => {
    const { body } = await api.client.get('/web/tasks?search=Fix%20login');
    expect(body.tasks).toEqual([tasks[0]]);
    expect(Object.keys(body.tasks[0]!).sort()).toEqual([
      'assignees',
      'attachments',
      'category',
      'createdAt',
      'description',
      'dueDate',
      'externalId',
      'id',
      'labels',
      'priority',
      'status',
      'title',
      'updatedAt',
    ]);
  });

  it('pages with limit and page: totalPages = ceil(total / limit) and hasMore', async () => {
    const first = await api.client.get('/web/tasks?limit=2&page=1');
    const last = await api.client.get('/web/tasks?limit=2&page=3');
    expect(first.body.meta).toEqual({ total: 5, page: 1, limit: 2, totalPages: 3, hasMore: true, nextCursor: expect.any(String) });
    expect(first.body.tasks).toHaveLength(2);
    expect(last.body.meta).toEqual({ total: 5, page: 3, limit: 2, totalPages: 3, hasMore: false, nextCursor: expect.any(String) });
    expect(last.body.tasks.map((t) => t.title)).toEqual(['Fix login form']);
  });

  it('answers an empty page past the end with the true total', async () => {
    const { status, body } = await api.client.get('/web/tasks?page=9');
    expect(status).toBe(200);
    expect(body).toEqual({ tasks: [], meta: { total: 5, page: 9, limit: 20, totalPages: 1, hasMore: false, nextCursor: null } });
  });

  it('filters by statusId', async () => {
    const { body } = await api.client.get(`/web/tasks?statusId=${api.fixture.statuses.webReview.id}`);
    expect(body.tasks.map((t) => t.title)).toEqual(['Design onboarding']);
  });

  it('filters by status category', async () => {
    const { body } = await api.client.get('/web/tasks?status=in_progress');
    expect(body.tasks.map((t) => t.title)).toEqual(['Refactor LOGIN service', 'Design onboarding']);
  });

  it('lets statusId take precedence over status', async () => {
    const { body } = await api.client.get(`/web/tasks?status=todo&statusId=${api.fixture.statuses.webDone.id}`);
    expect(body.tasks.map((t) => t.title)).toEqual(['Ship billing page']);
  });

  it('filters by priority', async () => {
    const { body } = await api.client.get('/web/tasks?priority=high');
    expect(body.tasks.map((t) => t.title)).toEqual(['Ship billing page', 'Fix login form']);
  });

  it('filters by assigneeId', async () => {
    const { body } = await api.client.get(`/web/tasks?assigneeId=${api.fixture.members.grace.id}`);
    expect(body.tasks.map((t) => t.title)).toEqual(['Refactor LOGIN service', 'Ship billing page']);
  });

  it('filters by labelId', async () => {
    const { body } = await api.client.get(`/web/tasks?labelId=${api.fixture.labels.design.id}`);
    expect(body.tasks.map((t) => t.title)).toEqual(['Design onboarding']);
  });

  it('searches a case-insensitive substring of the title', async () => {
    const { body } = await api.client.get('/web/tasks?search=LoGiN');
    expect(body.tasks.map((t) => t.title)).toEqual(['Refactor LOGIN service', 'Fix login form']);
  });

  it('searches by external ID, case-insensitively', async () => {
    const { body } = await api.client.get(`/web/tasks?search=${tasks[2]!.externalId.toLowerCase()}`);
    expect(body.tasks.map((t) => t.externalId)).toEqual([tasks[2]!.externalId]);
  });

  it('treats % and _ in a search as plain characters', async () => {
    const { body } = await api.client.get('/web/tasks?search=%25');
    expect(body.tasks).toEqual([]);
  });

  it('combines filters', async () => {
    const { body } = await api.client.get(`/web/tasks?priority=high&assigneeId=${api.fixture.members.ada.id}&search=login`);
    expect(body.tasks.map((t) => t.title)).toEqual(['Fix login form']);
    expect(body.meta.total).toBe(1);
  });

  it('sorts by another field on request (extension)', async () => {
    const { body } = await api.client.get('/web/tasks?sort=priority&order=desc');
    expect(body.tasks.map((t) => t.priority)).toEqual(['urgent', 'high', 'high', 'low', 'none']);
  });

  it('sorts by dueDate with tasks without one last', async () => {
    const { body } = await api.client.get('/web/tasks?sort=dueDate&order=asc');
    expect(body.tasks[0]?.title).toBe('Write docs');
    expect(body.tasks.slice(1).every((t) => t.dueDate === null)).toBe(true);
  });

  it('ignores unknown query parameters', async () => {
    const { status, body } = await api.client.get('/web/tasks?colour=blue');
    expect(status).toBe(200);
    expect(body.meta.total).toBe(5);
  });

  it.each([
    ['limit=0', 'limit: must be a whole number from 1 to 100'],
    ['limit=101', 'limit: must be a whole number from 1 to 100'],
    ['limit=ten', 'limit: must be a whole number from 1 to 100'],
    ['page=0', 'page: must be a whole number from 1 to 2147483647'],
    ['page=1.5', 'page: must be a whole number from 1 to 2147483647'],
    ['status=blocked', 'status: must be one of todo, in_progress, done'],
    ['priority=p1', 'priority: must be one of none, low, medium, high, urgent'],
    ['statusId=nope', 'statusId: must be a UUID'],
    ['assigneeId=nope', 'assigneeId: must be a UUID'],
    ['labelId=nope', 'labelId: must be a UUID'],
    ['sort=title', 'sort: must be one of createdAt, updatedAt, dueDate, priority'],
    ['order=up', 'order: must be one of asc, desc'],
    [`search=${'x'.repeat(201)}`, 'search: must be at most 200 characters'],
  ])('refuses %s with 400 naming the parameter', async (query, message) => {
    const { status, body } = await api.client.get(`/web/tasks?${query}`);
    expect(status).toBe(400);
    expect(body).toEqual({ statusCode: 400, message });
  });
});

describe('GET /{projectSlug}/tasks/{taskId}', () => {
  let task: Task;

  beforeAll(async () => {
    task = (await createTasks([{ title: 'Findable', description: 'line one\nline two' }]))[0]!;
  });

  it('finds a task by UUID', async () => {
    const { status, body } = await api.client.get(`/web/tasks/${task.id}`);
    expect(status).toBe(200);
    expect(body).toEqual(task);
  });

  it('finds a task by external ID, case-insensitively', async () => {
    expect((await api.client.get(`/web/tasks/${task.externalId}`)).body.id).toBe(task.id);
    expect((await api.client.get(`/web/tasks/${task.externalId.toLowerCase()}`)).body.id).toBe(task.id);
  });

  it('keeps newlines in the description', async () => {
    expect((await api.client.get(`/web/tasks/${task.id}`)).body.description).toBe('line one\nline two');
  });

  it('finds a subtask by id although lists leave it out', async () => {
    const subtask = await db().task.findFirstOrThrow({ where: { parentId: { not: null }, projectId: api.fixture.projects.web.id } });
    const { status, body } = await api.client.get(`/web/tasks/${subtask.id}`);
    expect(status).toBe(200);
    expect(body.title).toBe('Subtask of login');
  });

  it.each([
    ['an unknown UUID', '00000000-0000-4000-8000-000000000000'],
    ['an unknown number', 'WEB-99999'],
    ["another project's prefix", 'API-1'],
    ['a number too large for any task', 'WEB-99999999999'],
    ['text that is no id', 'not-a-task'],
  ])('answers 404 Task not found for %s', async (_, taskId) => {
    const { status, body } = await api.client.get(`/web/tasks/${taskId}`);
    expect(status).toBe(404);
    expect(body).toEqual({ statusCode: 404, message: 'Task not found' });
  });

  it('answers 404 for a task of another project addressed through this one', async () => {
    const [other] = await createTasks([{ title: 'Elsewhere' }], 'api');
    const response = await api.client.get(`/web/tasks/${other!.id}`);
    expect(response.status).toBe(404);
    expect(errorOf(response).message).toBe('Task not found');
  });

  it('answers 404 Project not found for an unknown project', async () => {
    const { status, body } = await api.client.get(`/nope/tasks/${task.id}`);
    expect(status).toBe(404);
    expect(body).toEqual({ statusCode: 404, message: 'Project not found' });
  });
});
