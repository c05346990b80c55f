import type { ProjectRef } from '../api/access';
import type { ListTasksInput } from '../api/schemas/task';
import type { Db } from '../db/client';
import type { Prisma } from '../db/generated/client';
import { externalIdNumber } from './locate';
import { taskSelect, toTask } from './shape';

/** Top-level tasks of a project, filtered, sorted and paginated; count and page share one filter. */
export async function listTasks(db: Db, project: ProjectRef, input: ListTasksInput) {
  const where = listFilter(project, input);
  const [total, rows] = await Promise.all([
    db.task.count({ where }),
    db.task.findMany({
      where,
      select: taskSelect,
      orderBy: listOrder(input),
      skip: (input.page - 1) * input.limit,
      take: input.limit,
    }),
  ]);
  const totalPages = Math.ceil(total / input.limit);
  return {
    tasks: rows.map((row) => toTask(row, project.keyPrefix)),
    meta: { total, page: input.page, limit: input.limit, totalPages, hasMore: input.page < totalPages },
  };
}

function listFilter(project: ProjectRef, input: ListTasksInput): Prisma.TaskWhereInput {
  const where: Prisma.TaskWhereInput = { projectId: project.id, parentId: null };
  if (input.statusId) where.statusId = input.statusId.toLowerCase();
  else if (input.status) where.category = input.status;
  if (input.priority) where.priority = input.priority;
  if (input.assigneeId) where.assignees = { some: { userId: input.assigneeId.toLowerCase() } };
  if (input.labelId) where.labels = { some: { labelId: input.labelId.toLowerCase() } };
  if (input.search) {
    const number = externalIdNumber(project, input.search);
    where.OR = [
      { title: { contains: escapeLike(input.search), mode: 'insensitive' } },
      ...(number === null ? [] : [{ number }]),
    ];
  }
  return where;
}

function listOrder(input: ListTasksInput): Prisma.TaskOrderByWithRelationInput[] {
  const first: Prisma.TaskOrderByWithRelationInput =
    input.sort === 'dueDate'
      ? { dueDate: { sort: input.order, nulls: 'last' } }
      : { [input.sort]: input.order };
  return [first, { id: input.order }];
}

/** Prisma passes `contains` to LIKE as it is: make wildcards plain characters. */
function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}
