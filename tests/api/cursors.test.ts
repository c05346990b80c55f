import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { db } from '../../server/db/client';
import { createProject } from '../../server/projects/projects';
import { useApi } from '../support/api';
import { errorOf } from '../support/client';
import type { Task, TaskList } from '../support/types';

const api = useApi();

async function freshProject() {
  const suffix = randomBytes(3).toString('hex');
  return createProject(db(), {
    workspaceId: api.fixture.workspace.id,
    slug: `cur-${suffix}`,
    name: 'Cursors',
    keyPrefix: `C${suffix.toUpperCase()}`,
  });
}

const PRIORITIES = ['none', 'low', 'medium', 'high', 'urgent'] as const;
// Ties on purpose: equal priorities and due dates, and tasks without one, are ordered by id.
const DUE_DATES = [null, '2027-01-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z', '2026-06-01T12:00:00.000Z', null];

async function create(slug: string, i: number): Promise<Task> {
  const response = await api.client.post(`/${slug}/tasks`, {
    title: `task ${i}`,
    priority: PRIORITIES[i % PRIORITIES.length],
    dueDate: DUE_DATES[i % DUE_DATES.length],
  });
  expect(response.status).toBe(201);
  return response.body;
}

const ORDERS = ['createdAt', 'updatedAt', 'dueDate', 'priority'].flatMap((sort) => [`sort=${sort}&order=asc`, `sort=${sort}&order=desc`]);

