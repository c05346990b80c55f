import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { db } from '../../server/db/client';
import { createProject } from '../../server/projects/projects';
import { nextTaskNumber } from '../../server/tasks/numbers';
import { useApi } from '../support/api';
import { errorOf, type Answer } from '../support/client';
import type { Task, TaskList } from '../support/types';

const api = useApi();

/** A project of its own, so that what a test polls is only what it did. */
async function freshProject() {
  const suffix = randomBytes(3).toString('hex');
  const project = await createProject(db(), {
    workspaceId: api.fixture.workspace.id,
    slug: `poll-${suffix}`,
    name: 'Polling',
    keyPrefix: `P${suffix.toUpperCase()}`,
  });
  return project;
}

async function create(slug: string, title: string) {
  const response = await api.client.post(`/${slug}/tasks`, { title });
  expect(response.status).toBe(201);
  return response.body;
}

const inChangeOrder = (slug: string, query = '') => api.client.get(`/${slug}/tasks?sort=updatedAt&order=asc${query}`);
const cursorOf = (response: Answer<TaskList>) => response.body.meta.nextCursor ?? null;

describe('updatedSince', () => {
  it('lists only the tasks changed after the given time, exclusive', async () => {
    const { slug } = await freshProject();
    const first = await create(slug, 'first');
    const second = await create(slug, 'second');
    await api.client.patch(`/${slug}/tasks/${first.id}`, { priority: 'high' });

    const response = await inChangeOrder(slug, `&updatedSince=${encodeURIComponent(second.updatedAt)}`);

    expect(response.status).toBe(200);
    expect(response.body.tasks.map((t) => t.id)).toEqual([first.id]);
  });

  it('every change of a project gets a later updatedAt than the one before, even within one millisecond', async () => {
    const { slug } = await freshProject();
    const tasks = await Promise.all(Array.from({ length: 10 }, (_, i) => create(slug, `burst ${i}`)));

    const times = tasks.map((t) => Date.parse(t.updatedAt)).sort((a, b) => a - b);

    expect(new Set(times).size).toBe(10);
  });

  it('a malformed updatedSince is 400 naming it', async () => {
    const response = await api.client.get('/web/tasks?updatedSince=yesterday');

    expect(response.status).toBe(400);
    expect(errorOf(response).message).toMatch(/^updatedSince: /);
  });
});

