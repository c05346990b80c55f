import type { ProjectRef } from '../projects/types';
import type { CreateTaskFields } from '../schemas/task';
import type { Db } from '../db/client';
import type { InTransaction } from '../db/transaction';
import { nextTaskNumber } from './numbers';
import { checkReferences } from './references';
import { loadTask } from './load';
import { toTask } from './shape';
import { enqueueEvent } from '../webhooks/events';

export async function createTask(
  db: Db,
  workspaceId: string,
  project: ProjectRef,
  input: CreateTaskFields,
  inTransaction?: InTransaction<ReturnType<typeof toTask>>,
) {
  const { status } = await checkReferences(db, workspaceId, project, input);
  // Without a status the task takes the project's first `todo` status, if it has one.
  const initial =
    status ??
    (await db.status.findFirst({
      where: { projectId: project.id, category: 'todo' },
      orderBy: [{ order: 'asc' }, { id: 'asc' }],
      select: { id: true, category: true },
    }));
  return db.$transaction(async (tx) => {
    const { number, changedAt } = await nextTaskNumber(tx, project.id);
    const { id } = await tx.task.create({
      data: {
        projectId: project.id,
        number,
        createdAt: changedAt,
        updatedAt: changedAt,
        title: input.title,
        description: input.description ?? null,
        priority: input.priority ?? 'none',
        dueDate: input.dueDate ?? null,
        statusId: initial?.id ?? null,
        category: initial?.category ?? 'todo',
      },
      select: { id: true },
    });
    // Separate inserts rather than nested writes: with those, Prisma reads the task back
    // once more before loadTask reads it whole.
    if (input.assigneeIds?.length) await tx.taskAssignee.createMany({ data: input.assigneeIds.map((userId) => ({ taskId: id, userId })) });
    if (input.labelIds?.length) await tx.taskLabel.createMany({ data: input.labelIds.map((labelId) => ({ taskId: id, labelId })) });
    // Read in the transaction that created it: the row exists.
    const task = toTask((await loadTask(tx, id))!, project.keyPrefix);
    await enqueueEvent(tx, project, 'task.created', { task });
    await inTransaction?.(tx, task);
    return task;
  });
}
