import { Prisma } from '../db/generated/client';

/** The statement of stampChange: the benchmark's floor sends it too. */
export function stampStatement(projectId: string): Prisma.Sql {
  return Prisma.sql`
    UPDATE project SET changed_at = greatest(clock_timestamp(), changed_at + interval '1 millisecond')
    WHERE id = ${projectId}::uuid RETURNING changed_at`;
}

/**
 * The change time of a write to a project's tasks, its `updated_at` (or a deleted
 * task's `deleted_at`), taken first in the write's transaction. The project's row
 * stays locked until the transaction ends, and each time is at least a millisecond
 * (the columns' precision) past the last: within a project, changes are stamped in
 * the order they commit and no two share a time. So a reader that has seen every
 * change up to some time will never see one appear before it later, which is what
 * lets a poller page by (updatedAt, id) without missing a task (server/tasks/list.ts).
 * Every write takes the project's row first, then the task's, so they cannot deadlock.
 */
export async function stampChange(tx: Prisma.TransactionClient, projectId: string): Promise<Date> {
  const [row] = await tx.$queryRaw<{ changed_at: Date }[]>(stampStatement(projectId));
  if (!row) throw new Error(`Project ${projectId} vanished while changing a task`);
  return row.changed_at;
}
