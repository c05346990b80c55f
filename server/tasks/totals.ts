import { Prisma } from '../db/generated/client';
import type { ProjectRef } from '../projects/types';
import type { ListTasksQuery } from '../schemas/task';

/** Filters the maintained counts (`task_count`) answer: status, category and priority, in any combination. */
const counted = (input: ListTasksQuery) =>
  input.search === undefined && input.assigneeId === undefined && input.labelId === undefined && input.updatedSince === undefined;

/** The last totals counted for a filter, under the project's change time they were counted at. */
interface CountedTotal {
  stamp: Date;
  total: number;
}

// Bounded: the filters most recently counted, a few dozen bytes each.
const MAX_CACHED = 2_000;
const cache = new Map<string, CountedTotal>();

const cacheKey = (project: ProjectRef, input: ListTasksQuery) =>
  JSON.stringify([
    project.id,
    input.statusId?.toLowerCase(),
    input.statusId ? undefined : input.status,
    input.priority,
    input.search,
    input.assigneeId?.toLowerCase(),
    input.labelId?.toLowerCase(),
    input.updatedSince?.toISOString(),
  ]);

/**
 * The list's `total`, exact and cheap, as a column of the list's statement, with
 * the project's change time beside it (`stamp`) for `remember`:
 *
 * - by status, category and priority (or none of them): the sum of the few
 *   `task_count` rows the filter names, which the triggers on task keep in every
 *   write's own statement, so the sum is exact in the statement's snapshot;
 * - with search, assignee, label or updatedSince: the count this process last made
 *   for the same filter, if the project's change time is still the one it was made
 *   at (every write to the project's tasks moves it, stamp.ts: the rows counted
 *   are the same), else a count of the rows, by the project's indexes.
 */
export function totalColumns(project: ProjectRef, input: ListTasksQuery, filter: Prisma.Sql): Prisma.Sql {
  const stamp = Prisma.sql`(SELECT p.changed_at FROM project p WHERE p.id = ${project.id}::uuid)`;
  if (counted(input)) {
    const conditions = [Prisma.sql`c.project_id = ${project.id}::uuid`];
    if (input.statusId) conditions.push(Prisma.sql`c.status_id = ${input.statusId.toLowerCase()}::uuid`);
    else if (input.status) conditions.push(Prisma.sql`c.category = ${input.status}::"StatusCategory"`);
    if (input.priority) conditions.push(Prisma.sql`c.priority = ${input.priority}::"Priority"`);
    return Prisma.sql`(SELECT coalesce(sum(c.tasks), 0) FROM task_count c WHERE ${Prisma.join(conditions, ' AND ')}) AS total, NULL::timestamptz AS stamp`;
  }
  const count = Prisma.sql`(SELECT count(*) FROM task t WHERE ${filter})`;
  const cached = cache.get(cacheKey(project, input));
  // An uncorrelated subquery runs only when its value is needed: on a hit, the count never does.
  const total = cached
    ? Prisma.sql`CASE WHEN ${stamp} = ${cached.stamp}::timestamptz THEN ${cached.total}::bigint ELSE ${count} END`
    : count;
  return Prisma.sql`${total} AS total, ${stamp} AS stamp`;
}

/** Keeps a total counted under `stamp` for the next list of the same filter. */
export function remember(project: ProjectRef, input: ListTasksQuery, stamp: Date | null, total: number): void {
  if (stamp === null) return;
  const key = cacheKey(project, input);
  cache.delete(key);
  cache.set(key, { stamp, total });
  if (cache.size > MAX_CACHED) cache.delete(cache.keys().next().value!);
}