describe('the cursor after', () => {
  it('pages through every task once, in change order, and the last cursor finds only later changes', async () => {
    const { slug } = await freshProject();
    const created: Task[] = [];
    for (let i = 0; i < 5; i++) created.push(await create(slug, `task ${i}`));

    const first = await inChangeOrder(slug, '&limit=2');
    const second = await inChangeOrder(slug, `&limit=2&after=${cursorOf(first)}`);
    const third = await inChangeOrder(slug, `&limit=2&after=${cursorOf(second)}`);
    const idle = await inChangeOrder(slug, `&limit=2&after=${cursorOf(third)}`);
    await api.client.patch(`/${slug}/tasks/${created[1]!.id}`, { title: 'changed' });
    const later = await inChangeOrder(slug, `&limit=2&after=${cursorOf(idle)}`);

    const ids = (r: { body: { tasks: { id: string }[] } }) => r.body.tasks.map((t) => t.id);
    expect([...ids(first), ...ids(second), ...ids(third)]).toEqual(created.map((t) => t.id));
    expect([first, second, third].map((r) => r.body.meta.hasMore)).toEqual([true, true, false]);
    expect(ids(idle)).toEqual([]);
    expect(cursorOf(idle)).toBe(cursorOf(third));
    expect(ids(later)).toEqual([created[1]!.id]);
  });

  it('a poller paging while tasks are created and changed misses no change and sees none twice', async () => {
    const { slug } = await freshProject();
    const seeded: { id: string }[] = [];
    for (let i = 0; i < 6; i++) seeded.push(await create(slug, `seed ${i}`));
    const seen: string[] = [];
    let cursor: string | null = null;
    const poll = async () => {
      const response = await inChangeOrder(slug, `&limit=3${cursor ? `&after=${cursor}` : ''}`);
      expect(response.status).toBe(200);
      for (const task of response.body.tasks) seen.push(`${task.id} ${task.updatedAt}`);
      cursor = cursorOf(response);
      return response.body.meta.hasMore;
    };

    let writing = true;
    const writer = async (n: number) => {
      for (let i = 0; i < 12; i++) {
        if (i % 3 === 0) seeded.push(await create(slug, `writer ${n} ${i}`));
        else await api.client.patch(`/${slug}/tasks/${seeded[(n * 7 + i) % seeded.length]!.id}`, { title: `writer ${n} edit ${i}` });
      }
    };
    const writers = Promise.all([0, 1, 2].map(writer)).finally(() => (writing = false));
    while (writing) await poll();
    await writers;
    while (await poll());

    const final = await api.client.get(`/${slug}/tasks?limit=100`);
    const finalStates = final.body.tasks.map((t: { id: string; updatedAt: string }) => `${t.id} ${t.updatedAt}`);
    expect(seen).toEqual(expect.arrayContaining(finalStates));
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('a malformed cursor is 400 naming after', async () => {
    const garbage = Buffer.from('not a cursor').toString('base64url');

    const responses = await Promise.all(
      [`after=${garbage}`, 'after=%%%', `after=${'A'.repeat(200)}`].map((query) => inChangeOrder('web', `&${query}`)),
    );

    for (const response of responses) {
      expect(response.status).toBe(400);
      expect(errorOf(response).message).toBe('after: must be a cursor from meta.nextCursor');
    }
  });

  it('a change-order cursor sent in another order is 400 naming after', async () => {
    const { slug } = await freshProject();
    await create(slug, 'one');
    const cursor = cursorOf(await inChangeOrder(slug));

    const response = await api.client.get(`/${slug}/tasks?after=${cursor}`);

    expect(response.status).toBe(400);
    expect(errorOf(response).message).toMatch(/^after: belongs to another query/);
  });
});

describe('GET /{projectSlug}/tasks/deleted', () => {
  it('lists deleted tasks with id, externalId and deletedAt, a deleted parent with its subtask', async () => {
    const project = await freshProject();
    const kept = await create(project.slug, 'kept');
    const parent = await create(project.slug, 'parent');
    const subtask = await db().$transaction(async (tx) => {
      const { number } = await nextTaskNumber(tx, project.id);
      return tx.task.create({ data: { projectId: project.id, number, title: 'child', parentId: parent.id } });
    });

    const deleted = await api.client.delete(`/${project.slug}/tasks/${parent.id}`);
    const response = await api.client.get(`/${project.slug}/tasks/deleted`);

    expect(deleted.status).toBe(200);
    expect(response.status).toBe(200);
    expect(response.body.deleted).toHaveLength(2);
    expect(response.body.deleted).toEqual(
      expect.arrayContaining([
        { id: parent.id, externalId: parent.externalId, deletedAt: expect.any(String) },
        { id: subtask.id, externalId: `${project.keyPrefix}-${subtask.number}`, deletedAt: expect.any(String) },
      ]),
    );
    expect(response.body.deleted.map((d) => d.id)).not.toContain(kept.id);
    expect(Date.parse(response.body.deleted[0]!.deletedAt)).toBeGreaterThan(Date.parse(parent.updatedAt));
  });

  it('since and after list only later deletions', async () => {
    const { slug } = await freshProject();
    const [a, b, c] = [await create(slug, 'a'), await create(slug, 'b'), await create(slug, 'c')];
    await api.client.delete(`/${slug}/tasks/${a.id}`);
    const firstPoll = await api.client.get(`/${slug}/tasks/deleted`);
    await api.client.delete(`/${slug}/tasks/${b.id}`);
    await api.client.delete(`/${slug}/tasks/${c.id}`);

    const bySince = await api.client.get(`/${slug}/tasks/deleted?since=${encodeURIComponent(firstPoll.body.deleted[0]!.deletedAt)}`);
    const byCursor = await api.client.get(`/${slug}/tasks/deleted?limit=1&after=${firstPoll.body.meta.nextCursor}`);

    expect(bySince.body.deleted.map((d) => d.id)).toEqual([b.id, c.id]);
    expect(byCursor.body.deleted.map((d) => d.id)).toEqual([b.id]);
    expect(byCursor.body.meta.hasMore).toBe(true);
  });

  it('tombstones older than 30 days are not listed, and are removed by the next delete in the project', async () => {
    const project = await freshProject();
    const task = await create(project.slug, 'gone long ago');
    await db().taskTombstone.create({
      data: {
        taskId: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
        projectId: project.id,
        number: 999,
        deletedAt: new Date(Date.now() - 31 * 86_400_000),
      },
    });

    const listed = await api.client.get(`/${project.slug}/tasks/deleted`);
    await api.client.delete(`/${project.slug}/tasks/${task.id}`);

    expect(listed.body.deleted).toEqual([]);
    expect(await db().taskTombstone.findMany({ where: { projectId: project.id }, select: { taskId: true } })).toEqual([
      { taskId: task.id },
    ]);
  });

  it('a malformed since is 400 naming it', async () => {
    const response = await api.client.get('/web/tasks/deleted?since=2026-13-01');

    expect(response.status).toBe(400);
    expect(errorOf(response).message).toMatch(/^since: /);
  });

  it('needs task:read', async () => {
    const response = await api.clientWith(await api.fixture.key({ scopes: ['task:create'] })).get('/web/tasks/deleted');

    expect(response.body).toEqual({ statusCode: 403, message: 'Missing required scope: task:read' });
  });
});
