import type { ProjectRef } from '../projects/types';
import type { Db } from '../db/client';
import { notFound } from '../errors';
import { lockIfMatch, type EtagCondition } from './etag';
import { TASK_NOT_FOUND } from './get';
import { taskCondition, taskWhere } from './locate';

/**
 * Deletes a task with its subtasks, comments, attachments, assignments and
 * labels (the database cascades), and returns the storage keys of the files
 * that went with it, for the caller to remove once the delete is committed.
 * With `ifMatch` the task is read whole and locked first, and deleted only if it
 * passes (else 412), in the same number of statements.
 */
export async function deleteTask(db: Db, project: ProjectRef, taskId: string, ifMatch?: EtagCondition): Promise<string[]> {
  const where = taskWhere(project, taskId);
  const condition = taskCondition(project, taskId);
  if (!where || !condition) throw notFound(TASK_NOT_FOUND);
  return db.$transaction(async (tx) => {
    const task = ifMatch ? await lockIfMatch(tx, project, condition, ifMatch) : await tx.task.findUnique({ where, select: { id: true } });
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
    await tx.task.delete({ where: { id: task.id } });
    return files.map((file) => file.storage_key);
  });
}
