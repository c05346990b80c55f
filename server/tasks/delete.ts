import { MAX_EVENT_SUBTASKS } from '../schemas/task';
import type { ProjectRef } from '../projects/types';
import type { Db } from '../db/client';
import { notFound } from '../errors';
import { lockIfMatch, type EtagCondition } from './etag';
import { TASK_NOT_FOUND } from './get';
import { taskCondition, taskWhere } from './locate';
import { stampChange } from './stamp';

/** How long a deleted task stays listed by GET /{projectSlug}/tasks/deleted. */
export const TOMBSTONE_DAYS = 30;
import { enqueueEvent } from '../webhooks/events';

/**
 * Deletes a task with its subtasks, comments, attachments, assignments and
 * labels (the database cascades), and returns the storage keys of the files
 * that went with it, for the caller to remove once the delete is committed.
 * The task and each subtask leave a tombstone, stamped like any change
 * (stamp.ts), so pollers learn they are gone; the project's expired tombstones
 * are removed on the way, through the index, never by a scan of the table.
 * With `ifMatch` the task is read whole and locked first, and deleted only if it
 * passes (else 412).
 */
export async function deleteTask(db: Db, project: ProjectRef, taskId: string, ifMatch?: EtagCondition): Promise<string[]> {
  const where = taskWhere(project, taskId);
  const condition = taskCondition(project, taskId);
  if (!where || !condition) throw notFound(TASK_NOT_FOUND);
  return db.$transaction(async (tx) => {
    const deletedAt = await stampChange(tx, project.id);
    const task = ifMatch
      ? await lockIfMatch(tx, project, condition, ifMatch)
      : await tx.task.findUnique({ where, select: { id: true, number: true } });
    if (!task) throw notFound(TASK_NOT_FOUND);
    // Locking the whole subtree makes a concurrent upload to any of it wait, then
    // fail on its foreign key, so no stored file outlives its row unnoticed.
    const files = await tx.$queryRaw<{ storage_key: string }[]>`
      WITH RECURSIVE subtree AS (
        SELECT id FROM task WHERE id = ${task.id}::uuid
        UNION ALL
        SELECT child.id FROM task child JOIN subtree ON child.parent_id = subtree.id
      ), locked AS (
        SELECT id, number FROM task WHERE id IN (SELECT id FROM subtree) FOR UPDATE
      ), tombstones AS (
        INSERT INTO task_tombstone (task_id, project_id, number, deleted_at)
        SELECT id, ${project.id}::uuid, number, ${deletedAt} FROM locked
      ), expired AS (
        DELETE FROM task_tombstone
        WHERE project_id = ${project.id}::uuid AND deleted_at < ${deletedAt}::timestamptz - make_interval(days => ${TOMBSTONE_DAYS})
      )
      SELECT storage_key FROM attachment WHERE task_id IN (SELECT id FROM locked)`;
    // One change, one event: the subtasks that go with the task are listed in it, as many as an event holds.
    await enqueueEvent(tx, project, 'task.deleted', async () => {
      const subtasks = await tx.$queryRaw<{ id: string; number: number }[]>`
        WITH RECURSIVE subtree AS (
          SELECT id, number FROM task WHERE parent_id = ${task.id}::uuid
          UNION ALL
          SELECT child.id, child.number FROM task child JOIN subtree ON child.parent_id = subtree.id
        )
        SELECT id::text, number FROM subtree ORDER BY number LIMIT ${MAX_EVENT_SUBTASKS}::int`;
      const ref = (row: { id: string; number: number }) => ({ id: row.id, externalId: `${project.keyPrefix}-${row.number}` });
      return { task: ref(task), subtasks: subtasks.map(ref) };
    });
    await tx.task.delete({ where: { id: task.id } });
    return files.map((file) => file.storage_key);
  });
}
