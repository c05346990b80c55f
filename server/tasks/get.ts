import type { ProjectRef } from '../projects/types';
import type { Db } from '../db/client';
import { notFound } from '../errors';
import { loadTaskWhere } from './load';
import { taskCondition, taskWhere } from './locate';
import { toTask } from './shape';

export const TASK_NOT_FOUND = 'Task not found';

export async function getTask(db: Db, project: ProjectRef, taskId: string) {
  const condition = taskCondition(project, taskId);
  const row = condition ? await loadTaskWhere(db, condition) : null;
  if (!row) throw notFound(TASK_NOT_FOUND);
  return toTask(row, project.keyPrefix);
}

/** The id of `taskId` in `project`, for operations on a task's comments and attachments. */
export async function findTaskId(db: Db, project: ProjectRef, taskId: string): Promise<string> {
  const where = taskWhere(project, taskId);
  const row = where ? await db.task.findUnique({ where, select: { id: true } }) : null;
  if (!row) throw notFound(TASK_NOT_FOUND);
  return row.id;
}
