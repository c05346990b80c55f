import { Prisma } from '../db/generated/client';

/** A project's next change time, as stampChange says, for an UPDATE of `project p`: every write that stamps one takes it here. */
export const NEXT_CHANGE_TIME = Prisma.sql`greatest(clock_timestamp(), p.changed_at + interval '1 millisecond')`;

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
  const [row] = await tx.$queryRaw<{ changed_at: Date }[]>`
    UPDATE project p SET changed_at = ${NEXT_CHANGE_TIME} WHERE p.id = ${projectId}::uuid RETURNING p.changed_at`;
  if (!row) throw new Error(`Project ${projectId} vanished while changing a task`);
  return row.changed_at;
}

/**
 * The same stamp as a common table expression `stamp (changed_at, fresh)`, for the
 * front of a write's own statement. PostgreSQL takes a statement's snapshot when it
 * starts, so when the statement had to wait for the project's row, another write may
 * have committed in between that the rest of the statement does not see. `fresh`
 * says none did: the last change time, read under the lock, is the one the snapshot
 * holds (every write to the project's tasks moves it). A statement that finds itself
 * not fresh changes nothing; the lock is held, so the same write sent again sees all.
 */
export function stampInStatement(projectId: string): Prisma.Sql {
  return Prisma.sql`
    stamp AS (
      UPDATE project p SET changed_at = ${NEXT_CHANGE_TIME}
      FROM (SELECT id, changed_at FROM project WHERE id = ${projectId}::uuid FOR UPDATE) latest
      WHERE p.id = latest.id
      RETURNING p.changed_at, latest.changed_at = (SELECT changed_at FROM project WHERE id = ${projectId}::uuid) AS fresh)`;
}

/** A stamp already taken in this transaction, in the shape of stampInStatement's. */
export function stampTaken(changedAt: Date): Prisma.Sql {
  return Prisma.sql`stamp AS (SELECT ${changedAt}::timestamptz AS changed_at, true AS fresh)`;
}
