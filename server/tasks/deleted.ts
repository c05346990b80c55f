import type { ProjectRef } from '../projects/types';
import type { Db } from '../db/client';
import { Prisma } from '../db/generated/client';
import { encodeCursor, type DeletedTasksQuery } from '../schemas/task';
import { TOMBSTONE_DAYS } from './delete';

/**
 * The project's tasks deleted in the last 30 days (subtasks deleted with their
 * parent included), oldest deletion first, after `since` and the cursor `after`,
 * in one statement. Deletions are stamped in commit order like any change
 * (stamp.ts), so reading on from `nextCursor` misses none.
 */
export async function listDeletedTasks(db: Db, project: ProjectRef, input: DeletedTasksQuery) {
  const conditions = [
    Prisma.sql`project_id = ${project.id}::uuid`,
    Prisma.sql`deleted_at > now() - make_interval(days => ${TOMBSTONE_DAYS})`,
  ];
  if (input.since) conditions.push(Prisma.sql`deleted_at > ${input.since}`);
  if (input.after) conditions.push(Prisma.sql`(deleted_at, task_id) > (${input.after.at}::timestamptz, ${input.after.id}::uuid)`);
  const rows = await db.$queryRaw<{ id: string; number: number; deleted_at: Date }[]>`
    SELECT task_id::text AS id, number, deleted_at FROM task_tombstone
    WHERE ${Prisma.join(conditions, ' AND ')}
    ORDER BY deleted_at, task_id
    LIMIT ${input.limit + 1}`;
  const page = rows.slice(0, input.limit);
  const last = page.at(-1);
  const next = last ? { at: last.deleted_at, id: last.id } : input.after;
  return {
    deleted: page.map((row) => ({ id: row.id, externalId: `${project.keyPrefix}-${row.number}`, deletedAt: row.deleted_at.toISOString() })),
    meta: { hasMore: rows.length > input.limit, nextCursor: next ? encodeCursor(next) : null },
  };
}
