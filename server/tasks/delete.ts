import type { ProjectRef } from '../projects/types';
import type { Db } from '../db/client';
import { notFound } from '../errors';
import { TASK_NOT_FOUND } from './get';
import { taskWhere } from './locate';
import { enqueueEvent } from '../webhooks/events';

/**
 * Deletes a task with its subtasks, comments, attachments, assignments and
 * labels (the database cascades), and returns the storage keys of the files
 * that went with it, for the caller to remove once the delete is committed.
 */
export async function deleteTask(db: Db, project: ProjectRef, taskId: string): Promise<string[]> {
  const where = taskWhere(project, taskId);
  if (!where) throw notFound(TASK_NOT_FOUND);
  return db.$transaction(async (tx) => {
    const task = await tx.task.findUnique({ where, select: { id: true, number: true } });
    if (!task) throw notFound(TASK_NOT_FOUND);
    // Locking the whole subtree makes a concurrent upload to any of it wait, then
    // fail on its foreign key, so no stored file outlives its row unnoticed.
    const files = await tx.$queryRaw<{ storage_key: string }[]>`
      WITH RECURSIVE subtree AS (
        SELECT id FROM task WHERE id = ${task.id}::uuid
        UNION ALL
        SELECT child.id FROM task child JOIN subtree ON child.parent_id = subtree.id
      ), locked AS (
        SELECT id FROM task WHERE id IN (SELECT id FROM subtree) FOR UPDATE
      )
      SELECT storage_key FROM attachment WHERE task_id IN (SELECT id FROM locked)`;
    // One change, one event: the subtasks that go with the task are listed in it.
    await enqueueEvent(tx, project, 'task.deleted', async () => {
      const subtasks = await tx.$queryRaw<{ id: string; number: number }[]>`
        WITH RECURSIVE subtree AS (
          SELECT id, number FROM task WHERE parent_id = ${task.id}::uuid
          UNION ALL
          SELECT child.id, child.number FROM task child JOIN subtree ON child.parent_id = subtree.id
        )
        SELECT id::text, number FROM subtree ORDER BY number`;
      const ref = (row: { id: string; number: number }) => ({ id: row.id, externalId: `${project.keyPrefix}-${row.number}` });
      return { task: ref(task), subtasks: subtasks.map(ref) };
    });
    await tx.task.delete({ where: { id: task.id } });
    return files.map((file) => file.storage_key);
  });
}
