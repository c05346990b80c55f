import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { db } from '../../server/db/client';
import { createProject } from '../../server/projects/projects';
import { NEXT_CHANGE_TIME } from '../../server/tasks/stamp';
import { useApi } from '../support/api';
import type { Task } from '../support/types';

const api = useApi();

async function freshProject() {
  const suffix = randomBytes(3).toString('hex');
  return createProject(db(), {
    workspaceId: api.fixture.workspace.id,
    slug: `tot-${suffix}`,
    name: 'Totals',
    keyPrefix: `T${suffix.toUpperCase()}`,
  });
}

type Project = Awaited<ReturnType<typeof freshProject>>;

/** Every filter the list takes, as the queries the totals are compared for. */
function filters(project: Project): string[] {
  const { ada } = api.fixture.members;
  const { bug } = api.fixture.labels;
  return [
    '',
    ...['todo', 'in_progress', 'done'].map((status) => `status=${status}`),
    ...project.statuses.map((status) => `statusId=${status.id}`),
    ...['none', 'low', 'high', 'urgent'].map((priority) => `priority=${priority}`),
    `statusId=${project.statuses[0]!.id}&priority=high`,
    'status=done&priority=low',
    'search=alpha',
    `assigneeId=${ada.id}`,
    `labelId=${bug.id}`,
    `assigneeId=${ada.id}&priority=high`,
  ];
}

/** The total the list answers against the tasks it lists (a project here holds fewer than a page), for each filter. */
async function expectExactTotals(project: Project) {
  for (const query of filters(project)) {
    const listed = await api.client.get(`/${project.slug}/tasks?limit=100&${query}`);
    expect(listed.status).toBe(200);
    expect(listed.body.meta.total, query || 'no filter').toBe(listed.body.tasks.length);
  }
}

async function create(project: Project, i: number, extra: Record<string, unknown> = {}): Promise<Task> {
  const statuses = project.statuses;
  const response = await api.client.post(`/${project.slug}/tasks`, {
    title: i % 3 === 0 ? `alpha ${i}` : `beta ${i}`,
    priority: (['none', 'low', 'high', 'urgent'] as const)[i % 4],
    statusId: statuses[i % statuses.length]!.id,
    assigneeIds: i % 2 === 0 ? [api.fixture.members.ada.id] : [],
    labelIds: i % 3 === 1 ? [api.fixture.labels.bug.id] : [],
    ...extra,
  });
  expect(response.status).toBe(201);
  return response.body;
}

// Many requests each: the embedded database on a busy machine takes its time.
describe('total', () => {
  it('stays exact for every filter through creates, status and priority changes and deletes', async () => {
    const project = await freshProject();
    const tasks: Task[] = [];
    for (let i = 0; i < 9; i++) tasks.push(await create(project, i));
    await expectExactTotals(project);

    await api.client.patch(`/${project.slug}/tasks/${tasks[0]!.id}`, { statusId: project.statuses[2]!.id, priority: 'low' });
    await api.client.patch(`/${project.slug}/tasks/${tasks[1]!.id}`, { priority: 'high', title: 'alpha now' });
    await api.client.patch(`/${project.slug}/tasks/${tasks[2]!.id}`, { assigneeIds: [api.fixture.members.ada.id], labelIds: [] });
    await expectExactTotals(project);

    await api.client.delete(`/${project.slug}/tasks/${tasks[3]!.id}`);
    await api.client.delete(`/${project.slug}/tasks/${tasks[4]!.id}`);
    await create(project, 20);
    await expectExactTotals(project);
  });

  it('stays exact when tasks become subtasks and top-level tasks again, and when a parent is deleted with its subtasks', async () => {
    const project = await freshProject();
    const tasks: Task[] = [];
    for (let i = 0; i < 6; i++) tasks.push(await create(project, i));
    // The API makes no subtasks yet: a move as any write to a project's tasks makes it, with the project's change stamp.
    const move = (ids: string[], parentId: string | null) => db().$executeRaw`
      WITH stamp AS (UPDATE project p SET changed_at = ${NEXT_CHANGE_TIME} WHERE p.id = ${project.id}::uuid RETURNING p.changed_at)
      UPDATE task SET parent_id = ${parentId}::uuid, updated_at = (SELECT changed_at FROM stamp) WHERE id = ANY(${ids}::uuid[])`;
    await move([tasks[1]!.id, tasks[2]!.id], tasks[0]!.id);
    await expectExactTotals(project);

    await move([tasks[2]!.id], null);
    await expectExactTotals(project);

    await api.client.delete(`/${project.slug}/tasks/${tasks[0]!.id}`);
    await expectExactTotals(project);
  });

  it('a count answered from an earlier count is the new count as soon as the project changes', async () => {
    const project = await freshProject();
    for (let i = 0; i < 4; i++) await create(project, i * 3);
    const before = await api.client.get(`/${project.slug}/tasks?search=alpha`);
    const again = await api.client.get(`/${project.slug}/tasks?search=alpha`);

    const created = await create(project, 30);
    const after = await api.client.get(`/${project.slug}/tasks?search=alpha`);
    expect((await api.client.patch(`/${project.slug}/tasks/${created.id}`, { title: 'gamma' })).status).toBe(200);
    const renamed = await api.client.get(`/${project.slug}/tasks?search=alpha`);

    expect([before, again, after, renamed].map((r) => r.body.meta.total)).toEqual([4, 4, 5, 4]);
  });

  it('the maintained counts equal a count of the rows after a project’s tasks are written in every way', async () => {
    const project = await freshProject();
    const tasks: Task[] = [];
    for (let i = 0; i < 8; i++) tasks.push(await create(project, i));
    await api.client.patch(`/${project.slug}/tasks/${tasks[5]!.id}`, { statusId: project.statuses[1]!.id });
    await api.client.delete(`/${project.slug}/tasks/${tasks[6]!.id}`);

    const differing = await db().$queryRaw<unknown[]>`
      SELECT * FROM (
        SELECT status_id, category, priority, tasks FROM task_count WHERE project_id = ${project.id}::uuid AND tasks <> 0
        EXCEPT
        SELECT coalesce(status_id, '00000000-0000-0000-0000-000000000000'), category, priority, count(*) FROM task
        WHERE project_id = ${project.id}::uuid AND parent_id IS NULL GROUP BY 1, 2, 3
      ) d`;

    expect(differing).toEqual([]);
  });
});