describe('cursors on every order', () => {
  it.each(ORDERS)(
    'with %s, reading on by nextCursor returns every task once while tasks are created, changed and deleted between pages',
    async (order) => {
      const { slug } = await freshProject();
      const initial: Task[] = [];
      for (let i = 0; i < 10; i++) initial.push(await create(slug, i));
      const deleted = new Set<string>();
      const changed = new Set<string>();
      const seen: string[] = [];
      let cursor: string | null = null;
      let round = 0;
      for (;;) {
        const response: { status: number; body: TaskList } = await api.client.get(
          `/${slug}/tasks?${order}&limit=3${cursor ? `&after=${cursor}` : ''}`,
        );
        expect(response.status).toBe(200);
        seen.push(...response.body.tasks.map((task) => task.id));
        expect(response.body.meta.nextCursor).toEqual(expect.any(String));
        cursor = response.body.meta.nextCursor;
        if (!response.body.meta.hasMore) break;
        // Between pages: a new task, a changed title, a deleted task, each somewhere in the order.
        round++;
        await create(slug, 100 + round);
        const toChange = initial[(round * 5) % initial.length]!;
        await api.client.patch(`/${slug}/tasks/${toChange.id}`, { title: `changed ${round}` });
        changed.add(toChange.id);
        const toDelete = initial[(round * 7 + 3) % initial.length]!;
        if (!deleted.has(toDelete.id)) await api.client.delete(`/${slug}/tasks/${toDelete.id}`);
        deleted.add(toDelete.id);
      }

      // A change moves a task in change order only: there a changed task comes again later, as a poller wants it.
      const keyMoves = order.startsWith('sort=updatedAt');
      const steady = initial.filter((task) => !deleted.has(task.id) && !(keyMoves && changed.has(task.id)));
      for (const task of steady) expect(seen.filter((id) => id === task.id)).toHaveLength(1);
      if (!keyMoves) expect(new Set(seen).size).toBe(seen.length);
    },
  );

  it('pages read by cursor are the offset pages, in the same order, when nothing changes', async () => {
    const { slug } = await freshProject();
    for (let i = 0; i < 7; i++) await create(slug, i);

    for (const order of ORDERS) {
      const all = await api.client.get(`/${slug}/tasks?${order}&limit=100`);
      const byCursor: string[] = [];
      let cursor = '';
      for (let page = 0; page < 4; page++) {
        const response = await api.client.get(`/${slug}/tasks?${order}&limit=2${cursor}`);
        byCursor.push(...response.body.tasks.map((task) => task.id));
        cursor = `&after=${response.body.meta.nextCursor}`;
      }
      expect(byCursor, order).toEqual(all.body.tasks.map((task) => task.id));
    }
  });

  it('with a filter, the cursor reads on within the filter and total stays the filter’s total', async () => {
    const { slug } = await freshProject();
    for (let i = 0; i < 10; i++) await create(slug, i);

    const first = await api.client.get(`/${slug}/tasks?priority=none&limit=1`);
    const second = await api.client.get(`/${slug}/tasks?priority=none&limit=1&after=${first.body.meta.nextCursor}`);

    expect(first.body.meta).toMatchObject({ total: 2, hasMore: true });
    expect(second.body.meta).toMatchObject({ total: 2, hasMore: false });
    expect(second.body.tasks.map((task) => task.priority)).toEqual(['none']);
    expect(second.body.tasks[0]!.id).not.toBe(first.body.tasks[0]!.id);
  });

  it('an empty page gives back a cursor to read on from, and the last page says there is no more', async () => {
    const { slug } = await freshProject();
    await create(slug, 0);

    const only = await api.client.get(`/${slug}/tasks`);
    const after = await api.client.get(`/${slug}/tasks?after=${only.body.meta.nextCursor}`);
    await create(slug, 1);
    const later = await api.client.get(`/${slug}/tasks?sort=createdAt&order=asc&after=${only.body.meta.nextCursor}`);

    expect(only.body.meta.hasMore).toBe(false);
    expect(after.body.tasks).toEqual([]);
    expect(after.body.meta.nextCursor).toBe(only.body.meta.nextCursor);
    expect(later.status).toBe(400);
  });

  it.each([
    ['another sort', 'sort=priority'],
    ['another order', 'order=asc'],
    ['another filter', 'priority=high'],
    ['another search', 'search=task'],
  ])('a cursor sent with %s is 400 naming after', async (_, query) => {
    const { slug } = await freshProject();
    await create(slug, 0);
    const cursor = (await api.client.get(`/${slug}/tasks`)).body.meta.nextCursor;

    const response = await api.client.get(`/${slug}/tasks?${query}&after=${cursor}`);

    expect(response.status).toBe(400);
    expect(errorOf(response).message).toBe(
      'after: belongs to another query: send it with the filters, sort and order of the answer that gave it',
    );
  });

  it('a cursor of another project is 400 naming after', async () => {
    const one = await freshProject();
    const other = await freshProject();
    await create(one.slug, 0);
    const cursor = (await api.client.get(`/${one.slug}/tasks`)).body.meta.nextCursor;

    const response = await api.client.get(`/${other.slug}/tasks?after=${cursor}`);

    expect(response.status).toBe(400);
    expect(errorOf(response).message).toMatch(/^after: belongs to another query/);
  });

  it('a cursor with page is 400 naming after', async () => {
    const { slug } = await freshProject();
    await create(slug, 0);
    const cursor = (await api.client.get(`/${slug}/tasks`)).body.meta.nextCursor;

    const response = await api.client.get(`/${slug}/tasks?page=2&after=${cursor}`);

    expect(response.status).toBe(400);
    expect(errorOf(response).message).toBe('after: cannot be combined with page');
  });

  it('a change-order cursor of the first form (time and id) still reads on in change order', async () => {
    const { slug } = await freshProject();
    const first = await create(slug, 0);
    const second = await create(slug, 1);
    const legacy = Buffer.from(`${first.updatedAt} ${first.id}`).toString('base64url');

    const response = await api.client.get(`/${slug}/tasks?sort=updatedAt&order=asc&after=${legacy}`);
    const elsewhere = await api.client.get(`/${slug}/tasks?after=${legacy}`);

    expect(response.body.tasks.map((task) => task.id)).toEqual([second.id]);
    expect(elsewhere.status).toBe(400);
  });
});
