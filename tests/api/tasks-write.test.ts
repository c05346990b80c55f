import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { db } from '../../server/db/client';
import { createProject } from '../../server/projects/projects';
import { useApi } from '../support/api';

const api = useApi();

async function create(body: Record<string, unknown>, project = 'web') {
  const response = await api.client.post(`/${project}/tasks`, body);
  expect(response.status).toBe(201);
  return response.body;
}

const taskCount = () => db().task.count({ where: { projectId: api.fixture.projects.web.id } });

describe('POST /{projectSlug}/tasks', () => {
  it('creates a task and answers 201 with the full Task', async () => {
    const { status, body } = await api.client.post('/web/tasks', { title: 'Fix login form', description: 'Steps\n1. open' });
    expect(status).toBe(201);
    expect(body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      externalId: expect.stringMatching(/^WEB-\d+$/),
      title: 'Fix login form',
      description: 'Steps\n1. open',
      category: 'todo',
      status: { id: api.fixture.statuses.webTodo.id, name: 'To Do', color: '#94a3b8', category: 'todo' },
      priority: 'none',
      dueDate: null,
      assignees: [],
      labels: [],
      attachments: [],
      createdAt: expect.any(String),
      updatedAt: body.createdAt,
    });
  });

  it('numbers tasks per project, PREFIX-number', async () => {
    const a = await create({ title: 'a' }, 'api');
    const b = await create({ title: 'b' }, 'api');
    expect(Number(b.externalId.split('-')[1])).toBe(Number(a.externalId.split('-')[1]) + 1);
    expect(a.externalId).toMatch(/^API-/);
  });

  it('gives parallel creates distinct external IDs', async () => {
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => api.client.post('/web/tasks', { title: `parallel ${i}` })));
    expect(results.every((r) => r.status === 201)).toBe(true);
    expect(new Set(results.map((r) => r.body.externalId)).size).toBe(20);
  });

  it('takes the given status and its category', async () => {
    const task = await create({ title: 'Reviewing', statusId: api.fixture.statuses.webReview.id });
    expect(task.status?.name).toBe('In Review');
    expect(task.category).toBe('in_progress');
  });

  it('without a todo status in the project, creates the task with no status and category todo', async () => {
    const bare = await createProject(db(), {
      workspaceId: api.fixture.workspace.id,
      slug: `bare-${randomUUID().slice(0, 6)}`,
      name: 'Bare',
      keyPrefix: 'BARE',
    });
    await db().status.deleteMany({ where: { projectId: bare.id, category: 'todo' } });
    const task = await create({ title: 'No status' }, bare.slug);
    expect(task.status).toBeNull();
    expect(task.category).toBe('todo');
  });

  it('sets priority, due date, assignees and labels, counting duplicate ids once', async () => {
    const { members, labels } = api.fixture;
    const task = await create({
      title: 'Full',
      priority: 'urgent',
      dueDate: '2027-01-31T17:00:00+01:00',
      assigneeIds: [members.grace.id, members.ada.id, members.ada.id.toUpperCase()],
      labelIds: [labels.bug.id, labels.design.id, labels.bug.id],
    });
    expect(task.priority).toBe('urgent');
    expect(task.dueDate).toBe('2027-01-31T16:00:00.000Z');
    expect(task.assignees).toEqual([
      { id: members.ada.id, name: 'Ada Lovelace' },
      { id: members.grace.id, name: 'Grace Hopper' },
    ]);
    expect(task.labels.map((l) => l.name)).toEqual(['bug', 'design']);
  });

  it('removes whitespace around the title', async () => {
    expect((await create({ title: '  Tidy  ' })).title).toBe('Tidy');
  });

  it('accepts a 500-character title counted in characters, not bytes', async () => {
    expect((await create({ title: '🙂'.repeat(500) })).title).toHaveLength(1000);
  });

  it.each([
    [{}, 'title: is required'],
    [{ title: '' }, 'title: must be 1 to 500 characters'],
    [{ title: '   ' }, 'title: must be 1 to 500 characters'],
    [{ title: 'x'.repeat(501) }, 'title: must be 1 to 500 characters'],
    [{ title: 42 }, 'title: must be a string'],
    [{ title: 'ok', colour: 'red' }, 'Unknown field: colour'],
    [{ title: 'ok', projectSlug: 'api' }, 'Unknown field: projectSlug'],
    [{ title: 'ok', priority: 'p1' }, 'priority: must be one of none, low, medium, high, urgent'],
    [{ title: 'ok', dueDate: '2027-01-31' }, 'dueDate: must be an ISO 8601 date-time with a time zone, e.g. 2026-01-31T17:00:00Z'],
    [{ title: 'ok', dueDate: '2027-01-31T17:00:00' }, 'dueDate: must be an ISO 8601 date-time with a time zone, e.g. 2026-01-31T17:00:00Z'],
    [
      { title: 'ok', dueDate: '2027-02-30T17:00:00Z' },
      'dueDate: must be an ISO 8601 date-time with a time zone, e.g. 2026-01-31T17:00:00Z',
    ],
    [{ title: 'ok', statusId: 'todo' }, 'statusId: must be a UUID'],
    [{ title: 'ok', assigneeIds: 'x' }, 'assigneeIds: must be an array of UUIDs'],
    [{ title: 'ok', assigneeIds: ['x'] }, 'assigneeIds[0]: must be a UUID'],
    [{ title: 'ok', description: 'x'.repeat(100_001) }, 'description: must be at most 100000 characters'],
  ])('refuses %j with 400 naming the field', async (body, message) => {
    const before = await taskCount();
    const response = await api.client.post('/web/tasks', body);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ statusCode: 400, message });
    expect(await taskCount()).toBe(before);
  });

  it('refuses more than 5 assignees', async () => {
    const ids = Array.from({ length: 6 }, () => randomUUID());
    const response = await api.client.post('/web/tasks', { title: 'crowded', assigneeIds: ids });
    expect(response.body).toEqual({ statusCode: 400, message: 'assigneeIds: must hold at most 5 assignees' });
  });

  it('refuses more than 50 labels', async () => {
    const ids = Array.from({ length: 51 }, () => randomUUID());
    const response = await api.client.post('/web/tasks', { title: 'labelled', labelIds: ids });
    expect(response.body).toEqual({ statusCode: 400, message: 'labelIds: must hold at most 50 labels' });
  });

  it('refuses an assignee who is not a member of the workspace, naming the id', async () => {
    const stranger = randomUUID();
    const response = await api.client.post('/web/tasks', { title: 'x', assigneeIds: [api.fixture.members.ada.id, stranger] });
    expect(response.body).toEqual({ statusCode: 400, message: `assigneeIds: ${stranger} is not a member of this workspace` });
  });

  it('refuses a label scoped to another project, naming the id', async () => {
    const { backend } = api.fixture.labels;
    const response = await api.client.post('/web/tasks', { title: 'x', labelIds: [backend.id] });
    expect(response.body).toEqual({ statusCode: 400, message: `labelIds: ${backend.id} is not a label available in project web` });
  });

  it('refuses a status of another project, naming the id', async () => {
    const { apiTodo } = api.fixture.statuses;
    const response = await api.client.post('/web/tasks', { title: 'x', statusId: apiTodo.id });
    expect(response.body).toEqual({ statusCode: 400, message: `statusId: ${apiTodo.id} is not a status of project web` });
  });

  it('refuses a body that is not JSON', async () => {
    const response = await api.client.call('POST', '/web/tasks', { body: '{"title": ', headers: { 'content-type': 'application/json' } });
    expect(response.body).toEqual({ statusCode: 400, message: 'Request body is not valid JSON' });
  });

  it('refuses a JSON body that is not an object', async () => {
    const response = await api.client.call('POST', '/web/tasks', { body: '["title"]', headers: { 'content-type': 'application/json' } });
    expect(response.body).toEqual({ statusCode: 400, message: 'Request body must be a JSON object' });
  });

  it('refuses a body that is not JSON by content type with 415', async () => {
    const response = await api.client.call('POST', '/web/tasks', { body: 'title=x', headers: { 'content-type': 'text/plain' } });
    expect(response.body).toEqual({ statusCode: 415, message: 'Content-Type must be application/json' });
  });

  it('refuses a body over 1 MiB with 413', async () => {
    const response = await api.client.post('/web/tasks', { title: 'big', description: 'x'.repeat(1024 * 1024) });
    expect(response.body).toEqual({ statusCode: 413, message: 'Request body too large' });
  });
});

