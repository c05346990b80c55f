import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { db } from '../../server/db/client';
import { createApiKey } from '../../server/keys/manage';
import { createProject } from '../../server/projects/projects';
import { nextTaskNumber } from '../../server/tasks/numbers';
import { createWorkspace } from '../../server/workspaces/workspaces';
import { FIXTURE_AUDIT, createWorkspaceFixture } from '../support/fixtures';

async function insertTask(projectId: string, data: { statusId?: string; parentId?: string } = {}) {
  return db().$transaction(async (tx) => {
    const { number } = await nextTaskNumber(tx, projectId);
    return tx.task.create({ data: { projectId, number, title: `Task ${number}`, ...data } });
  });
}

describe('data model', () => {
  it('lets two workspaces each have a project with the same slug', async () => {
    const a = await createWorkspaceFixture();
    const b = await createWorkspaceFixture();
    expect(a.projects.web.slug).toBe(b.projects.web.slug);
  });

  it('refuses a second project with the same slug in one workspace', async () => {
    const { workspace } = await createWorkspaceFixture();
    await expect(createProject(db(), { workspaceId: workspace.id, slug: 'web', name: 'Again', keyPrefix: 'AGN' })).rejects.toThrow(
      /already exists/,
    );
  });

  it('refuses two tasks with the same number in one project', async () => {
    const { projects } = await createWorkspaceFixture();
    await db().task.create({ data: { projectId: projects.web.id, number: 7, title: 'a' } });
    await expect(db().task.create({ data: { projectId: projects.web.id, number: 7, title: 'b' } })).rejects.toMatchObject({
      code: 'P2002',
    });
  });

  it('refuses a status of another project', async () => {
    const { projects, statuses } = await createWorkspaceFixture();
    await expect(insertTask(projects.web.id, { statusId: statuses.apiTodo.id })).rejects.toMatchObject({ code: 'P2003' });
  });

  it('refuses a parent task of another project', async () => {
    const { projects } = await createWorkspaceFixture();
    const parent = await insertTask(projects.api.id);
    await expect(insertTask(projects.web.id, { parentId: parent.id })).rejects.toMatchObject({ code: 'P2003' });
  });

  it('gives 50 parallel creates in one project 50 distinct consecutive numbers', async () => {
    const { projects } = await createWorkspaceFixture();
    const tasks = await Promise.all(Array.from({ length: 50 }, () => insertTask(projects.web.id)));
    expect(tasks.map((t) => t.number).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
  });

  it('never reuses a number after a delete', async () => {
    const { projects } = await createWorkspaceFixture();
    await insertTask(projects.web.id);
    const second = await insertTask(projects.web.id);
    await db().task.delete({ where: { id: second.id } });
    expect((await insertTask(projects.web.id)).number).toBe(3);
  });

  it("removes a task's comments, attachments, assignments, labels and subtasks with it", async () => {
    const { projects, members, labels } = await createWorkspaceFixture();
    const task = await insertTask(projects.web.id);
    const subtask = await insertTask(projects.web.id, { parentId: task.id });
    await db().comment.create({ data: { taskId: task.id, content: 'hi', authorUserId: members.ada.id } });
    await db().attachment.create({
      data: { taskId: subtask.id, filename: 'a.txt', mimeType: 'text/plain', size: 1, storageKey: randomUUID() },
    });
    await db().taskAssignee.create({ data: { taskId: task.id, userId: members.ada.id } });
    await db().taskLabel.create({ data: { taskId: task.id, labelId: labels.bug.id } });
    await db().task.delete({ where: { id: task.id } });
    const left = await Promise.all([
      db().task.count({ where: { id: { in: [task.id, subtask.id] } } }),
      db().comment.count({ where: { taskId: task.id } }),
      db().attachment.count({ where: { taskId: subtask.id } }),
      db().taskAssignee.count({ where: { taskId: task.id } }),
      db().taskLabel.count({ where: { taskId: task.id } }),
    ]);
    expect(left).toEqual([0, 0, 0, 0, 0]);
  });

  it('stores no API key in plaintext anywhere in the database', async () => {
    const workspace = await createWorkspace(db(), { slug: `plain-${randomUUID().slice(0, 8)}`, name: 'Plain' });
    const { key } = await createApiKey(
      db(),
      workspace.id,
      { name: 'k', scopes: ['task:read'], projectId: null, expiresAt: null },
      null,
      FIXTURE_AUDIT,
    );
    const tables = await db().$queryRaw<{ table_name: string }[]>`
      SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`;
    for (const { table_name } of tables) {
      const [row] = await db().$queryRawUnsafe<{ hits: bigint }[]>(
        `SELECT count(*) AS hits FROM "${table_name}" t WHERE to_jsonb(t)::text LIKE '%' || $1 || '%'`,
        key.slice(3),
      );
      expect(Number(row?.hits), table_name).toBe(0);
    }
  });
});
