import type { ProjectRef } from '../projects/types';
import type { UpdateTaskFields } from '../schemas/task';
import type { Db } from '../db/client';
import type { InTransaction } from '../db/transaction';
import type { Prisma } from '../db/generated/client';
import { isRecordMissing, notFound } from '../errors';
import { checkPrecondition, lockIfMatch, type EtagCondition } from './etag';
import { getTask, TASK_NOT_FOUND } from './get';
import { taskCondition, taskWhere } from './locate';
import { checkReferences } from './references';
import { loadTask, loadTaskForUpdate } from './load';
import { toTask } from './shape';
import { stampChange } from './stamp';
import { changedFields, enqueueEvent } from '../webhooks/events';

/** Partial update: omitted fields stay, null clears, a list replaces the whole list; `ifMatch` as lockIfMatch says. */
export async function updateTask(
  db: Db,
  workspaceId: string,
  project: ProjectRef,
  taskId: string,
  input: UpdateTaskFields,
  options: { ifMatch?: EtagCondition; inTransaction?: InTransaction<ReturnType<typeof toTask>> } = {},
) {
  const { ifMatch, inTransaction } = options;
  const where = taskWhere(project, taskId);
  const condition = taskCondition(project, taskId);
  if (!where || !condition) throw notFound(TASK_NOT_FOUND);
  const changes: Prisma.TaskUncheckedUpdateInput = {};
  if (input.title !== undefined) changes.title = input.title;
  if (input.description !== undefined) changes.description = input.description;
  if (input.priority !== undefined) changes.priority = input.priority;
  if (input.dueDate !== undefined) changes.dueDate = input.dueDate;
  const touchesLists = input.assigneeIds !== undefined || input.labelIds !== undefined;
  if (Object.keys(changes).length === 0 && input.statusId === undefined && !touchesLists) {
    const task = await getTask(db, project, taskId);
    checkPrecondition(task, ifMatch);
    return task;
  }

  const { status } = await checkReferences(db, workspaceId, project, input);
  if (status) {
    changes.statusId = status.id;
    changes.category = status.category;
  }
  return db.$transaction(async (tx) => {
    const updatedAt = await stampChange(tx, project.id);
    // Locking the row first makes concurrent updates of the same task replace its
    // lists one after the other instead of merging them, and gives the state the
    // webhook's `changes` are counted from.
    const before = ifMatch ? await lockIfMatch(tx, project, condition, ifMatch) : await loadTaskForUpdate(tx, condition);
    if (!before) throw notFound(TASK_NOT_FOUND);
    const task = await tx.task
      .update({ where: { id: before.id }, data: { ...changes, updatedAt }, select: { id: true } })
      .catch((error) => {
        if (isRecordMissing(error)) throw notFound(TASK_NOT_FOUND);
        throw error;
      });
    if (input.assigneeIds !== undefined) {
      await tx.taskAssignee.deleteMany({ where: { taskId: task.id } });
      await tx.taskAssignee.createMany({ data: input.assigneeIds.map((userId) => ({ taskId: task.id, userId })) });
    }
    if (input.labelIds !== undefined) {
      await tx.taskLabel.deleteMany({ where: { taskId: task.id } });
      await tx.taskLabel.createMany({ data: input.labelIds.map((labelId) => ({ taskId: task.id, labelId })) });
    }
    // Read in the transaction that changed it: the row exists.
    const updated = toTask((await loadTask(tx, task.id))!, project.keyPrefix);
    const changed = changedFields(toTask(before, project.keyPrefix), updated);
    if (changed.length > 0) await enqueueEvent(tx, project, 'task.updated', { task: updated, changes: changed });
    await inTransaction?.(tx, updated);
    return updated;
  });
}
