import { Prisma } from '../db/generated/client';
import { TASK_COLUMNS, type TaskRow } from './shape';

/** Anything that can send a statement: the client, or a transaction's. */
type Reader = Pick<Prisma.TransactionClient, '$queryRaw'>;

/** The task `condition` finds in the project, with its relations, in one statement. */
export async function loadTaskWhere(db: Reader, condition: Prisma.Sql): Promise<TaskRow | null> {
  const [row] = await db.$queryRaw<TaskRow[]>`SELECT ${TASK_COLUMNS} FROM task t WHERE ${condition} LIMIT 1`;
  return row ?? null;
}

/**
 * As loadTaskWhere, and locks the task's row until the transaction ends: what a
 * conditional write compares is what it changes.
 */
export async function loadTaskForUpdate(tx: Reader, condition: Prisma.Sql): Promise<TaskRow | null> {
  const [row] = await tx.$queryRaw<TaskRow[]>`SELECT ${TASK_COLUMNS} FROM task t WHERE ${condition} LIMIT 1 FOR UPDATE OF t`;
  return row ?? null;
}

/** These tasks with their relations, in the order of `ids`, in one statement. */
export async function loadTasks(db: Reader, ids: string[]): Promise<TaskRow[]> {
  if (ids.length === 0) return [];
  return db.$queryRaw<TaskRow[]>`
    SELECT ${TASK_COLUMNS}
    FROM unnest(${ids}::uuid[]) WITH ORDINALITY AS page(id, position)
    JOIN task t ON t.id = page.id
    ORDER BY page.position`;
}
