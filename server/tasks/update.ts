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
import { loadTask } from './load';
import { toTask } from './shape';
import { stampChange } from './stamp';

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
    if (ifMatch) await lockIfMatch(tx, project, condition, ifMatch);
    // Updating the row before its lists locks it, so concurrent updates of the same
    // task replace its lists one after the other instead of merging them.
    const task = await tx.task.update({ where, data: { ...changes, updatedAt }, select: { id: true } }).catch((error) => {
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
    await inTransaction?.(tx, updated);
    return updated;
  });
}