describe('PATCH /{projectSlug}/tasks/{taskId}', () => {
  async function fullTask() {
    const { members, labels } = api.fixture;
    return create({
      title: 'Original',
      description: 'keep me',
      priority: 'low',
      dueDate: '2027-05-01T00:00:00Z',
      assigneeIds: [members.ada.id],
      labelIds: [labels.bug.id],
    });
  }

  it('changes only the fields it is given', async () => {
    const task = await fullTask();
    const { status, body } = await api.client.patch(`/web/tasks/${task.id}`, { title: 'Renamed' });
    expect(status).toBe(200);
    expect(body).toEqual({ ...task, title: 'Renamed', updatedAt: expect.any(String) });
    expect(new Date(body.updatedAt).getTime()).toBeGreaterThan(new Date(task.updatedAt).getTime());
  });

  it('clears description and dueDate with null', async () => {
    const task = await fullTask();
    const { body } = await api.client.patch(`/web/tasks/${task.id}`, { description: null, dueDate: null });
    expect(body.description).toBeNull();
    expect(body.dueDate).toBeNull();
    expect(body.priority).toBe('low');
  });

  it('replaces the whole assignee and label lists', async () => {
    const task = await fullTask();
    const { members, labels } = api.fixture;
    const { body } = await api.client.patch(`/web/tasks/${task.id}`, { assigneeIds: [members.grace.id], labelIds: [labels.design.id] });
    expect(body.assignees.map((a) => a.id)).toEqual([members.grace.id]);
    expect(body.labels.map((l) => l.id)).toEqual([labels.design.id]);
  });

  it('removes all assignees and labels with []', async () => {
    const task = await fullTask();
    const { body } = await api.client.patch(`/web/tasks/${task.id}`, { assigneeIds: [], labelIds: [] });
    expect(body.assignees).toEqual([]);
    expect(body.labels).toEqual([]);
    expect(body.title).toBe('Original');
  });

  it('moves the task to a status and its category', async () => {
    const task = await fullTask();
    const { body } = await api.client.patch(`/web/tasks/${task.id}`, { statusId: api.fixture.statuses.webDone.id });
    expect(body.status?.name).toBe('Done');
    expect(body.category).toBe('done');
  });

  it('allows every status move, back to todo as well', async () => {
    const task = await create({ title: 'Done already', statusId: api.fixture.statuses.webDone.id });
    const { body } = await api.client.patch(`/web/tasks/${task.id}`, { statusId: api.fixture.statuses.webTodo.id });
    expect(body.category).toBe('todo');
  });

  it('finds the task by external ID', async () => {
    const task = await fullTask();
    const { status, body } = await api.client.patch(`/web/tasks/${task.externalId.toLowerCase()}`, { priority: 'high' });
    expect(status).toBe(200);
    expect(body.priority).toBe('high');
  });

  it('with an empty body changes nothing', async () => {
    const task = await fullTask();
    const { status, body } = await api.client.patch(`/web/tasks/${task.id}`, {});
    expect(status).toBe(200);
    expect(body).toEqual(task);
  });

  it.each([
    [{ title: null }, 'title: must not be null'],
    [{ title: '' }, 'title: must be 1 to 500 characters'],
    [{ priority: null }, 'priority: must be one of none, low, medium, high, urgent'],
    [{ statusId: null }, 'statusId: must be a UUID'],
    [{ assigneeIds: null }, 'assigneeIds: must be an array of UUIDs'],
    [{ id: 'x' }, 'Unknown field: id'],
    [{ externalId: 'WEB-1', category: 'done' }, 'Unknown fields: externalId, category'],
  ])('refuses %j with 400 and changes nothing', async (patch, message) => {
    const task = await fullTask();
    const response = await api.client.patch(`/web/tasks/${task.id}`, patch);
    expect(response.body).toEqual({ statusCode: 400, message });
    expect((await api.client.get(`/web/tasks/${task.id}`)).body).toEqual(task);
  });

  it('refuses a status of another project and changes nothing', async () => {
    const task = await fullTask();
    const { apiTodo } = api.fixture.statuses;
    const response = await api.client.patch(`/web/tasks/${task.id}`, { title: 'Nope', statusId: apiTodo.id });
    expect(response.body).toEqual({ statusCode: 400, message: `statusId: ${apiTodo.id} is not a status of project web` });
    expect((await api.client.get(`/web/tasks/${task.id}`)).body.title).toBe('Original');
  });

  it('answers 404 for an unknown task', async () => {
    const response = await api.client.patch('/web/tasks/WEB-999999', { title: 'x' });
    expect(response.body).toEqual({ statusCode: 404, message: 'Task not found' });
  });

  it('leaves a consistent task after parallel updates', async () => {
    const task = await fullTask();
    const { ada, grace, alan } = api.fixture.members;
    const sets = [[ada.id], [grace.id, alan.id], [ada.id, grace.id, alan.id], [], [alan.id]];
    const results = await Promise.all(
      sets.map((assigneeIds, i) => api.client.patch(`/web/tasks/${task.id}`, { assigneeIds, title: `v${i}` })),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    const final = (await api.client.get(`/web/tasks/${task.id}`)).body;
    const winner = Number(final.title.slice(1));
    expect(final.assignees.map((a) => a.id).sort()).toEqual([...sets[winner]!].sort());
  });
  // The embedded database runs one transaction at a time: a lock held by the test would stop the update's statement too.
  it.runIf(inject('testDatabase').kind === 'postgres')(
    'replaces the list another write left while the update waited for the project',
    async () => {
      const task = await fullTask();
      const { ada, grace } = api.fixture.members;
      const other = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await other.connect();
      try {
        // Another write to the project: it stamps the project, as every write does, and assigns grace.
        await other.query('BEGIN');
        await other.query(`UPDATE project SET changed_at = changed_at + interval '1 millisecond' WHERE id = $1`, [
          api.fixture.projects.web.id,
        ]);
        await other.query('INSERT INTO task_assignee (task_id, user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING', [task.id, grace.id]);
        const patched = api.client.patch(`/web/tasks/${task.id}`, { assigneeIds: [ada.id] });
        const waiting = `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`;
        while ((await other.query<{ n: number }>(waiting)).rows[0]!.n === 0) await new Promise((resolve) => setTimeout(resolve, 20));
        await other.query('COMMIT');

        const response = await patched;
        expect(response.status).toBe(200);
        expect(response.body.assignees.map((a: { id: string }) => a.id)).toEqual([ada.id]);
        expect((await api.client.get(`/web/tasks/${task.id}`)).body.assignees.map((a: { id: string }) => a.id)).toEqual([ada.id]);
      } finally {
        await other.end();
      }
    },
  );
});

describe('DELETE /{projectSlug}/tasks/{taskId}', () => {
  it('deletes the task and answers {success: true}', async () => {
    const task = await create({ title: 'Doomed' });
    const { status, body } = await api.client.delete(`/web/tasks/${task.externalId}`);
    expect(status).toBe(200);
    expect(body).toEqual({ success: true });
    expect((await api.client.get(`/web/tasks/${task.id}`)).status).toBe(404);
  });

  it('deletes the task when the request says its empty body is JSON, as many HTTP clients do', async () => {
    const task = await create({ title: 'Doomed by a careful client' });
    const { status, body } = await api.client.delete(`/web/tasks/${task.id}`, { 'content-type': 'application/json' });
    expect([status, body]).toEqual([200, { success: true }]);
  });

  it('deletes its comments and subtasks with it', async () => {
    const task = await create({ title: 'Parent' });
    await api.client.post(`/web/tasks/${task.id}/comments`, { content: 'bye' });
    const counter = await db().project.update({ where: { id: api.fixture.projects.web.id }, data: { taskCounter: { increment: 1 } } });
    const subtask = await db().task.create({
      data: { projectId: counter.id, number: counter.taskCounter, title: 'Child', parentId: task.id },
    });
    await api.client.delete(`/web/tasks/${task.id}`);
    expect(await db().comment.count({ where: { taskId: task.id } })).toBe(0);
    expect(await db().task.findUnique({ where: { id: subtask.id } })).toBeNull();
  });

  it("never hands a deleted task's number out again", async () => {
    const task = await create({ title: 'Numbered' });
    await api.client.delete(`/web/tasks/${task.id}`);
    const next = await create({ title: 'Next' });
    expect(Number(next.externalId.split('-')[1])).toBe(Number(task.externalId.split('-')[1]) + 1);
  });

  it('answers 404 for an unknown task, and for one deleted already', async () => {
    const task = await create({ title: 'Twice' });
    await api.client.delete(`/web/tasks/${task.id}`);
    const again = await api.client.delete(`/web/tasks/${task.id}`);
    expect(again.body).toEqual({ statusCode: 404, message: 'Task not found' });
  });
});
